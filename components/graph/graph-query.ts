// One query per (package, channel, starting version, namespace) for the graph API, shared by the
// full viewer, its overlaid channels and the graph embedded in an operator's Subscription tab, so
// they share the cache.
import { apiGet } from '@/lib/client/api';
import type { GraphView } from '@/lib/hub/catalog-types';
import { packageApiBase, type PackageRefProps } from '../details/package-details-view';

export function graphQuery(p: PackageRefProps, channel?: string, from?: string, namespace?: string) {
  const q = new URLSearchParams();
  if (channel) q.set('channel', channel);
  if (from) q.set('from', from);
  if (namespace) q.set('namespace', namespace);
  return {
    queryKey: ['graph-full', p.catalogNamespace, p.catalog, p.pkg, channel ?? '', from ?? '', namespace ?? ''],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      apiGet<GraphView>(`${packageApiBase(p)}/graph${q.size ? `?${q}` : ''}`, signal),
  };
}
