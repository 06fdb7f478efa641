'use client';
// An installed operator's pod placement and configuration, on its Subscription tab: the form over
// Subscription spec.config, saved only if nobody changed it since it was loaded, and beside it what
// each of the operator's Deployments actually carries (OLM writes the config into them; a change
// shows there once OLM has written the Deployment again).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiGet, apiWrite } from '@/lib/client/api';
import { usePermission } from '@/lib/client/permissions';
import {
  configFromForm,
  describeConfig,
  formFromConfig,
  validateForm,
  type ConfigForm,
} from '@/lib/olm/install/operator-config-form';
import type { DeploymentConfigView, OperatorConfigView, PodPlacementFacts } from '@/lib/api/operator-config';
import { ErrorNotice } from '../common/notice';
import { OperatorConfigFields } from './operator-config-fields';

export function OperatorConfigSection({ namespace, name }: { namespace: string; name: string }) {
  const url = `/api/subscriptions/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/config`;
  const key = ['operator-config', namespace, name];
  const q = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => apiGet<OperatorConfigView>(url, signal),
    refetchInterval: 5000,
  });
  const perm = usePermission(namespace, 'changeSubscription');
  const placementFacts = useQuery({
    queryKey: ['pod-placement'],
    queryFn: ({ signal }) => apiGet<PodPlacementFacts>('/api/pod-placement', signal),
    staleTime: 60_000,
  });
  const [draft, setDraft] = useState<{ form: ConfigForm; base: string } | undefined>();
  const qc = useQueryClient();
  const loaded = q.data;
  const baseJson = JSON.stringify(loaded?.config ?? null);
  // Editing starts from what was loaded; a draft made from an older config is dropped only on save or reset.
  const form = draft?.form ?? formFromConfig(loaded?.config);
  const problems = validateForm(form);
  const next = configFromForm(form);
  const changed = JSON.stringify(next ?? null) !== baseJson;
  const save = useMutation({
    mutationFn: () =>
      apiWrite<{ changed: boolean }>(url, 'PUT', {
        config: next ?? null,
        seen: draft ? JSON.parse(draft.base) : (loaded?.config ?? null),
      }),
    onSuccess: async () => {
      setDraft(undefined);
      await qc.invalidateQueries({ queryKey: key });
    },
  });
  const createCa = useMutation({
    mutationFn: (configMap: string) => apiWrite(`${url}/ca-bundle`, 'POST', { configMap }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: key }),
  });
  const denied =
    perm.allowed === false
      ? `You may not change subscriptions in ${namespace}: ${perm.reason ?? 'the cluster refused'}`
      : undefined;

  if (q.error) return <ErrorNotice error={q.error} what="The operator's configuration could not be read" />;
  if (!loaded) return <p role="status">Loading the operator&apos;s configuration…</p>;
  const stale = !!draft && draft.base !== baseJson;

  return (
    <section aria-labelledby="config-title" className="space-y-3">
      <h2 id="config-title" className="text-lg font-semibold">
        Pod placement and configuration
      </h2>
      <p className="text-sm text-slate-600">
        OLM writes this configuration into the operator&apos;s Deployments (and writes them again when it changes,
        restarting the operator).
      </p>
      {denied && <p className="text-sm text-slate-600">{denied}</p>}
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 xl:grid-cols-2">
        <form
          aria-label="Operator configuration"
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <OperatorConfigFields
            idPrefix="sub-config"
            form={form}
            onChange={(f) => setDraft({ form: f, base: draft?.base ?? baseJson })}
            problems={problems}
            disabled={!!denied}
            openshift={loaded.openshift}
            clusterProxy={loaded.clusterProxy}
            nodes={placementFacts.data?.nodes}
          />
          {loaded.caBundle?.state === 'missing' && (
            <div role="alert" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
              <p>
                ConfigMap {loaded.caBundle.configMap} does not exist in {namespace}: the operator&apos;s pods cannot
                start until it does.
                {loaded.openshift
                  ? " Created with the injection label, OpenShift fills it with the cluster's trusted CAs."
                  : ' Create it with your CA certificates.'}
              </p>
              {loaded.openshift && (
                <button
                  type="button"
                  disabled={createCa.isPending}
                  onClick={() => createCa.mutate(loaded.caBundle!.configMap)}
                  className="mt-1 rounded border border-amber-700 px-2 py-1 font-semibold text-amber-900 disabled:text-slate-400"
                >
                  Create ConfigMap {loaded.caBundle.configMap} for OpenShift to fill
                </button>
              )}
              {createCa.error && <ErrorNotice error={createCa.error} what="The ConfigMap was not created" />}
            </div>
          )}
          {loaded.caBundle?.state === 'present' && loaded.openshift && !loaded.caBundle.injected && (
            <p className="text-xs text-slate-600">
              ConfigMap {loaded.caBundle.configMap} is not labelled {'config.openshift.io/inject-trusted-cabundle=true'}
              : OpenShift does not fill it; it holds what you put there.
            </p>
          )}
          {changed && next && (
            <div
              role="note"
              aria-label="What will change"
              className="rounded border border-sky-200 bg-sky-50 px-3 py-2 text-sm"
            >
              <p className="font-semibold">On save, the operator:</p>
              <ul className="list-disc pl-5">
                {describeConfig(next).map((l) => (
                  <li key={l}>{l}</li>
                ))}
              </ul>
            </div>
          )}
          {changed && !next && (
            <p className="text-sm">
              On save, the configuration is removed and the operator runs as its bundle defines it.
            </p>
          )}
          {stale && (
            <p role="alert" className="text-sm text-amber-900">
              Someone changed this configuration since you started editing: saving will be refused. Reset to see theirs.
            </p>
          )}
          <div className="flex items-center gap-3">
            <button
              type="submit"
              disabled={!!denied || !changed || problems.length > 0 || save.isPending}
              className="rounded bg-sky-700 px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
            >
              {save.isPending ? 'Saving…' : 'Save configuration'}
            </button>
            <button
              type="button"
              disabled={!draft}
              onClick={() => setDraft(undefined)}
              className="text-sm text-sky-700 underline disabled:text-slate-400"
            >
              Reset
            </button>
            {problems.length > 0 && (
              <span className="text-sm text-red-800">
                {problems.length === 1 ? 'One field needs' : `${problems.length} fields need`} fixing.
              </span>
            )}
          </div>
          {save.isSuccess && !draft && (
            <p role="status" className="text-sm text-emerald-800">
              {save.data.changed ? 'Saved. OLM is writing the Deployment again.' : 'Nothing to change.'}
            </p>
          )}
          {save.error && <ErrorNotice error={save.error} what="The configuration was not saved" />}
        </form>
        <DeploymentsCarry view={loaded} />
      </div>
    </section>
  );
}

function DeploymentsCarry({ view }: { view: OperatorConfigView }) {
  if (view.deploymentsDenied)
    return (
      <p className="text-sm text-slate-600">What the Deployments carry cannot be shown: {view.deploymentsDenied}.</p>
    );
  if (!view.deployments?.length)
    return (
      <p className="text-sm text-slate-600">
        {view.subscription.installedCSV
          ? `No Deployment of ${view.subscription.installedCSV} yet.`
          : 'Nothing is installed yet.'}
      </p>
    );
  return (
    <div className="space-y-3">
      {view.deployments.map((d) => (
        <DeploymentCard key={d.name} d={d} />
      ))}
    </div>
  );
}

const fmt = (o: unknown) =>
  o === undefined
    ? '—'
    : Object.entries(o as Record<string, unknown>)
        .map(([k, v]) =>
          typeof v === 'object'
            ? `${k}: ${Object.entries(v as object)
                .map(([a, b]) => `${a} ${String(b)}`)
                .join(', ')}`
            : v === ''
              ? k
              : `${k}=${String(v)}`,
        )
        .join('; ') || '—';

function DeploymentCard({ d }: { d: DeploymentConfigView }) {
  return (
    <section aria-label={`Deployment ${d.name}`} className="rounded border border-slate-200 bg-white p-3 text-sm">
      <h3 className="font-medium [overflow-wrap:anywhere]">
        Deployment {d.name}{' '}
        <span className="font-normal text-slate-600">({d.available ? 'available' : 'rolling out'})</span>
      </h3>
      <dl className="mt-2 grid grid-cols-[8rem_minmax(0,1fr)] gap-x-3 gap-y-1 [overflow-wrap:anywhere]">
        <dt className="text-slate-600">Node selector</dt>
        <dd>{fmt(d.nodeSelector)}</dd>
        <dt className="text-slate-600">Tolerations</dt>
        <dd>
          {d.tolerations?.length
            ? (d.tolerations as { key?: string; operator?: string; value?: string; effect?: string }[])
                .map(
                  (t) =>
                    `${t.key ?? '*'}${t.operator === 'Exists' ? ' exists' : `=${t.value ?? ''}`}${t.effect ? `:${t.effect}` : ''}`,
                )
                .join(', ')
            : '—'}
        </dd>
        <dt className="text-slate-600">Affinity</dt>
        <dd>{d.affinity ? Object.keys(d.affinity).join(', ') : '—'}</dd>
        <dt className="text-slate-600">Volumes</dt>
        <dd>{d.volumes.length ? d.volumes.map((v) => `${v.name} (${v.source})`).join(', ') : '—'}</dd>
      </dl>
      {d.containers.map((c) => (
        <div key={c.name} className="mt-2 border-t border-slate-100 pt-2">
          <p className="font-medium">Container {c.name}</p>
          <dl className="grid grid-cols-[8rem_minmax(0,1fr)] gap-x-3 gap-y-1 [overflow-wrap:anywhere]">
            <dt className="text-slate-600">Resources</dt>
            <dd>{fmt(c.resources)}</dd>
            <dt className="text-slate-600">Environment</dt>
            <dd>
              {c.env.length
                ? c.env.map((e) => (e.from ? `${e.name} (from ${e.from})` : `${e.name}=${e.value}`)).join(', ')
                : '—'}
              {c.envFrom.length ? `; all of ${c.envFrom.join(', ')}` : ''}
            </dd>
            <dt className="text-slate-600">Mounts</dt>
            <dd>{c.volumeMounts.length ? c.volumeMounts.map((m) => `${m.name} at ${m.mountPath}`).join(', ') : '—'}</dd>
          </dl>
        </div>
      ))}
    </section>
  );
}
