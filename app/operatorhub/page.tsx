import type { Metadata } from 'next';
import { Suspense } from 'react';
import { firstScreen } from '@/components/hub/hub-results';
import { HubView } from '@/components/hub/hub-view';
import { readViewState } from '@/components/hub/url-state';
import { hubListForPage } from '@/lib/server/page-data';

export const metadata: Metadata = { title: 'OperatorHub · OLM Console' };

// The first screen of the view in the URL comes with the page, so the first tiles are painted from
// the HTML, before any script; the browser fetches the whole list (compressed once on the server)
// for searching as one types. The page carried the whole list before: with 1,180 packages, a
// megabyte of payload rendered, escaped and compressed per visit.
export default async function OperatorHubPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const namespace = params.namespace;
  const list = await hubListForPage(typeof namespace === 'string' ? namespace : undefined);
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of [v ?? []].flat()) query.append(k, one);
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <HubView first={list && firstScreen(list, readViewState(query))} />
    </Suspense>
  );
}
