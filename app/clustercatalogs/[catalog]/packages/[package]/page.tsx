import { Suspense } from 'react';
import { V1PackageView } from '@/components/details/v1-package-view';

export default async function V1PackagePage({ params }: { params: Promise<{ catalog: string; package: string }> }) {
  const p = await params;
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <V1PackageView catalog={decodeURIComponent(p.catalog)} pkg={decodeURIComponent(p.package)} />
    </Suspense>
  );
}
