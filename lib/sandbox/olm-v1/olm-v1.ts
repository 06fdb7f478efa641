// OLM v1 in the sandbox: catalogd (the ClusterCatalog controller, its labelling webhook and its
// content HTTP server) attached to the API server's change and admission hooks, as olm.ts attaches
// OLM v0. The content server listens on its own HTTPS port on the sandbox's host, with the
// sandbox's serving certificate, so `status.urls.base` answers from the machine the console runs
// on. docs/olm-v1/catalogs.md.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ApiServer } from '../server/api-server';
import type { KObject } from '../store/types';
import { ClusterCatalogs, METADATA_NAME_LABEL } from './cluster-catalogs';
import { serveContent } from './content-server';
import { WorkQueue } from './queue';

export interface OlmV1Options {
  host: string;
  tls: { key: string; cert: string };
  /** Image reference → FBC folder: catalog images the sandbox can serve. */
  catalogImages: ReadonlyMap<string, string>;
  /** ClusterCatalogs to create at start (one per seeded catalog), if absent. */
  seeds: { name: string; ref: string }[];
}

export interface OlmV1 {
  catalogs: ClusterCatalogs;
  /** https://host:port of catalogd's content server. */
  contentUrl: string;
  controllerErrors: readonly string[];
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/** The ClusterCatalog a seeded catalog becomes, labelled as catalogd's webhook labels it. */
export function seedClusterCatalog(name: string, ref: string): KObject {
  return {
    apiVersion: 'olm.operatorframework.io/v1',
    kind: 'ClusterCatalog',
    metadata: { name, labels: { [METADATA_NAME_LABEL]: name } },
    spec: { source: { type: 'Image', image: { ref } } },
  };
}

export async function startOlmV1(api: ApiServer, opts: OlmV1Options): Promise<OlmV1> {
  const queue = new WorkQueue();
  // The server starts first so that urls.base can name its port; until the controller exists it has nothing.
  const content: { catalogs?: ClusterCatalogs } = {};
  const server: Server = createServer({ key: opts.tls.key, cert: opts.tls.cert }, (req, res) =>
    serveContent(req, res, (name) => content.catalogs?.served(name)),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, opts.host, () => resolve());
  });
  const contentUrl = `https://${opts.host}:${(server.address() as AddressInfo).port}`;
  const reconcileCatalog = (name: string) => queue.add(`clustercatalog/${name}`, () => catalogs.reconcile(name));
  const catalogs = new ClusterCatalogs(
    api,
    opts.catalogImages,
    (name) => `${contentUrl}/catalogs/${name}`,
    reconcileCatalog,
  );

  content.catalogs = catalogs;

  // catalogd's mutating webhook: every create and update of a ClusterCatalog gets the label
  // selectors rely on, overwritten with the object's name.
  const previousAdmit = api.hooks.admit;
  api.hooks.admit = (a) => {
    previousAdmit?.(a);
    if (a.resource.group !== 'olm.operatorframework.io' || a.resource.resource !== 'clustercatalogs') return;
    if (a.object.metadata.name)
      a.object.metadata.labels = { ...a.object.metadata.labels, [METADATA_NAME_LABEL]: a.object.metadata.name };
  };
  const previousChange = api.hooks.onChange;
  api.hooks.onChange = (r, e) => {
    previousChange?.(r, e);
    if (r.group === 'olm.operatorframework.io' && r.resource === 'clustercatalogs')
      reconcileCatalog(e.object.metadata.name ?? '');
  };

  const ccRes = api.resources.find('olm.operatorframework.io', 'v1', 'clustercatalogs')!;
  for (const s of opts.seeds)
    if (!api.storeGet(ccRes, undefined, s.name)) api.createObject(ccRes, seedClusterCatalog(s.name, s.ref));
  // catalogd starts with an empty cache: every catalog is pulled again.
  for (const cc of api.storeList(ccRes)) reconcileCatalog(cc.metadata.name ?? '');
  await queue.settled();

  return {
    catalogs,
    contentUrl,
    controllerErrors: queue.errors,
    settled: () => queue.settled(),
    stop: async () => {
      api.hooks.onChange = previousChange;
      api.hooks.admit = previousAdmit;
      catalogs.stop();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
