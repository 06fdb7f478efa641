import type { Metadata } from 'next';
import { Suspense } from 'react';
import { HubView } from '@/components/hub/hub-view';
import { initialHubList } from '@/lib/server/page-data';

export const metadata: Metadata = { title: 'OperatorHub · OLM Console' };

// The list comes with the page, so the first tiles are painted from the HTML, before any script.
export default async function OperatorHubPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const namespace = (await searchParams).namespace;
  const initial = await initialHubList(typeof namespace === 'string' ? namespace : undefined);
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <HubView initial={initial} />
    </Suspense>
  );
}
