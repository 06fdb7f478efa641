// The content already read, by what identifies it: the address, the digest it was resolved to and
// when it was unpacked. A live page reads the list again on every change of any catalog; without
// this each read would download every catalog again. A failure to reach the content server is kept
// only briefly, so a server that comes back is read again soon; content refused for itself (over the
// size limit, a line that is not JSON) is kept like content read, until the digest changes, since
// reading it again would download it again to refuse it again.
import type { KubeConfig } from '@kubernetes/client-node';
import {
  ContentError,
  ContentUnavailable,
  fetchCatalogContent,
  unreadContent,
  type ContentIndex,
} from './catalog-content';

const MAX_ENTRIES = 64;
const FAILURE_TTL_MS = 15_000;

interface Entry {
  at: number;
  index: Promise<ContentIndex>;
  failed: boolean;
}

const entries = new Map<string, Entry>();

export function catalogContent(
  kc: KubeConfig,
  base: string,
  resolvedRef: string,
  lastUnpacked: string,
): Promise<ContentIndex> {
  const key = `${base}\n${resolvedRef}\n${lastUnpacked}`;
  const hit = entries.get(key);
  if (hit && !(hit.failed && Date.now() - hit.at > FAILURE_TTL_MS)) return hit.index;
  const entry: Entry = {
    at: Date.now(),
    failed: false,
    index: Promise.resolve(unreadContent('')),
  };
  entry.index = fetchCatalogContent(kc, base).catch((err: unknown): ContentIndex => {
    entry.failed = !(err instanceof ContentError) || err instanceof ContentUnavailable;
    entry.at = Date.now();
    const why = err instanceof ContentError ? err.message : `reading the content failed: ${(err as Error).message}`;
    return unreadContent(why);
  });
  entries.set(key, entry);
  // Oldest out first: a Map keeps insertion order.
  while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  return entry.index;
}
