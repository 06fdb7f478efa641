// OLM v1 in the sandbox: catalogd (the ClusterCatalog controller, its labelling webhook and its
// content HTTP server) attached to the API server's change and admission hooks, as olm.ts attaches
// OLM v0. The content server listens on its own HTTPS port on the sandbox's host, with the
// sandbox's serving certificate, so `status.urls.base` answers from the machine the console runs
// on. docs/olm-v1/catalogs.md.
import { createServer, type Server } from 'node:https';
import { closingCuts } from '../server/server-closing';
import type { AddressInfo } from 'node:net';
import type { ApiServer } from '../server/api-server';
import type { KObject } from '../store/types';
import { OWNER_NAME_LABEL } from './applier';
import { ClusterCatalogs, METADATA_NAME_LABEL } from './cluster-catalogs';
import { ClusterExtensions } from './cluster-extensions';
import { reportAvailableLater } from './deployments';
import { SYSTEM_NAMESPACE } from './releases';
import { serveContent } from './content-server';
import { WorkQueue } from './queue';

// Where operator-controller would retry a failed install with backoff, the sandbox retries when
// something it depends on changes: the account, its rights, namespaces.
const RETRY_ON = new Set([
  'serviceaccounts',
  'namespaces',
  'roles',
  'rolebindings',
  'clusterroles',
  'clusterrolebindings',
]);

export interface OlmV1Options {
  host: string;
  /** The content server's port: a restart asks for the one it had (taken: any free one); 0 any. */
  contentPort?: number;
  tls: { key: string; cert: string };
  /** Image reference → FBC folder: catalog images the sandbox can serve. */
  catalogImages: ReadonlyMap<string, string>;
  /** How long installed Deployments take to report available (there is no kubelet). */
  deploymentDelayMs: number;
  /** ClusterCatalogs to create at start (one per seeded catalog), if absent. */
  seeds: { name: string; ref: string }[];
}

export interface OlmV1 {
  catalogs: ClusterCatalogs;
  extensions: ClusterExtensions;
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
  const closeServer = closingCuts(server);
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, opts.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(opts.contentPort ?? 0).catch((err: NodeJS.ErrnoException) => {
    if (!opts.contentPort || err.code !== 'EADDRINUSE') throw err;
    return listen(0);
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
  const extensions = new ClusterExtensions(api, catalogs);
  const reconcileExtension = (name: string) => queue.add(`clusterextension/${name}`, () => extensions.reconcile(name));
  const everyExtension = () => extensions.names().forEach(reconcileExtension);

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
    const o = e.object;
    if (r.group === 'olm.operatorframework.io' && r.resource === 'clustercatalogs') {
      reconcileCatalog(o.metadata.name ?? '');
      everyExtension();
    } else if (r.group === 'olm.operatorframework.io' && r.resource === 'clusterextensions')
      reconcileExtension(o.metadata.name ?? '');
    else if (RETRY_ON.has(r.resource)) everyExtension();
    else if (o.metadata.labels?.[OWNER_NAME_LABEL]) {
      if (r.resource === 'deployments' && e.type !== 'DELETED') reportAvailableLater(api, o, opts.deploymentDelayMs);
      // The managed-object informers: a changed or deleted object brings its extension back to it.
      if (e.type !== 'ADDED') reconcileExtension(o.metadata.labels[OWNER_NAME_LABEL]);
    }
  };

  // operator-controller keeps its release records in its system namespace.
  const nsRes = api.resources.find('', 'v1', 'namespaces')!;
  if (!api.storeGet(nsRes, undefined, SYSTEM_NAMESPACE))
    api.createObject(nsRes, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: SYSTEM_NAMESPACE } });
  const ccRes = api.resources.find('olm.operatorframework.io', 'v1', 'clustercatalogs')!;
  for (const s of opts.seeds)
    if (!api.storeGet(ccRes, undefined, s.name)) api.createObject(ccRes, seedClusterCatalog(s.name, s.ref));
  // catalogd starts with an empty cache: every catalog is pulled again.
  for (const cc of api.storeList(ccRes)) reconcileCatalog(cc.metadata.name ?? '');
  everyExtension();
  await queue.settled();

  return {
    catalogs,
    extensions,
    contentUrl,
    controllerErrors: queue.errors,
    settled: () => queue.settled(),
    stop: async () => {
      api.hooks.onChange = previousChange;
      api.hooks.admit = previousAdmit;
      catalogs.stop();
      await closeServer();
    },
  };
}
