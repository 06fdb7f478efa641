import type { Metadata } from 'next';
import { RolloutsList } from '@/components/fleet/rollouts-list';

export const metadata: Metadata = { title: 'Rollouts · OLM Console' };

export default function FleetRolloutsPage() {
  return <RolloutsList />;
}
