// Data a page's server render hands to its client view, fetched as the person asking (their
// cookie or proxy token, from the page request's headers). Anything that goes wrong here is left
// to the client view, which fetches again and shows the error with its reason and a login link.
import { headers } from 'next/headers';
import type { HubList } from '../hub/package-summary';
import { requestClient } from './context';
import { HubQuery, hubList } from './hub-list';

async function pageRequest(): Promise<Request> {
  return new Request('http://console.local/', { headers: new Headers(await headers()) });
}

export async function initialHubList(namespace: string | undefined): Promise<HubList | undefined> {
  const q = HubQuery.safeParse(namespace === undefined ? {} : { namespace });
  if (!q.success) return undefined;
  try {
    const { client } = requestClient(await pageRequest());
    const { body } = await hubList(client, q.data);
    return JSON.parse(body.text) as HubList;
  } catch {
    return undefined;
  }
}
