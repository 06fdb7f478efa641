import type { Metadata } from 'next';
import { Suspense } from 'react';
import { OperatorView } from '@/components/operators/operator-view';

export const metadata: Metadata = { title: 'Operator · OLM Console' };

export default async function OperatorPage({ params }: { params: Promise<{ namespace: string; name: string }> }) {
  const p = await params;
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <OperatorView namespace={decodeURIComponent(p.namespace)} name={decodeURIComponent(p.name)} />
    </Suspense>
  );
}
