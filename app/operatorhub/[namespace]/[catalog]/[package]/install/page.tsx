import { Suspense } from 'react';
import { InstallWizard } from '@/components/install/install-wizard';

export default async function InstallPage({
  params,
}: {
  params: Promise<{ namespace: string; catalog: string; package: string }>;
}) {
  const p = await params;
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <InstallWizard
        catalogNamespace={decodeURIComponent(p.namespace)}
        catalog={decodeURIComponent(p.catalog)}
        pkg={decodeURIComponent(p.package)}
      />
    </Suspense>
  );
}
