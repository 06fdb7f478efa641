// Bundles read from images, shared by the console's replicas through the carrier catalog snapshots
// use (lib/catalog/shared-snapshots.ts: sealed, chunked ConfigMaps of the console's namespace,
// written and read with the console's own identity only, the manifest swapped at the
// resourceVersion read), as `b.<id>` entries with their own bounds. A bundle travels with its
// record of how it was read (anonymously, or with which pull secrets, by uid), and the replica
// that finds it hands it over only as it would its own copy: bundle-image.ts checks that record
// against the person asking (the rule of Kubernetes' KubeletEnsureSecretPulledImages). So a copy
// read with alice's secret reaches bob on no replica. What is shared is gzipped JSON, expanded
// under a ceiling and parsed strictly on the way back (bundle-cache.ts); a copy that does not open,
// is changed or has a chunk missing is no copy: the registry is asked, as with nothing shared.
// Sharing is never a read's problem: a failure is a log line (the carrier's).
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { snapshotIdOf, type SharedSnapshots } from '../../catalog/shared-snapshots';
import { logger } from '../../observability/logger';
import type { ReadWith } from './bundle-cache';

/** Bundle images the replicas share in all, gzipped: a published bundle is a few tens of KB so. */
export const SHARED_BUNDLE_BYTES = 8 * 1024 * 1024;
/** A shared bundle's JSON, expanded: the cache file's own ceiling. */
const MAX_EXPANDED_BYTES = 64 * 1024 * 1024;
const ADDRESS = 'bundle-image';

const STATE = Symbol.for('olm-console.shared-bundles');
const g = globalThis as { [STATE]?: { store?: SharedSnapshots } };
const state = (g[STATE] ??= {});

/** Turns sharing on with the replicas' store of kind `bundle` (catalog-snapshot-sharing.ts), or off. */
export function shareBundles(store: SharedSnapshots | undefined): void {
  state.store = store;
}

/** Names how a copy was read, so a copy read in a new way is shared again rather than taken as recent. */
function recordTag(readWith: ReadWith): string {
  const secrets = readWith.secrets.map((s) => `${s.namespace}/${s.name}/${s.uid}`).sort();
  return createHash('sha256')
    .update(JSON.stringify([readWith.anonymous, secrets]))
    .digest('hex');
}

/** Shares a bundle's record (bundle-cache.ts's JSON); nothing when sharing is off. */
export async function shareBundle(digest: string, record: string, readWith: ReadWith): Promise<void> {
  const store = state.store;
  if (!store) return;
  await store.write(digest, ADDRESS, recordTag(readWith), gzipSync(record));
}

/** The shared record of the bundle `digest`, still to be parsed, if a replica shared one that opens. */
export async function sharedBundleText(digest: string): Promise<string | undefined> {
  const store = state.store;
  if (!store) return undefined;
  const bytes = await store.read(snapshotIdOf(digest));
  if (!bytes) return undefined;
  try {
    return gunzipSync(bytes, { maxOutputLength: MAX_EXPANDED_BYTES }).toString('utf8');
  } catch (err) {
    logger().warn({ digest, err: (err as Error).message }, 'shared bundle image: not read');
    return undefined;
  }
}
