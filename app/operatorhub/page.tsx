import type { Metadata } from 'next';
import { Suspense } from 'react';
import { HubView } from '@/components/hub/hub-view';

export const metadata: Metadata = { title: 'OperatorHub · OLM Console' };

export default function OperatorHubPage() {
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <HubView />
    </Suspense>
  );
}
