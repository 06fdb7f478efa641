import type { Metadata } from 'next';
import { CatalogSourcesView } from '@/components/catalogs/catalog-sources-view';

export const metadata: Metadata = { title: 'Catalog sources · OLM Console' };

export default function CatalogSourcesPage() {
  return <CatalogSourcesView />;
}
