// What an Open Cluster Management hub says of a cluster, under its name on the Clusters page: its
// cluster set, whether it joined and is available, its claims, and where the console learnt of it
// (the hub, or its own settings when the hub gives another address).
import type { ManagedClusterView } from '@/lib/api/fleet';
import { Badge } from '../common/badges';

const LABELS: Record<string, string> = {
  HubAcceptedManagedCluster: 'Accepted',
  ManagedClusterJoined: 'Joined',
  ManagedClusterConditionAvailable: 'Available',
};

export function ManagedCluster({ managed, server }: { managed: ManagedClusterView; server: string }) {
  return (
    <div className="mt-1 space-y-0.5 text-xs">
      <p className="text-slate-700">
        {managed.source === 'hub' ? 'Listed by the hub' : 'On the hub'}
        {managed.name && ` as ${managed.name}`}
        {managed.clusterSet && (
          <>
            , cluster set <span className="font-mono">{managed.clusterSet}</span>
          </>
        )}
      </p>
      {managed.conditions.length > 0 && (
        <p className="flex flex-wrap gap-1">
          {managed.conditions.map((c) => (
            <Badge
              key={c.type}
              tone={c.status === 'True' ? 'ok' : c.status === 'False' ? 'error' : 'warning'}
              title={c.message}
            >
              {LABELS[c.type] ?? c.type}: {c.status === 'True' ? 'yes' : c.status === 'False' ? 'no' : 'unknown'}
            </Badge>
          ))}
        </p>
      )}
      {managed.claims.length > 0 && (
        <ul>
          {managed.claims.map((c) => (
            <li key={c.name}>
              <span className="font-mono">{c.name}</span>: {c.value}
            </li>
          ))}
        </ul>
      )}
      {managed.source === 'settings' && managed.url && managed.url !== server && (
        <p className="text-slate-600">
          The hub gives <span className="font-mono">{managed.url}</span>; the console&apos;s own settings are used.
        </p>
      )}
    </div>
  );
}
