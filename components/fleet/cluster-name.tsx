// A cluster as the fleet pages name it: its name (a link to its pages where asked), and "home" on
// the cluster the console's own URLs show.
import type { FleetClusterRef } from '@/lib/api/fleet';
import { clusterPath } from '@/lib/api/cluster-route';

export function ClusterName({
  cluster,
  server = false,
  link = false,
}: {
  cluster: FleetClusterRef;
  server?: boolean;
  /** The name links to the cluster's Installed Operators page (`/clusters/<name>/operators`). */
  link?: boolean;
}) {
  return (
    <>
      {link ? (
        // A fresh load: the page is on another cluster (lib/client/cluster.tsx's ClusterLink says why).
        <a
          className="font-semibold text-sky-800 underline"
          href={clusterPath(cluster.home ? undefined : cluster.name, '/operators')}
          title={`Installed Operators on ${cluster.name}`}
        >
          {cluster.name}
        </a>
      ) : (
        <span className="font-semibold">{cluster.name}</span>
      )}
      {/* A space, so that the name and the badge are read as two words ("east home"). */}
      {cluster.home && ' '}
      {cluster.home && (
        <span
          className="ml-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700"
          title="the cluster the console's own URLs show; every other is under /clusters/<name>"
        >
          home
        </span>
      )}
      {server && <span className="block font-mono text-xs text-slate-600">{cluster.server}</span>}
    </>
  );
}

/** A cluster that did not answer: why, in its words. */
export function NotAnswering({ error }: { error: { reason: string; message: string } }) {
  return (
    <span className="text-sm text-red-800">
      <span className="font-semibold">Not answering</span> ({error.reason}): {error.message}
    </span>
  );
}
