import type { Metadata } from 'next';
import { Suspense } from 'react';
import { OperatorsList } from '@/components/operators/operators-list';

export const metadata: Metadata = { title: 'Installed Operators · OLM Console' };

export default function OperatorsPage() {
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <OperatorsList />
    </Suspense>
  );
}
