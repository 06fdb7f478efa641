'use client';
// One operand: its state, its conditions, its spec and status as the CSV's descriptors label them
// (Secrets and ConfigMaps named, links only when http(s), pod statuses grouped), events, YAML, and
// Delete as the person; once asked, the page follows the deletion and names the finalizers that
// hold it, until the object is gone.
import { useMutation, useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useState } from 'react';
import { namespaceOfSegment, placeOf } from '@/lib/api/instance-path';
import type { OperandDetails } from '@/lib/api/operands';
import { apiGet, apiWrite, ApiClientError } from '@/lib/client/api';
import type { DescriptorRow } from '@/lib/olm/resources/descriptors';
import { Badge } from '../common/badges';
import { ConditionsTable } from '../common/conditions-table';
import { ErrorPanel } from '../common/error-panel';
import { ErrorNotice } from '../common/notice';
import { RelativeTime } from '../common/relative-time';
import { YamlBlock } from '../common/yaml-block';
import { FACTS_GRID } from '../common/facts-grid';

function Value({ row }: { row: DescriptorRow }) {
  if (row.missing) return <span className="text-slate-500">not set</span>;
  const v = row.view;
  switch (v.kind) {
    case 'conditions':
      return <ConditionsTable rows={v.conditions} label={row.displayName} />;
    case 'podStatuses':
      return (
        <ul>
          {Object.entries(v.pods).map(([state, pods]) => (
            <li key={state}>
              <strong>{state}</strong> ({pods.length}): {pods.join(', ') || '—'}
            </li>
          ))}
        </ul>
      );
    case 'resource':
      return (
        <span>
          {v.resource} <code>{v.name}</code>
        </span>
      );
    case 'link':
      return (
        <a className="text-sky-700 underline" href={v.url} rel="noopener noreferrer nofollow" target="_blank">
          {v.url}
        </a>
      );
    case 'phase':
      return <Badge tone="neutral">{v.phase}</Badge>;
    default:
      return typeof v.value === 'object' && v.value !== null ? (
        <code className="text-xs">{JSON.stringify(v.value)}</code>
      ) : (
        <span>{String(v.value)}</span>
      );
  }
}

function Descriptors({ rows, label }: { rows: DescriptorRow[]; label: string }) {
  if (rows.length === 0) return null;
  return (
    <section aria-label={label} className="space-y-1">
      <h2 className="font-semibold">{label}</h2>
      <dl className={`${FACTS_GRID.widest} text-sm sm:gap-y-2`}>
        {rows.map((r) => (
          <div key={r.path} className="contents">
            <dt className="text-slate-600" title={r.description}>
              {r.displayName}
            </dt>
            <dd>
              <Value row={r} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function InstanceView({
  namespace,
  csv,
  group,
  version,
  plural,
  instanceNamespace,
  instance,
}: {
  namespace: string;
  csv: string;
  group: string;
  version: string;
  plural: string;
  instanceNamespace: string;
  instance: string;
}) {
  const path = `/api/operators/${encodeURIComponent(namespace)}/${encodeURIComponent(csv)}/instances/${[group, version, plural, instanceNamespace, instance].map(encodeURIComponent).join('/')}`;
  // `_cluster` in the path stands for no namespace: an instance of a cluster-scoped API.
  const where = namespaceOfSegment(instanceNamespace);
  const qualified = where ? `${where}/${instance}` : instance;
  const [deleting, setDeleting] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const q = useQuery({
    queryKey: ['operand', path],
    queryFn: ({ signal }) => apiGet<OperandDetails>(path, signal),
    refetchInterval: deleting ? 1000 : 5000,
    retry: false,
  });
  const del = useMutation({ mutationFn: () => apiWrite<unknown>(path, 'DELETE'), onSuccess: () => setDeleting(true) });
  const back = `/operators/${encodeURIComponent(namespace)}/${encodeURIComponent(csv)}?tab=instances`;
  const gone = deleting && q.error instanceof ApiClientError && q.error.code === 404;
  if (gone) {
    return (
      <p role="status" className="rounded border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm">
        {instance} is deleted.{' '}
        <Link className="text-sky-700 underline" href={back}>
          Back to the instances
        </Link>
      </p>
    );
  }
  if (q.error) {
    return (
      <ErrorPanel
        error={q.error}
        title={`${qualified} could not be read`}
        notFound={`There is no ${qualified}: it may have been deleted.`}
        onRetry={() => void q.refetch()}
        back={[{ href: back, label: 'Back to the instances' }]}
      />
    );
  }
  const d = q.data;
  if (!d) return <p role="status">Reading {instance}…</p>;
  const meta = d.object.metadata ?? {};
  const finalizers = meta.finalizers ?? [];
  return (
    <article className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <Link
          className="text-sky-700 underline"
          href={`/operators/${encodeURIComponent(namespace)}/${encodeURIComponent(csv)}`}
        >
          {csv}
        </Link>{' '}
        /{' '}
        <Link className="text-sky-700 underline" href={back}>
          Instances
        </Link>{' '}
        / {d.api.kind}
      </nav>
      <header className="flex flex-wrap items-start gap-3">
        <div className="mr-auto">
          <h1 className="text-2xl font-bold">{instance}</h1>
          <p className="text-slate-600">
            {d.api.displayName === d.api.kind ? d.api.kind : `${d.api.displayName} (${d.api.kind})`}, {d.api.group}/
            {d.api.version}, {placeOf(where)}
          </p>
          <p className="mt-1">
            <Badge tone={d.state.tone} title={d.state.detail}>
              {d.state.label}
            </Badge>
            {d.state.detail && <span className="ml-2 text-sm text-slate-600">{d.state.detail}</span>}
          </p>
        </div>
        <div className="flex flex-col items-end gap-1">
          <button
            type="button"
            disabled={!d.canDelete.allowed || !!meta.deletionTimestamp || deleting}
            onClick={() => setConfirm(true)}
            className="rounded border border-red-300 px-4 py-1.5 font-semibold text-red-800 disabled:cursor-not-allowed disabled:border-slate-200 disabled:text-slate-400"
          >
            Delete
          </button>
          {!d.canDelete.allowed && (
            <p className="max-w-sm text-right text-xs text-slate-600">You may not delete it: {d.canDelete.reason}</p>
          )}
        </div>
      </header>
      {confirm && !deleting && (
        <div
          role="alertdialog"
          aria-label={`Delete ${instance}?`}
          className="space-y-2 rounded border border-red-200 bg-red-50 p-3 text-sm"
        >
          <p>
            Delete {d.api.kind} {qualified}? The operator tears down what it runs for it
            {finalizers.length
              ? `; its finalizers (${finalizers.join(', ')}) keep it until the operator has done so`
              : ''}
            .
          </p>
          {del.error && <ErrorNotice error={del.error} what={`${instance} was not deleted`} />}
          <div className="flex gap-2">
            <button
              type="button"
              disabled={del.isPending}
              onClick={() => del.mutate()}
              className="rounded bg-red-700 px-3 py-1.5 font-semibold text-white disabled:bg-slate-300"
            >
              Delete {d.api.kind}
            </button>
            <button
              type="button"
              onClick={() => setConfirm(false)}
              className="rounded border border-slate-300 px-3 py-1.5"
            >
              Keep it
            </button>
          </div>
        </div>
      )}
      {(meta.deletionTimestamp || deleting) && (
        <p role="status" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm">
          Being deleted
          {meta.deletionTimestamp ? (
            <>
              {' '}
              since <RelativeTime iso={meta.deletionTimestamp} />
            </>
          ) : (
            ''
          )}
          :{' '}
          {finalizers.length
            ? `waiting for the finalizers ${finalizers.join(', ')}, which the operator removes once it has cleaned up.`
            : 'waiting for the API server.'}
        </p>
      )}
      {d.conditions.length > 0 && (
        <section aria-label="Conditions" className="space-y-1">
          <h2 className="font-semibold">Conditions</h2>
          <ConditionsTable rows={d.conditions} label="Instance conditions" />
        </section>
      )}
      <Descriptors rows={d.spec} label="Spec" />
      <Descriptors rows={d.status.filter((r) => r.view.kind !== 'conditions')} label="Status" />
      <section aria-label="Events" className="space-y-1">
        <h2 className="font-semibold">Events</h2>
        {d.events.length === 0 ? (
          <p className="text-sm text-slate-600">No events about it.</p>
        ) : (
          <ul className="text-sm">
            {d.events.map((e, i) => (
              <li key={i}>
                <strong>{e.reason}</strong> ({e.type}): {e.message}
                {e.count && e.count > 1 ? ` (×${e.count})` : ''}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="space-y-1">
        <h2 className="font-semibold">YAML</h2>
        <YamlBlock object={d.object} label={`${d.api.kind} YAML`} />
      </section>
    </article>
  );
}
