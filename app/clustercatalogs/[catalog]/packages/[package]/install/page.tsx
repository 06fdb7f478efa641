import type { Metadata } from 'next';
import { Suspense } from 'react';
import { V1InstallWizard } from '@/components/olm-v1/install/v1-install-wizard';

export const metadata: Metadata = { title: 'Install with OLM v1 · OLM Console' };

export default async function V1InstallPage({ params }: { params: Promise<{ catalog: string; package: string }> }) {
  const p = await params;
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <V1InstallWizard catalog={decodeURIComponent(p.catalog)} pkg={decodeURIComponent(p.package)} />
    </Suspense>
  );
}
