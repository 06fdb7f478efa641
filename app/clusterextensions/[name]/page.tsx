import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ExtensionView } from '@/components/olm-v1/extension/extension-view';

export const metadata: Metadata = { title: 'ClusterExtension (OLM v1) · OLM Console' };

export default async function ClusterExtensionPage({ params }: { params: Promise<{ name: string }> }) {
  const p = await params;
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <ExtensionView name={decodeURIComponent(p.name)} />
    </Suspense>
  );
}
