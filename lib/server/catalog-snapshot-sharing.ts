// Turns on the catalog snapshots replicas share (lib/catalog/shared-snapshots.ts) where the
// deployment asks for them: ConfigMaps of the console's namespace, with the console's own identity,
// sealed with a key derived from the session key. Without a session key every replica would seal
// with a key of its own, and none could open another's: nothing is shared then, and the log says so.
import type { CatalogIndex } from '../catalog/catalog-index';
import { SharedSnapshots } from '../catalog/shared-snapshots';
import { logger } from '../observability/logger';
import { shareCatalogContent } from './olm-v1/content-cache';
import { SHARED_BUNDLE_BYTES, shareBundles } from './bundle-images/shared-bundles';
import { consoleIdentityClient } from './context';
import { SessionKey } from './session';
import { consoleNamespace } from './session-revocation';

/** Whether `OLM_CONSOLE_SHARED_CATALOG_SNAPSHOTS` asks for shared snapshots, and they could be turned on. */
export function shareCatalogSnapshots(
  index: CatalogIndex,
  env: Record<string, string | undefined> = process.env,
): boolean {
  if (env.OLM_CONSOLE_SHARED_CATALOG_SNAPSHOTS !== 'true') return false;
  if (!env.OLM_CONSOLE_SESSION_KEY) {
    logger().warn(
      'shared catalog snapshots: off, since OLM_CONSOLE_SESSION_KEY is not set (no key the replicas share)',
    );
    return false;
  }
  const namespace = consoleNamespace(env);
  try {
    const [client, key] = [consoleIdentityClient(env), SessionKey.fromEnv(env).key];
    index.shareSnapshots(new SharedSnapshots(client, namespace, key));
    // ClusterCatalog content too: a new replica would otherwise download every catalog's again.
    shareCatalogContent(new SharedSnapshots(client, namespace, key, { kind: 'content' }));
    // Bundles read from images too, each with its record of who read it (shared-bundles.ts).
    shareBundles(new SharedSnapshots(client, namespace, key, { kind: 'bundle', maxBytes: SHARED_BUNDLE_BYTES }));
  } catch (err) {
    logger().warn(
      { err: (err as Error).message },
      'shared catalog snapshots: off, no identity of its own to share with',
    );
    return false;
  }
  logger().info({ namespace }, 'shared catalog snapshots: on');
  return true;
}
