'use client';
// The Instances tab: every instance of each API the operator provides, in the namespaces it
// watches that the person may list, with its state in a word and its age, read again every few
// seconds (operands are of any kind, which the console's watch stream does not follow). Each links
// to its page; an API with none says what would appear here and how to make one.
import { useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import type { OperandList } from '@/lib/api/operands';
import { instanceSegment } from '@/lib/api/instance-path';
import { apiGet } from '@/lib/client/api';
import { Badge } from '../common/badges';
import { ErrorPanel } from '../common/error-panel';
import { StackedCell, StackedRow, StackedTable } from '../common/stacked-table';
import { createOperandHref } from './create-href';

/** An instance's page; a cluster-scoped instance (no namespace) is at `_cluster`. */
export function instanceHref(
  namespace: string,
  csv: string,
  api: { group: string; version: string; plural: string },
  instanceNamespace: string | undefined,
  instance: string,
): string {
  return `/operators/${encodeURIComponent(namespace)}/${encodeURIComponent(csv)}/instances/${[api.group, api.version, api.plural, instanceSegment(instanceNamespace), instance].map(encodeURIComponent).join('/')}`;
}

function age(iso?: string): string {
  if (!iso) return '';
  const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  return s < 120
    ? `${Math.round(s)} s`
    : s < 7200
      ? `${Math.round(s / 60)} min`
      : s < 172800
        ? `${Math.round(s / 3600)} h`
        : `${Math.round(s / 86400)} d`;
}

export function InstancesTab({ namespace, name }: { namespace: string; name: string }) {
  const key = ['operands', namespace, name];
  const q = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      apiGet<OperandList>(
        `/api/operators/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/instances`,
        signal,
      ),
    refetchInterval: 5000,
  });
  if (q.error) {
    return (
      <ErrorPanel level={2} error={q.error} title="Instances could not be read" onRetry={() => void q.refetch()} />
    );
  }
  if (!q.data) return <p role="status">Reading the instances…</p>;
  if (q.data.apis.length === 0)
    return <p className="text-sm text-slate-600">This operator provides no API of its own.</p>;
  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-600">
        Instances in {q.data.scope === 'every namespace' ? 'every namespace you may list' : q.data.scope}
        {q.data.apis.some((a) => !a.namespaced) ? '; those of a cluster-scoped API, wherever the operator runs' : ''}.
      </p>
      {q.data.apis.map((api) => (
        <section key={`${api.group}/${api.plural}`} aria-label={`${api.kind} instances`} className="space-y-2">
          <h2 className="font-semibold [overflow-wrap:anywhere]">
            {/* The kind is said once: many operators' display name is their kind. */}
            {api.displayName || api.kind}{' '}
            <span className="text-sm font-normal text-slate-600">
              {api.displayName && api.displayName !== api.kind ? `${api.kind} · ` : ''}
              {api.group}/{api.version}
              {api.namespaced ? '' : ' · cluster-scoped'} · {api.total === 1 ? '1 instance' : `${api.total} instances`}
            </span>
          </h2>
          <Link className="text-sm text-sky-700 underline" href={createOperandHref(namespace, name, api)}>
            Create {api.kind}
          </Link>
          {api.problem && <p className="text-sm text-amber-800">{api.problem}.</p>}
          {api.items.length === 0 ? (
            <EmptyApi api={api} />
          ) : (
            <StackedTable
              label={`${api.kind} instances`}
              columns={['Name', ...(api.namespaced ? ['Namespace'] : []), 'Status', 'Age']}
            >
              {api.items.map((i) => (
                <StackedRow key={`${i.namespace}/${i.name}`}>
                  <StackedCell label="Name">
                    <Link
                      className="text-sky-700 underline"
                      href={instanceHref(namespace, name, api, i.namespace, i.name)}
                    >
                      {i.name}
                    </Link>
                  </StackedCell>
                  {api.namespaced && <StackedCell label="Namespace">{i.namespace}</StackedCell>}
                  <StackedCell label="Status">
                    {i.deleting ? (
                      <Badge tone="warning" title={`Finalizers: ${i.deleting.finalizers.join(', ') || 'none'}`}>
                        Deleting
                      </Badge>
                    ) : (
                      <Badge tone={i.state.tone} title={i.state.detail}>
                        {i.state.label}
                      </Badge>
                    )}
                  </StackedCell>
                  <StackedCell label="Age" className="text-slate-600">
                    {i.createdAt && (
                      <time dateTime={i.createdAt} title={new Date(i.createdAt).toLocaleString()}>
                        {age(i.createdAt)}
                      </time>
                    )}
                  </StackedCell>
                </StackedRow>
              ))}
            </StackedTable>
          )}
          {api.total > api.items.length && (
            <p className="text-xs text-slate-600">
              Showing {api.items.length} of {api.total}.
            </p>
          )}
        </section>
      ))}
    </div>
  );
}

/** An API with no instance: what would appear here, and how one comes to be. */
function EmptyApi({ api }: { api: OperandList['apis'][number] }) {
  const where = api.namespaced ? 'in the namespaces the operator watches' : 'in the cluster';
  return (
    <p className="rounded border border-dashed border-slate-300 px-3 py-2 text-sm text-slate-700">
      {api.problem ? `No ${api.kind} that you can see.` : `No ${api.kind} yet.`} Each {api.kind} {where} appears here
      with its state, once someone creates one: with Create {api.kind} above, or with kubectl apply.
    </p>
  );
}
