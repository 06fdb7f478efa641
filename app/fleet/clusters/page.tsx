import type { Metadata } from 'next';
import { ClustersView } from '@/components/fleet/clusters-view';

export const metadata: Metadata = { title: 'Clusters · OLM Console' };

export default function FleetClustersPage() {
  return <ClustersView />;
}
