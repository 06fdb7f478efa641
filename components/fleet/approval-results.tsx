// What approving across the fleet did, per object and cluster: each InstallPlan approved (with
// the CSVs OLM will install) or refused, each ClusterExtension's version set or refused, with the
// cluster's or the console's reason.
import type { FleetApproveResponse } from '@/lib/api/fleet';

export function ApprovalResults({ answer }: { answer: FleetApproveResponse }) {
  return (
    <div role="status" className="space-y-1 rounded border border-slate-300 bg-slate-50 px-3 py-2 text-sm">
      <p className="font-semibold">Results</p>
      <ul className="space-y-1 [overflow-wrap:anywhere]">
        {answer.results.map((r) => (
          <li key={`${r.cluster}/${r.namespace}/${r.name}`}>
            <span className="font-semibold">{r.cluster}</span>: InstallPlan {r.namespace}/{r.name}{' '}
            {r.ok ? (
              <span className="text-emerald-800">approved ({r.approved.join(', ')})</span>
            ) : (
              <span className="text-red-800">
                refused ({r.error.reason}): {r.error.message}
              </span>
            )}
          </li>
        ))}
        {answer.versionChanges.map((r) => (
          <li key={`${r.cluster}/${r.name}`}>
            <span className="font-semibold">{r.cluster}</span>: ClusterExtension {r.name}{' '}
            {r.ok ? (
              <span className="text-emerald-800">set to version {r.version}; OLM v1 is acting on it</span>
            ) : (
              <span className="text-red-800">
                refused ({r.error.reason}): {r.error.message}
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
