import type { Metadata } from 'next';
import { Suspense } from 'react';
import { RolloutFormView } from '@/components/fleet/rollout-form';

export const metadata: Metadata = { title: 'New rollout · OLM Console' };

export default function NewRolloutPage() {
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <RolloutFormView />
    </Suspense>
  );
}
