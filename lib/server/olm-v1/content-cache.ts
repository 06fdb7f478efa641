// The content already read, by what identifies it: the address, the digest it was resolved to and
// when it was unpacked. A live page reads the list again on every change of any catalog; without
// this each read would download every catalog again. A failure is kept only briefly, so a content
// server that comes back is read again soon.
import type { KubeConfig } from '@kubernetes/client-node';
import { ContentError, fetchCatalogContent, unreadContent, type ContentIndex } from './catalog-content';

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
    entry.failed = true;
    entry.at = Date.now();
    const why = err instanceof ContentError ? err.message : `reading the content failed: ${(err as Error).message}`;
    return unreadContent(why);
  });
  entries.set(key, entry);
  // Oldest out first: a Map keeps insertion order.
  while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  return entry.index;
}
