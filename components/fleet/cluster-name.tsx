// A cluster as the fleet pages name it: its name, and "home" on the cluster the rest of the
// console shows.
import type { FleetClusterRef } from '@/lib/api/fleet';

export function ClusterName({ cluster, server = false }: { cluster: FleetClusterRef; server?: boolean }) {
  return (
    <>
      <span className="font-semibold">{cluster.name}</span>
      {cluster.home && (
        <span
          className="ml-1.5 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700"
          title="the cluster every other page of the console shows"
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
