import type { Metadata } from 'next';
import { Suspense } from 'react';
import { LeftoversView } from '@/components/operators/leftovers-view';

export const metadata: Metadata = { title: 'What is left · OLM Console' };

export default async function LeftoversPage({
  params,
  searchParams,
}: {
  params: Promise<{ namespace: string }>;
  searchParams: Promise<{ subscription?: string; csv?: string }>;
}) {
  const p = await params;
  const q = await searchParams;
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <LeftoversView
        namespace={decodeURIComponent(p.namespace)}
        subscription={typeof q.subscription === 'string' ? q.subscription : undefined}
        csv={typeof q.csv === 'string' ? q.csv : undefined}
      />
    </Suspense>
  );
}
