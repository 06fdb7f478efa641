import type { Metadata } from 'next';
import { RolloutView } from '@/components/fleet/rollout-view';

export const metadata: Metadata = { title: 'Rollout across clusters · OLM Console' };

export default async function FleetRolloutPage({ params }: { params: Promise<{ package: string }> }) {
  const p = await params;
  return <RolloutView pkg={decodeURIComponent(p.package)} />;
}
