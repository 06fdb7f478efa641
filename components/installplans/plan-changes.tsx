'use client';
// What each upgrade in a plan changes, read when the plan waits for approval
// (`GET /api/installplans/<ns>/<name>/changes`), shown before Approve: a person approves knowing
// the rules, CRD versions, webhooks and images that change. Read again when the plan changes.
import { useQuery } from '@tanstack/react-query';
import type { InstallPlanChanges } from '@/lib/api/upgrade-changes';
import { apiGet } from '@/lib/client/api';
import { ErrorNotice } from '../common/notice';
import { UpgradeChanges } from '../common/upgrade-changes';

export function PlanChanges(props: { namespace: string; name: string; resourceVersion?: string }) {
  const { namespace, name } = props;
  const changes = useQuery({
    queryKey: ['installplan', namespace, name, 'changes', props.resourceVersion],
    queryFn: ({ signal }) =>
      apiGet<InstallPlanChanges>(
        `/api/installplans/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/changes`,
        signal,
      ),
  });
  if (changes.error) return <ErrorNotice error={changes.error} what="What this upgrade changes could not be read" />;
  if (!changes.data) return <p role="status">Reading what this upgrade changes…</p>;
  const upgrades = changes.data.parts.filter((p) => p.changes);
  return (
    <>
      {upgrades.map((p) => (
        <UpgradeChanges
          key={p.csv}
          level={2}
          installed={p.installed}
          target={p.target}
          changes={p.changes!}
          {...(upgrades.length > 1 ? { of: p.csv } : {})}
        />
      ))}
    </>
  );
}
