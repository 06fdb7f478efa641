'use client';
// The Instances tab: every instance of each API the operator provides, in the namespaces it
// watches that the person may list, with its state in a word and its age, read again every few
// seconds (operands are of any kind, which the console's watch stream does not follow). Each links
// to its page.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { OperandList } from '@/lib/api/operands';
import { instanceSegment } from '@/lib/api/instance-path';
import { apiGet } from '@/lib/client/api';
import { Badge } from '../common/badges';
import { ErrorNotice } from '../common/notice';
import { createOperandHref } from './create-href';

/** An instance's page; a cluster-scoped instance (no namespace) is at `_cluster`. */
export function instanceHref(namespace: string, csv: string, api: { group: string; version: string; plural: string }, instanceNamespace: string | undefined, instance: string): string {
  return `/operators/${encodeURIComponent(namespace)}/${encodeURIComponent(csv)}/instances/${[api.group, api.version, api.plural, instanceSegment(instanceNamespace), instance].map(encodeURIComponent).join('/')}`;
}

function age(iso?: string): string {
  if (!iso) return '';
  const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  return s < 120 ? `${Math.round(s)} s` : s < 7200 ? `${Math.round(s / 60)} min` : s < 172800 ? `${Math.round(s / 3600)} h` : `${Math.round(s / 86400)} d`;
}

export function InstancesTab({ namespace, name }: { namespace: string; name: string }) {
  const key = ['operands', namespace, name];
  const q = useQuery({ queryKey: key, queryFn: ({ signal }) => apiGet<OperandList>(`/api/operators/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/instances`, signal), refetchInterval: 5000 });
  if (q.error) return <ErrorNotice error={q.error} what="Instances could not be read" />;
  if (!q.data) return <p role="status">Reading the instances…</p>;
  if (q.data.apis.length === 0) return <p className="text-sm text-slate-600">This operator provides no API of its own.</p>;
  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-600">
        Instances in {q.data.scope === 'every namespace' ? 'every namespace you may list' : q.data.scope}
        {q.data.apis.some((a) => !a.namespaced) ? '; those of a cluster-scoped API, wherever the operator runs' : ''}.
      </p>
      {q.data.apis.map((api) => (
        <section key={`${api.group}/${api.plural}`} aria-label={`${api.kind} instances`} className="space-y-2">
          <h2 className="font-semibold">
            {api.displayName} <span className="text-sm font-normal text-slate-600">{api.kind} · {api.group}/{api.version}{api.namespaced ? '' : ' · cluster-scoped'} · {api.total}</span>
          </h2>
          <Link className="text-sm text-sky-700 underline" href={createOperandHref(namespace, name, api)}>Create {api.kind}</Link>
          {api.problem && <p className="text-sm text-amber-800">{api.problem}.</p>}
          {api.items.length === 0 ? (
            <p className="text-sm text-slate-600">None{api.problem ? ' that you can see' : ''}.</p>
          ) : (
            <table aria-label={`${api.kind} instances`} className="w-full border-collapse text-sm">
              <thead>
                <tr className="border-b border-slate-300 text-left text-slate-600"><th className="py-1.5 pr-3">Name</th>{api.namespaced && <th className="py-1.5 pr-3">Namespace</th>}<th className="py-1.5 pr-3">Status</th><th className="py-1.5">Age</th></tr>
              </thead>
              <tbody>
                {api.items.map((i) => (
                  <tr key={`${i.namespace}/${i.name}`} className="border-b border-slate-100 align-top">
                    <td className="py-1.5 pr-3"><Link className="text-sky-700 underline" href={instanceHref(namespace, name, api, i.namespace, i.name)}>{i.name}</Link></td>
                    {api.namespaced && <td className="py-1.5 pr-3">{i.namespace}</td>}
                    <td className="py-1.5 pr-3">
                      {i.deleting ? <Badge tone="warning" title={`Finalizers: ${i.deleting.finalizers.join(', ') || 'none'}`}>Deleting</Badge> : <Badge tone={i.state.tone} title={i.state.detail}>{i.state.label}</Badge>}
                    </td>
                    <td className="py-1.5 text-slate-600">{age(i.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {api.total > api.items.length && <p className="text-xs text-slate-600">Showing {api.items.length} of {api.total}.</p>}
        </section>
      ))}
    </div>
  );
}
