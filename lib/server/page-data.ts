// Data a page's server render hands to its client view, fetched as the person asking (their
// cookie or proxy token, from the page request's headers). Anything that goes wrong here is left
// to the client view, which fetches again and shows the error with its reason and a login link.
import { headers } from 'next/headers';
import type { HubList } from '../hub/package-summary';
import { requestClient } from './context';
import { admitRequestCluster } from './context-cluster';
import { HubQuery, hubList } from './hub-list';
import { isOwnWarmUp } from './http/warm-up';
import { madeUpAnswer } from './warm-first-page';

async function pageRequest(): Promise<Request> {
  return new Request('http://console.local/', { headers: new Headers(await headers()) });
}

/** OperatorHub's list as this person may see it (the shared, cached answer: never to be changed). */
export async function hubListForPage(namespace: string | undefined): Promise<Readonly<HubList> | undefined> {
  const q = HubQuery.safeParse(namespace === undefined ? {} : { namespace });
  if (!q.success) return undefined;
  // The server's own warm-up: made-up tiles, so this bundle's copy of the list's and the page's
  // code is compiled before the first person (warm-first-page.ts).
  if (isOwnWarmUp(await headers())) return madeUpAnswer().list;
  try {
    const req = await pageRequest();
    // A cluster only the person's OCM hub lists is checked against their hub view first, as a route's is.
    await admitRequestCluster(req);
    const { client } = requestClient(req);
    return (await hubList(client, q.data)).list;
  } catch {
    return undefined;
  }
}
