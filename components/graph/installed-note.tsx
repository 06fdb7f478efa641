'use client';
// For the graph of an installed operator: which version runs where, the next InstallPlan's target
// and what holds it back (a Manual plan waiting for approval, the operator's Upgradeable=False, an
// unhealthy catalog), from the operator's details as the API reports them.
import { useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import type { OperatorDetails } from '@/lib/api/operators';
import { apiGet } from '@/lib/client/api';
import { ErrorNotice } from '../common/notice';

export function NextUpgrade({ details }: { details: OperatorDetails }) {
  const path = details.updatePath;
  const next = path?.steps[0];
  // Without a next step the page around this already says why (no path, or already the head);
  // what holds the operator back is then all that is left to say.
  if (!next && details.upgradeBlockers.length === 0) return null;
  return (
    <div
      role="note"
      aria-label="Next upgrade"
      className="space-y-1 rounded border border-sky-200 bg-sky-50 px-3 py-2 text-sm"
    >
      {next && (
        <p>
          The next InstallPlan installs <strong>{next.to}</strong> ({next.via.join(', ')})
          {path!.steps.length > 1
            ? `, then ${path!.steps.length - 1} more to the head ${path!.head ?? ''}`
            : ', the head of the channel'}
          .
        </p>
      )}
      {details.upgradeBlockers.length > 0 && (
        <>
          <p className="font-semibold text-amber-900">{next ? 'What holds it back' : 'What holds upgrades back'}</p>
          <ul className="list-disc pl-5 text-amber-900">
            {details.upgradeBlockers.map((b) => (
              <li key={b}>{b}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** The installed operator `namespace/csv`, read with the same query the operator page uses. */
export function InstalledNote({ namespace, csv }: { namespace: string; csv: string }) {
  const details = useQuery({
    queryKey: ['operator', namespace, csv],
    queryFn: ({ signal }) =>
      apiGet<OperatorDetails>(`/api/operators/${encodeURIComponent(namespace)}/${encodeURIComponent(csv)}`, signal),
  });
  if (details.error)
    return <ErrorNotice error={details.error} what={`The installed operator ${namespace}/${csv} could not be read`} />;
  if (!details.data) return null;
  return (
    <div className="space-y-1">
      <p className="text-sm">
        Installed as{' '}
        <Link
          className="text-sky-700 underline"
          href={`/operators/${encodeURIComponent(namespace)}/${encodeURIComponent(csv)}?tab=subscription`}
        >
          {csv}
        </Link>{' '}
        in {namespace}
        {details.data.updatePath && details.data.updatePath.channel
          ? `, subscribed to ${details.data.updatePath.channel}`
          : ''}
        .
      </p>
      <NextUpgrade details={details.data} />
    </div>
  );
}
