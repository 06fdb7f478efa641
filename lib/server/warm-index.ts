// Reading a big catalog's registry takes seconds (a 1,000-package catalog streams hundreds of
// megabytes through ListBundles); without this, the first person to open OperatorHub after a
// start waits for it. In kubeconfig mode every request acts as the kubeconfig's user, so reading
// the global catalogs as that user at start is the read the first visit would make. With
// per-user tokens there is no identity until someone logs in, and nothing is read early.
import type { KubeClient } from '../k8s/client';
import { GLOBAL_CATALOG_NAMESPACES, sharedCatalogIndex } from '../catalog/catalog-index';

export interface WarmOptions {
  /** How long to keep trying while catalogs are still starting (CONNECTING) or the cluster is not up. */
  patienceMs?: number;
  retryMs?: number;
  log?: (line: string) => void;
}

/** Reads every global catalog the client may see into the shared index; resolves when all are read or patience runs out. */
export async function warmCatalogIndex(
  client: KubeClient,
  opts: WarmOptions = {},
): Promise<{ read: number; waiting: string[] }> {
  const end = Date.now() + (opts.patienceMs ?? 120_000);
  let waiting: string[] = [];
  let read = 0;
  for (;;) {
    try {
      const { catalogs, packages } = await sharedCatalogIndex().forUser(client, GLOBAL_CATALOG_NAMESPACES);
      waiting = catalogs.filter((c) => c.problem).map((c) => `${c.namespace}/${c.name}: ${c.problem}`);
      read = catalogs.length - waiting.length;
      if (catalogs.length > 0 && waiting.length === 0) {
        opts.log?.(`catalog index ready: ${read} catalog${read === 1 ? '' : 's'}, ${packages.length} packages`);
        return { read, waiting };
      }
    } catch (err) {
      waiting = [(err as Error).message];
    }
    if (Date.now() + (opts.retryMs ?? 3_000) > end) {
      opts.log?.(
        `catalog index: ${read} read; not yet: ${waiting.join('; ') || 'no catalog found'} (read on first use instead)`,
      );
      return { read, waiting };
    }
    await new Promise((r) => setTimeout(r, opts.retryMs ?? 3_000));
  }
}
