'use client';
// The page a cluster admin starts a rollout on: the package and how each cluster installs it, which
// clusters and in what order; then the preview the hub gives (POST /api/fleet/rollouts/preview),
// and only from it the write as the person (POST /api/fleet/rollouts), landing on the rollout's
// page; or the same hub objects for Git (POST /api/fleet/rollouts/export). Every refusal of the
// routes is shown beside the field it is about. Where the home cluster is no hub the person may
// read, the page says so and offers no preview.
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import type { RolloutPreview } from '@/lib/api/fleet-rollouts';
import { ApiClientError, apiWrite } from '@/lib/client/api';
import { useClusterRouter } from '@/lib/client/cluster';
import type { ExportFile } from '@/lib/olm/install/gitops-export';
import type { RolloutChoices } from '@/lib/olm/rollout/choices';
import { GitopsFiles } from '../common/gitops-files';
import { Warning } from '../common/notice';
import { hubPageState } from '../shell/nav-items';
import { useFleetIndex } from './fleet-index';
import { FormField, INPUT } from './rollout-form-field';
import { RolloutPackageFields } from './rollout-form-package';
import { RolloutPlacementFields } from './rollout-form-placement';
import { RolloutPolicyFields } from './rollout-form-policy';
import { RolloutPreviewView } from './rollout-form-preview';
import { choicesOf, fieldProblemsOf, type FieldProblems, type RolloutForm } from './rollout-form-state';
import { useRolloutCatalog } from './use-rollout-catalog';

/** A package name as a DNS label, for the names that follow it until the person types their own. */
const asLabel = (pkg: string) =>
  pkg
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .slice(0, 63)
    .replace(/^-+|-+$/g, '');

function startingForm(params: URLSearchParams): RolloutForm {
  const pkg = params.get('package') ?? '';
  return {
    name: asLabel(pkg),
    hubNamespace: 'rollouts',
    olm: params.get('olm') === 'v1' ? 'v1' : 'v0',
    package: pkg,
    catalog: params.get('catalog') ?? '',
    channel: params.get('channel') ?? '',
    version: '',
    approval: 'Automatic',
    installNamespace: asLabel(pkg),
    clusterSets: '',
    labels: '',
    claims: [],
    canary: '',
    waveSize: '1',
    progressDeadline: '',
    minSuccessTime: '',
    policy: { on: false, namespace: '', allowedVersions: '', upgradeApproval: 'Automatic' },
  };
}

type Refusal = { fields: FieldProblems; rest: string[] };
const refusalOf = (err: unknown): Refusal =>
  err instanceof ApiClientError ? fieldProblemsOf(err.body) : { fields: {}, rest: [String(err)] };

export function RolloutFormView() {
  const params = useSearchParams();
  const router = useClusterRouter();
  const [form, setForm] = useState(() => startingForm(params));
  const [setsTyped, setSetsTyped] = useState(false);
  const [refusal, setRefusal] = useState<Refusal>({ fields: {}, rest: [] });
  const index = useFleetIndex();
  const hub = hubPageState(index.data, index.isError);
  const managed = (index.data?.clusters ?? []).flatMap((c) => (c.managed ? [c.managed] : []));
  const knownSets = [...new Set(managed.flatMap((m) => (m.clusterSet ? [m.clusterSet] : [])))].sort();

  const catalog = useRolloutCatalog(form.olm, form.package, form.catalog, form.channel);
  const channel = catalog.channels.some((c) => c.name === form.channel)
    ? form.channel
    : (catalog.defaultChannel ?? catalog.channels[0]?.name ?? '');
  const versionKnown = catalog.channels
    .find((c) => c.name === channel)
    ?.versions.some((v) => (form.olm === 'v0' ? v.csvName : (v.version ?? v.csvName)) === form.version);
  // What is in effect: the catalog, channel and version the lists offer, the sets the hub has.
  const current: RolloutForm = {
    ...form,
    catalog: catalog.catalog,
    channel,
    version: versionKnown ? form.version : '',
    clusterSets: setsTyped ? form.clusterSets : (knownSets.includes('default') ? ['default'] : knownSets).join(', '),
  };
  const built = choicesOf(current);
  const choices = 'choices' in built ? built.choices : undefined;
  const problems: FieldProblems = 'problems' in built ? built.problems : refusal.fields;

  const set = (change: Partial<RolloutForm>) => {
    if ('clusterSets' in change) setSetsTyped(true);
    // A refusal is of the value it was about: changing the field takes it away.
    const changed = Object.keys(change).map((k) => (k === 'policy' ? 'operatorPolicy' : k));
    setRefusal((r) => ({
      ...r,
      fields: Object.fromEntries(Object.entries(r.fields).filter(([k]) => !changed.includes(k))),
    }));
    setForm((f) => {
      const follows = (field: 'name' | 'installNamespace') =>
        change.package !== undefined && f[field] === asLabel(f.package) ? { [field]: asLabel(change.package) } : {};
      return { ...f, ...change, ...follows('name'), ...follows('installNamespace') };
    });
  };

  const [previewed, setPreviewed] = useState<{ preview: RolloutPreview; of: string }>();
  const preview = useMutation({
    mutationFn: (c: RolloutChoices) => apiWrite<RolloutPreview>('/api/fleet/rollouts/preview', 'POST', c),
    onMutate: () => setRefusal({ fields: {}, rest: [] }),
    onSuccess: (p, c) => setPreviewed({ preview: p, of: JSON.stringify(c) }),
    onError: (err) => (setPreviewed(undefined), setRefusal(refusalOf(err))),
  });
  const write = useMutation({
    mutationFn: (c: RolloutChoices) => apiWrite<{ written: string[] }>('/api/fleet/rollouts', 'POST', c),
    onSuccess: (_, c) =>
      router.push(`/fleet/rollouts/${encodeURIComponent(c.hubNamespace)}/${encodeURIComponent(c.name)}`),
    onError: (err) => setRefusal(refusalOf(err)),
  });
  const exported = useMutation({
    mutationFn: (c: RolloutChoices) =>
      apiWrite<{ files: ExportFile[]; blockers: string[] }>('/api/fleet/rollouts/export', 'POST', c),
    onMutate: () => setRefusal({ fields: {}, rest: [] }),
    onError: (err) => setRefusal(refusalOf(err)),
  });
  const stale = !!previewed && previewed.of !== JSON.stringify(choices);
  const cannot = hub.shown === 'no' ? hub.reason : undefined;

  return (
    <section aria-labelledby="rollout-form-title" className="space-y-4">
      <p className="text-sm">
        <Link href="/fleet/rollouts" className="text-sky-700 underline">
          Rollouts
        </Link>
      </p>
      <h1 id="rollout-form-title" className="text-2xl font-bold">
        New rollout
      </h1>
      <p className="text-sm text-slate-700">
        One declaration on the Open Cluster Management hub installs an operator on many clusters: a canary first, then
        waves, each wave once the one before is healthy. You see the preview before anything is written.
      </p>
      {cannot ? <Warning title="No rollout can start here">{cannot}</Warning> : null}
      <form
        noValidate
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (choices) preview.mutate(choices);
        }}
      >
        <fieldset className="min-w-0 rounded border border-slate-300 bg-white p-3">
          <legend className="px-1 font-semibold">The rollout</legend>
          <div className="grid gap-3 md:grid-cols-2">
            <FormField
              label="Rollout name"
              hint="The Placement's and the ManifestWorkReplicaSet's, and each cluster's ManifestWork."
              problems={problems.name}
            >
              {(p) => (
                <input {...p} className={INPUT} value={form.name} onChange={(e) => set({ name: e.target.value })} />
              )}
            </FormField>
            <FormField
              label="Hub namespace"
              hint="Where the rollout lives on the hub; made if it does not exist."
              problems={problems.hubNamespace}
            >
              {(p) => (
                <input
                  {...p}
                  className={INPUT}
                  value={form.hubNamespace}
                  onChange={(e) => set({ hubNamespace: e.target.value })}
                />
              )}
            </FormField>
          </div>
        </fieldset>
        <RolloutPackageFields form={current} set={set} catalog={catalog} problems={problems} />
        {form.olm === 'v0' ? <RolloutPolicyFields form={current} set={set} problems={problems} /> : null}
        <RolloutPlacementFields form={current} set={set} managed={managed} problems={problems} />
        {catalog.error ? (
          <p className="text-sm text-red-800">
            The hub&apos;s catalogs could not be read:{' '}
            {catalog.error instanceof Error ? catalog.error.message : String(catalog.error)}
          </p>
        ) : null}
        {refusal.rest.length ? (
          <div role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
            <p className="font-semibold">The hub refused it:</p>
            <ul className="list-disc pl-5">
              {refusal.rest.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
          </div>
        ) : null}
        {Object.keys(refusal.fields).length && !('problems' in built) ? (
          <p role="alert" className="text-sm text-red-800">
            Some choices were refused: each says why beside it.
          </p>
        ) : null}
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="submit"
            disabled={!choices || !!cannot || preview.isPending}
            className="rounded bg-sky-700 px-4 py-2 font-semibold text-white disabled:bg-slate-400"
          >
            {preview.isPending ? 'Asking the hub…' : 'Preview'}
          </button>
          <button
            type="button"
            disabled={!choices || !!cannot || exported.isPending}
            onClick={() => choices && exported.mutate(choices)}
            className="rounded border border-sky-700 px-4 py-2 font-semibold text-sky-800 disabled:border-slate-400
              disabled:text-slate-500"
          >
            Export for GitOps
          </button>
          {!choices ? <p className="text-sm text-slate-700">Some fields cannot be read yet: each says why.</p> : null}
          {cannot ? <p className="text-sm text-slate-700">Not offered: {cannot}</p> : null}
        </div>
      </form>
      {previewed ? (
        <RolloutPreviewView
          preview={previewed.preview}
          stale={stale}
          writing={write.isPending}
          onWrite={() => write.mutate(previewed.preview.choices)}
        />
      ) : null}
      {exported.data && JSON.stringify(exported.variables) !== JSON.stringify(choices) ? (
        <p className="text-sm text-slate-700">The choices changed since the export: export them again.</p>
      ) : exported.data ? (
        <section aria-labelledby="rollout-export" className="space-y-2">
          <h2 id="rollout-export" className="text-lg font-semibold">
            For GitOps: the hub objects as a kustomize tree
          </h2>
          <GitopsFiles
            files={exported.data.files}
            notes={exported.data.blockers}
            tar={{ filename: `rollout-${exported.variables?.name ?? 'rollout'}-gitops.tar` }}
          />
        </section>
      ) : null}
    </section>
  );
}
