import type { Metadata } from 'next';
import { RolloutsDetail } from '@/components/fleet/rollouts-detail';

export const metadata: Metadata = { title: 'Rollout · OLM Console' };

export default async function FleetRolloutDetailPage({
  params,
}: {
  params: Promise<{ namespace: string; name: string }>;
}) {
  const p = await params;
  return <RolloutsDetail namespace={decodeURIComponent(p.namespace)} name={decodeURIComponent(p.name)} />;
}
