import type { Metadata } from 'next';
import { ReadinessView } from '@/components/cluster-upgrade/readiness-view';

export const metadata: Metadata = { title: 'Cluster upgrade readiness · OLM Console' };

export default function ClusterUpgradePage() {
  return <ReadinessView />;
}
