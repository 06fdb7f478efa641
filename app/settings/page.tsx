import type { Metadata } from 'next';
import { ClusterSettingsView } from '@/components/settings/cluster-settings-view';

export const metadata: Metadata = { title: 'Cluster settings · OLM Console' };

export default function ClusterSettingsPage() {
  return <ClusterSettingsView />;
}
