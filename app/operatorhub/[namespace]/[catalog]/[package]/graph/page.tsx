import type { Metadata } from 'next';
import { Suspense } from 'react';
import { GraphViewer } from '@/components/graph/graph-viewer';

export const metadata: Metadata = { title: 'Upgrade graph · OLM Console' };

export default async function GraphPage({
  params,
}: {
  params: Promise<{ namespace: string; catalog: string; package: string }>;
}) {
  const p = await params;
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <GraphViewer
        catalogNamespace={decodeURIComponent(p.namespace)}
        catalog={decodeURIComponent(p.catalog)}
        pkg={decodeURIComponent(p.package)}
      />
    </Suspense>
  );
}
