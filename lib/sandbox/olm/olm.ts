// The OLM emulation attached to the sandbox's API server: the catalogs (registry per
// CatalogSource) and packageserver. Controllers react to committed changes through the API
// server's change hook and act through the same API machinery clients use.
import type { ApiServer } from '../server/api-server';
import type { KObject } from '../store/types';
import { DEMO_CATALOG_DIR, DEMO_CATALOG_SOURCE } from '../demo-catalog/location';
import { PULL_SECRET_NAME } from '../image-registry/pull-secret';
import { admitCatalogDir, catalogSourceDefinition, CatalogSources } from './catalog-sources';
import { MarketplaceOperator } from './marketplace-operator';
import { Operators } from './operators';
import { packageManifestResource } from './packageserver';

export interface Olm {
  catalogs: CatalogSources;
  operators: Operators;
  /** OpenShift's marketplace operator (the OpenShift flavour): the default sources and OperatorHub `cluster`. */
  marketplace?: MarketplaceOperator;
  /** Resolves once every queued controller pass has run (tests wait on it). */
  settled(): Promise<void>;
  /**
   * Each error a controller pass ended with, oldest first (at most 100): a write its own API
   * server refused is a sandbox bug, so the test fixture fails on any.
   */
  controllerErrors: readonly string[];
  stop(): Promise<void>;
}

export interface OlmOptions {
  catalogNamespace: string;
  catalogDirs: string[];
  /** Seed the demo catalog (when no --catalog is given). */
  demo?: boolean;
  /** The demo catalog's folder: its published image-only copy, or the original (the default). */
  demoDir?: string;
  /** How long Deployments take to report available (there is no kubelet). */
  deploymentDelayMs?: number;
  /** How served catalogs' addresses are reported (see CatalogSources). */
  catalogAddress?: 'loopback' | 'service';
  /** Catalog image → FBC folder: image-backed CatalogSources the sandbox can serve (--catalog-image). */
  catalogImages?: Record<string, string>;
  /**
   * OpenShift: the seeded catalogs are the marketplace operator's default sources, created,
   * deleted and put back as OperatorHub `cluster` says, instead of created once.
   */
  marketplace?: boolean;
}

// Roles, bindings and service accounts too: a scoped plan retries, and a CSV's requirements are
// checked again, when they change.
const NAMESPACED_TRIGGERS = new Set([
  'subscriptions',
  'installplans',
  'clusterserviceversions',
  'operatorgroups',
  'operatorconditions',
  'deployments',
  'roles',
  'rolebindings',
  'serviceaccounts',
]);

export async function startOlm(api: ApiServer, opts: OlmOptions): Promise<Olm> {
  const catalogs = new CatalogSources(
    api,
    opts.catalogNamespace,
    opts.catalogAddress,
    new Map(Object.entries(opts.catalogImages ?? {})),
  );
  api.hooks.portForward = (ns, pod, port) => catalogs.forwardTarget(ns, pod, port);
  api.hooks.admit = admitCatalogDir;
  const seeds = [
    ...opts.catalogDirs.map((dir) => ({ dir, as: {} })),
    // The demo lists the registry's pull secret, as a vendor's catalog of protected bundle images
    // does, so that its unpack pods can pull gpu-forge from the protected repository.
    ...(opts.demo
      ? [{ dir: opts.demoDir ?? DEMO_CATALOG_DIR, as: { ...DEMO_CATALOG_SOURCE, secrets: [PULL_SECRET_NAME] } }]
      : []),
  ];
  const marketplace = opts.marketplace
    ? new MarketplaceOperator(
        api,
        opts.catalogNamespace,
        seeds.map((s) => catalogSourceDefinition(s.dir, s.as, opts.catalogNamespace)),
      )
    : undefined;
  const operators = new Operators(api, catalogs, { deploymentDelayMs: opts.deploymentDelayMs ?? 1500 });
  api.resources.addProvided(packageManifestResource(catalogs));
  const queue: (() => Promise<void>)[] = [];
  const passes = new Map<string, number>();
  const controllerErrors: string[] = [];
  let running = false;
  let idle: Promise<void> = Promise.resolve();
  let markIdle = () => {};
  // Controllers run one change at a time, in commit order, like a work queue with one worker.
  const enqueue = (job: () => Promise<void>) => {
    queue.push(job);
    if (running) return;
    running = true;
    idle = new Promise((r) => (markIdle = r));
    // The worker starts on the next turn, as a controller's queue does: changes made together
    // (two Subscriptions created in one go) are seen by one pass.
    setImmediate(async () => {
      while (queue.length) {
        try {
          await queue.shift()!();
        } catch (err) {
          console.error(`sandbox OLM controller error: ${(err as Error).message}`);
          if (controllerErrors.length < 100) controllerErrors.push((err as Error).message);
        }
      }
      running = false;
      passes.clear();
      markIdle();
    });
  };
  // Namespaces waiting for a pass; a namespace queued twice runs once.
  const pendingNamespaces = new Set<string>();
  const reconcileLater = (ns: string) => {
    if (pendingNamespaces.has(ns)) return;
    pendingNamespaces.add(ns);
    enqueue(async () => {
      pendingNamespaces.delete(ns);
      const n = (passes.get(ns) ?? 0) + 1;
      passes.set(ns, n);
      // A pass that keeps changing what it reads would loop forever; stop and say so.
      if (n > 500) {
        if (n === 501) console.error(`sandbox OLM: namespace ${ns} does not settle; pausing its reconciliation`);
        return;
      }
      if (api.storeGet(api.resources.find('', 'v1', 'namespaces')!, undefined, ns)) operators.reconcileNamespace(ns);
    });
  };
  // A plan retrying an error other than Forbidden fails once its retry timeout is up.
  operators.requeueAfter = (ns, ms) => setTimeout(() => reconcileLater(ns), ms).unref();
  const everyOperatorNamespace = () => {
    const names = new Set<string>();
    for (const res of ['subscriptions', 'clusterserviceversions', 'operatorgroups']) {
      const r = api.resources.find('operators.coreos.com', res === 'operatorgroups' ? 'v1' : 'v1alpha1', res)!;
      for (const o of api.storeList(r)) names.add(o.metadata.namespace ?? '');
    }
    for (const ns of names) reconcileLater(ns);
  };
  catalogs.onChange(everyOperatorNamespace);
  // Operator objects are reconciled per name, as OLM's Operator controller is, from the changes of
  // their labelled components and of themselves: an uninstall's deletions (cluster-scoped ones too)
  // reach them though no namespace pass follows.
  const pendingOperators = new Set<string>();
  const reconcileOperatorLater = (name: string) => {
    if (pendingOperators.has(name)) return;
    pendingOperators.add(name);
    enqueue(async () => {
      pendingOperators.delete(name);
      operators.reconcileOperator(name);
    });
  };
  const previous = api.hooks.onChange;
  api.hooks.onChange = (r, e) => {
    previous?.(r, e);
    const o: KObject = e.object;
    for (const name of operators.operatorsOf(r, o)) reconcileOperatorLater(name);
    if (r.group === 'operators.coreos.com' && r.resource === 'catalogsources') {
      if (e.type === 'DELETED') catalogs.forget(o.metadata.namespace ?? '', o.metadata.name ?? '');
      else enqueue(() => catalogs.reconcile(api.storeGet(r, o.metadata.namespace, o.metadata.name ?? '') ?? o));
      // The marketplace operator's CatalogSource controller sees updates and deletions of its defaults.
      if (marketplace?.watches(o.metadata.namespace, o.metadata.name) && e.type !== 'ADDED')
        enqueue(async () => marketplace.reconcileSource(o.metadata.name ?? ''));
      return;
    }
    if (
      marketplace &&
      r.group === 'config.openshift.io' &&
      r.resource === 'operatorhubs' &&
      o.metadata.name === 'cluster'
    ) {
      enqueue(async () => marketplace.reconcileHub());
      return;
    }
    if (r.resource === 'namespaces' && r.group === '') {
      everyOperatorNamespace();
      if (e.type === 'DELETED') enqueue(async () => operators.sweepOrphanCopies());
      return;
    }
    // The cluster proxy reaches every operator's Deployment (OLM's proxy syncer requeues them all).
    if (
      r.resource === 'olmconfigs' ||
      r.resource === 'customresourcedefinitions' ||
      (r.group === 'config.openshift.io' && r.resource === 'proxies')
    ) {
      everyOperatorNamespace();
      return;
    }
    if (NAMESPACED_TRIGGERS.has(r.resource) && o.metadata.namespace) {
      // Copies live in other namespaces than their source: a change to one is the source's business.
      const from = o.metadata.labels?.['olm.copiedFrom'];
      reconcileLater(from ?? o.metadata.namespace);
      if (r.resource === 'clusterserviceversions' && e.type === 'DELETED' && !from)
        enqueue(async () => operators.sweepOrphanCopies());
      if (r.resource === 'operatorgroups' && e.type === 'DELETED')
        enqueue(async () => operators.sweepOperatorGroupRoles());
    }
  };
  if (marketplace) marketplace.reconcileHub();
  else for (const s of seeds) catalogs.seed(s.dir, s.as);
  const csRes = api.resources.find('operators.coreos.com', 'v1alpha1', 'catalogsources')!;
  // Catalogs kept in a data file come back too; every reconcile goes through the one queue, so
  // a CatalogSource is never reconciled twice at once.
  for (const cs of api.storeList(csRes))
    enqueue(() => catalogs.reconcile(api.storeGet(csRes, cs.metadata.namespace, cs.metadata.name ?? '') ?? cs));
  await idle;
  everyOperatorNamespace();
  for (const name of operators.allOperators()) reconcileOperatorLater(name);
  await idle;
  return {
    catalogs,
    operators,
    ...(marketplace ? { marketplace } : {}),
    controllerErrors,
    settled: async () => {
      // Let timers that report Deployments available fire, then drain.
      for (let i = 0; i < 3; i++) {
        await new Promise((r) => setImmediate(r));
        await idle;
      }
      passes.clear();
    },
    stop: async () => {
      api.hooks.onChange = previous;
      await catalogs.stop();
    },
  };
}
