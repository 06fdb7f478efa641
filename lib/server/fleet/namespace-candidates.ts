// `?namespace=N…` on the fleet's list routes: for a person who may not list every namespace's
// objects on a cluster, the names to check there (namespaced-reader.ts). One name arrives as a
// string, several as a list (readQuery): both are read as a list, at most MAX_CANDIDATES.
import { z } from 'zod';
import { dnsLabel, readQuery } from '../api-error';
import { MAX_CANDIDATES } from '../my-namespaces';

const Query = z.strictObject({
  namespace: z
    .preprocess(
      (v) => (typeof v === 'string' ? [v] : v),
      z.array(dnsLabel).max(MAX_CANDIDATES, `at most ${MAX_CANDIDATES} names`),
    )
    .optional(),
});

/** The names offered, without repeats and sorted, so one set is one cache entry per person and cluster. */
export function namespaceCandidates(url: string): string[] {
  return [...new Set(readQuery(url, Query).namespace ?? [])].sort();
}
