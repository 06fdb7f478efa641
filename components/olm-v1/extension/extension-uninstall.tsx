'use client';
// Uninstalling a ClusterExtension: first what OLM v1's delete takes with it — the CRDs and every
// instance of them in the cluster, counted as the person (or why a count could not be made) — and
// the ServiceAccount, roles and bindings the console's install made for it, to delete too or keep
// (what only looks like the install's is named with the reason it is not offered, for the person to
// judge by hand); the extension's name typed to confirm; then the deletion followed until it is gone.
import { useMutation, useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useEffect, useState } from 'react';
import type { ExtensionDetails, ExtensionUninstallPreview } from '@/lib/api/olm-v1-extensions';
import { apiGet, apiWrite, ApiClientError } from '@/lib/client/api';
import { ErrorNotice } from '../../common/notice';

type Access = ExtensionUninstallPreview['access'][number];
type Outcome = Access & { outcome: string; message?: string };
const key = (a: Access) => `${a.kind}/${a.namespace ?? ''}/${a.name}`;
const DANGER =
  'rounded border border-red-400 px-3 py-1.5 text-sm font-semibold text-red-800 hover:bg-red-50 disabled:cursor-not-allowed disabled:border-slate-200 disabled:text-slate-500';

export function ExtensionUninstall(props: { details: ExtensionDetails; open: boolean; onStarted: () => void }) {
  const { details: d, open: initiallyOpen } = props;
  const [open, setOpen] = useState(initiallyOpen);
  const blocked = d.canDelete.allowed ? undefined : `You may not delete ${d.name}: ${d.canDelete.reason ?? ''}`;
  return (
    <section aria-labelledby="ext-uninstall" className="space-y-2">
      <h2 id="ext-uninstall" className="text-lg font-semibold">
        Uninstall
      </h2>
      {blocked && <p className="text-sm text-slate-700">{blocked}</p>}
      {!open ? (
        <button type="button" className={DANGER} disabled={!!blocked || d.deleting} onClick={() => setOpen(true)}>
          Uninstall…
        </button>
      ) : (
        <UninstallPanel name={d.name} onCancel={() => setOpen(false)} onStarted={props.onStarted} />
      )}
    </section>
  );
}

function UninstallPanel(props: { name: string; onCancel: () => void; onStarted: () => void }) {
  const { name, onCancel } = props;
  const path = `/api/olm-v1/clusterextensions/${encodeURIComponent(name)}/uninstall`;
  const preview = useQuery({
    queryKey: ['olm-v1', 'clusterextension-uninstall', name],
    queryFn: ({ signal }) => apiGet<ExtensionUninstallPreview>(path, signal),
    staleTime: Infinity,
  });
  const [typed, setTyped] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const run = useMutation({
    mutationFn: (p: ExtensionUninstallPreview) =>
      apiWrite<{ access: Outcome[] }>(path, 'POST', {
        seen: p.generation,
        confirm: typed,
        alsoDelete: p.access.filter((a) => chosen.has(key(a))),
      }),
    onSuccess: props.onStarted,
  });
  if (run.data) return <Following name={name} access={run.data.access} />;
  if (preview.error) return <ErrorNotice error={preview.error} what="What uninstalling deletes could not be read" />;
  const p = preview.data;
  if (!p) return <p role="status">Counting what uninstalling deletes…</p>;
  const instances = p.crds.reduce((n, c) => n + (typeof c.instances === 'number' ? c.instances : 0), 0);
  return (
    <div role="region" aria-label={`Uninstall ${name}`} className="space-y-3 rounded border border-red-300 p-3 text-sm">
      <p>
        OLM v1 does not uninstall piece by piece: deleting ClusterExtension <strong>{name}</strong> lets Kubernetes
        garbage collection delete everything it installed, <strong>its CustomResourceDefinitions included</strong>, and
        with each CRD <strong>every instance of it in the whole cluster</strong>.
      </p>
      {p.crdsProblem && <p className="text-amber-900">{p.crdsProblem}.</p>}
      {p.crds.length > 0 ? (
        <ul aria-label="CRDs deleted with it" className="list-disc pl-5">
          {p.crds.map((c) => (
            <li key={c.name} className="[overflow-wrap:anywhere]">
              {c.name}:{' '}
              {typeof c.instances === 'number'
                ? `${c.instances} instance${c.instances === 1 ? '' : 's'} deleted with it`
                : `instances not counted (${c.instances.problem})`}
            </li>
          ))}
        </ul>
      ) : (
        !p.crdsProblem && <p>It installed no CRD.</p>
      )}
      {instances > 0 && (
        <p className="font-semibold text-red-900">
          {instances} instance{instances === 1 ? '' : 's'} will be deleted.
        </p>
      )}
      {(p.access.length > 0 || p.accessProblems.length > 0) && (
        <fieldset className="space-y-1">
          <legend className="font-medium">
            The ServiceAccount, bindings and roles the console made for this install (OLM v1 leaves them): delete them
            too?
          </legend>
          {p.access.map((a) => (
            <label key={key(a)} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={chosen.has(key(a))}
                onChange={(e) => {
                  const next = new Set(chosen);
                  if (e.target.checked) next.add(key(a));
                  else next.delete(key(a));
                  setChosen(next);
                }}
              />
              {a.kind} {a.namespace ? `${a.namespace}/` : ''}
              {a.name}
            </label>
          ))}
          {p.accessProblems.map((x) => (
            <p key={x} className="text-slate-600">
              Not checked: {x}.
            </p>
          ))}
        </fieldset>
      )}
      {p.notOffered.length > 0 && (
        <div className="space-y-1">
          <p className="font-medium">Not offered: the console did not make these for {name}</p>
          <ul aria-label="Not offered" className="list-disc pl-5 text-slate-700">
            {p.notOffered.map((a) => (
              <li key={key(a)} className="[overflow-wrap:anywhere]">
                {a.kind} {a.namespace ? `${a.namespace}/` : ''}
                {a.name}: {a.reason}.
              </li>
            ))}
          </ul>
          <p className="text-slate-600">
            They stay. If one is this install&apos;s alone and nothing else needs it, delete it yourself.
          </p>
        </div>
      )}
      <label className="flex flex-col gap-1">
        <span>
          Type <strong>{name}</strong> to confirm
        </span>
        <input
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
          className="w-64 max-w-full rounded border border-slate-300 px-2 py-1.5"
        />
      </label>
      <div className="flex gap-2">
        <button
          type="button"
          className={DANGER}
          disabled={typed !== name || run.isPending || !p.canDelete.allowed}
          onClick={() => run.mutate(p)}
        >
          Uninstall {name}
        </button>
        <button type="button" className="rounded border border-slate-300 px-3 py-1.5" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {run.error && <ErrorNotice error={run.error} what="The uninstall was refused" />}
    </div>
  );
}

/** After the delete: the extension read again until the API server says it is gone. */
function Following({ name, access }: { name: string; access: Outcome[] }) {
  const [gone, setGone] = useState(false);
  useEffect(() => {
    if (gone) return;
    const t = setInterval(() => {
      apiGet(`/api/olm-v1/clusterextensions/${encodeURIComponent(name)}`).catch((e: unknown) => {
        if (e instanceof ApiClientError && e.code === 404) setGone(true);
      });
    }, 1000);
    return () => clearInterval(t);
  }, [gone, name]);
  return (
    <div role="status" className="space-y-2 rounded border border-slate-300 p-3 text-sm">
      <p>
        {gone
          ? `ClusterExtension ${name} is gone; garbage collection deletes what it installed.`
          : `Deleting ClusterExtension ${name}: OLM v1 runs its finalizers, then Kubernetes removes it…`}
      </p>
      {access.length > 0 && (
        <ul className="list-disc pl-5">
          {access.map((a) => (
            <li key={key(a)}>
              {a.kind} {a.name}: {a.outcome === 'already-gone' ? 'already gone' : a.outcome}
              {a.message ? ` (${a.message})` : ''}
            </li>
          ))}
        </ul>
      )}
      {gone && (
        <Link className="text-sky-700 underline" href="/operators">
          Back to Installed Operators
        </Link>
      )}
    </div>
  );
}
