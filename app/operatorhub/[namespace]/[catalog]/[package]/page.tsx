import { Suspense } from 'react';
import { PackageDetailsView } from '@/components/details/package-details-view';

export default async function PackageDetailsPage({
  params,
}: {
  params: Promise<{ namespace: string; catalog: string; package: string }>;
}) {
  const p = await params;
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <PackageDetailsView
        catalogNamespace={decodeURIComponent(p.namespace)}
        catalog={decodeURIComponent(p.catalog)}
        pkg={decodeURIComponent(p.package)}
      />
    </Suspense>
  );
}
