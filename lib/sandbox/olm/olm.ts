// The OLM emulation attached to the sandbox's API server: the catalogs (registry per
// CatalogSource) and packageserver. Controllers react to committed changes through the API
// server's change hook and act through the same API machinery clients use.
import type { ApiServer } from '../server/api-server';
import type { KObject } from '../store/types';
import { CatalogSources } from './catalog-sources';
import { packageManifestResource } from './packageserver';

export interface Olm {
  catalogs: CatalogSources;
  stop(): Promise<void>;
}

export async function startOlm(api: ApiServer, opts: { catalogNamespace: string; catalogDirs: string[] }): Promise<Olm> {
  const catalogs = new CatalogSources(api, opts.catalogNamespace);
  api.resources.addProvided(packageManifestResource(catalogs));
  const queue: (() => Promise<void>)[] = [];
  let running = false;
  let idle: Promise<void> = Promise.resolve();
  let markIdle = () => {};
  // Controllers run one change at a time, in commit order, like a work queue with one worker.
  const enqueue = (job: () => Promise<void>) => {
    queue.push(job);
    if (running) return;
    running = true;
    idle = new Promise((r) => (markIdle = r));
    void (async () => {
      while (queue.length) {
        try {
          await queue.shift()!();
        } catch (err) {
          console.error(`sandbox OLM controller error: ${(err as Error).message}`);
        }
      }
      running = false;
      markIdle();
    })();
  };
  const previous = api.hooks.onChange;
  api.hooks.onChange = (r, e) => {
    previous?.(r, e);
    if (r.group === 'operators.coreos.com' && r.resource === 'catalogsources') {
      const o: KObject = e.object;
      if (e.type === 'DELETED') catalogs.forget(o.metadata.namespace ?? '', o.metadata.name ?? '');
      else enqueue(() => catalogs.reconcile(api.storeGet(r, o.metadata.namespace, o.metadata.name ?? '') ?? o));
    }
  };
  for (const dir of opts.catalogDirs) catalogs.seed(dir);
  const csRes = api.resources.find('operators.coreos.com', 'v1alpha1', 'catalogsources')!;
  // Catalogs kept in a data file come back too; every reconcile goes through the one queue, so
  // a CatalogSource is never reconciled twice at once.
  for (const cs of api.storeList(csRes)) enqueue(() => catalogs.reconcile(api.storeGet(csRes, cs.metadata.namespace, cs.metadata.name ?? '') ?? cs));
  await idle;
  return {
    catalogs,
    stop: async () => {
      api.hooks.onChange = previous;
      await catalogs.stop();
    },
  };
}
