import type { Metadata } from 'next';
import { ClusterCatalogsView } from '@/components/olm-v1/cluster-catalogs-view';

export const metadata: Metadata = { title: 'Cluster catalogs (OLM v1) · OLM Console' };

export default function ClusterCatalogsPage() {
  return <ClusterCatalogsView />;
}
