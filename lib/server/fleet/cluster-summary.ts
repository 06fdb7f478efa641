// One cluster at a glance, read as the person: whether its API server is ready, its Kubernetes
// version, whether OLM v0 (its CRDs, packageserver) and OLM v1 are served and OLM's version where
// the person may read it, its catalogs and their health, and a few of the person's rights there
// (SelfSubjectAccessReview, which every authenticated person may ask).
import type { ClusterSummary, FleetCatalog, FleetRight } from '../../api/fleet';
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { kubeRequest, kubeRequestBytes } from '../../k8s/http';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../../olm/resources/catalog-source';
import { CSV_TYPE, type ClusterServiceVersion } from '../../olm/resources/cluster-service-version';
import { PACKAGE_MANIFEST_TYPE } from '../../olm/resources/package-manifest';
import { catalogHealth } from '../../olm/status/catalog-health';
import { CLUSTER_CATALOG_TYPE, CLUSTER_EXTENSION_TYPE, type ClusterCatalog } from '../olm-v1/resources';
import { accessReview } from '../permissions';

/** The rights the Clusters page shows: each asked for every namespace (no namespace given). */
const RIGHTS: { label: string; verb: string; group: string; resource: string }[] = [
  { label: 'see operators in every namespace', verb: 'list', group: 'operators.coreos.com', resource: 'subscriptions' },
  { label: 'install operators (OLM v0)', verb: 'create', group: 'operators.coreos.com', resource: 'subscriptions' },
  { label: 'approve InstallPlans', verb: 'update', group: 'operators.coreos.com', resource: 'installplans' },
  {
    label: 'install ClusterExtensions (OLM v1)',
    verb: 'create',
    group: 'olm.operatorframework.io',
    resource: 'clusterextensions',
  },
];

/** A list the person may not read is a note in the cluster's words, not a failure of the row. */
async function readable<T>(read: () => Promise<T>, notes: string[]): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    notes.push(err.message);
    return undefined;
  }
}

async function readiness(client: KubeClient): Promise<{ ready: boolean; readiness: string }> {
  try {
    const { body } = await kubeRequestBytes(client.kubeConfig, { method: 'GET', path: '/readyz', what: 'readyz' });
    const text = body.toString('utf8').trim().slice(0, 200);
    return { ready: text === 'ok', readiness: text };
  } catch (err) {
    // A 5xx readyz is an answer (not ready, with the failing checks); no answer at all is the row's error.
    if (isKubeError(err) && !err.network && err.code >= 500) return { ready: false, readiness: err.message };
    throw err;
  }
}

/**
 * Whether OLM v0 is served and its version, from one list: OLM's own manifests install a CSV named
 * packageserver labelled `olm.version` with the same spec.version
 * (olm:deploy/chart/templates/_packageserver.clusterserviceversion.yaml). A list of every
 * namespace's CSVs answers 404 only where the resource is not served, so the list tells presence
 * too and discovery is asked only when the person may not list CSVs (403: authorization answers
 * before the API server looks for the resource, so a refusal says nothing about presence).
 */
async function olmV0(client: KubeClient): Promise<{ present: boolean; version?: string; versionNote?: string }> {
  try {
    const list = await client.list<ClusterServiceVersion>(CSV_TYPE, { fieldSelector: 'metadata.name=packageserver' });
    const csv = list.items[0];
    const version = csv?.metadata?.labels?.['olm.version'] || csv?.spec?.version;
    if (version) return { present: true, version };
    return { present: true, versionNote: 'no packageserver ClusterServiceVersion to read it from' };
  } catch (err) {
    if (isKubeError(err, 404)) return { present: false };
    if (!isKubeError(err, 403)) throw err;
    const present = await client.serves(CSV_TYPE);
    return present ? { present, versionNote: `not readable: ${err.message}` } : { present };
  }
}

/**
 * Whether packageserver serves PackageManifests. Its API is aggregated: while its APIService is
 * registered but not Available (its pods down, its Service without endpoints), kube-apiserver
 * answers every request to the group, discovery included, with a 503 (kube-aggregator
 * handler_proxy.go). That says nothing of the rest of the cluster, so it makes this field unknown
 * with the reason, not the cluster's row an error.
 */
async function packageserver(
  client: KubeClient,
): Promise<Pick<ClusterSummary['olmV0'], 'packageserver' | 'packageserverNote'>> {
  try {
    return { packageserver: await client.serves(PACKAGE_MANIFEST_TYPE) };
  } catch (err) {
    if (!isKubeError(err) || err.network || err.code < 500) throw err;
    return {
      packageserver: 'unknown',
      packageserverNote: `the API server answered ${err.code} for packages.operators.coreos.com/v1: ${err.message}`,
    };
  }
}

/** A list of a resource the cluster may not serve: undefined where it is not (404), like discovery. */
async function ifServed<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (isKubeError(err, 404)) return undefined;
    throw err;
  }
}

function clusterCatalogRow(cc: ClusterCatalog): FleetCatalog {
  const serving = cc.status?.conditions?.find((c) => c.type === 'Serving');
  const healthy = serving?.status === 'True';
  return {
    kind: 'ClusterCatalog',
    name: cc.metadata?.name ?? '',
    healthy,
    state: healthy
      ? 'Serving'
      : serving?.reason || (cc.spec.availabilityMode === 'Unavailable' ? 'Disabled' : 'Not serving'),
  };
}

export async function clusterSummary(client: KubeClient): Promise<ClusterSummary> {
  // Every question at once, one round trip to the cluster (the page's first paint waits for the
  // slowest of them): the catalog lists do not wait for discovery to say their APIs are served,
  // a 404 says it, and a list whose OLM turns out absent is dropped with any refusal it drew, so
  // the answer is the one the discovery-first reading gave, in one round trip and one request fewer.
  const v0Notes: string[] = [];
  const v1Notes: string[] = [];
  const [ready, v, olm, packages, v1, sources, clusterCatalogs, rights] = await Promise.all([
    readiness(client),
    kubeRequest<{ gitVersion?: string }>(client.kubeConfig, { method: 'GET', path: '/version', what: 'version' }),
    olmV0(client),
    packageserver(client),
    client.serves(CLUSTER_EXTENSION_TYPE),
    readable(() => ifServed(() => client.listAll<CatalogSource>(CATALOG_SOURCE_TYPE)), v0Notes),
    readable(() => ifServed(() => client.listAll<ClusterCatalog>(CLUSTER_CATALOG_TYPE)), v1Notes),
    // One SelfSubjectAccessReview per right: a SelfSubjectRulesReview is asked per namespace (the
    // API refuses one without), so it cannot say what the person may do in every namespace or to a
    // cluster-scoped resource, and it is incomplete under a webhook authorizer.
    Promise.all(
      RIGHTS.map(async (r): Promise<FleetRight> => {
        const a = await accessReview(client, r.verb, r.group, r.resource);
        return { label: r.label, allowed: a.allowed, ...(a.reason ? { reason: a.reason } : {}) };
      }),
    ),
  ]);
  const v0 = olm.present;
  const { present: _present, ...olmVersion } = olm;
  void _present;
  const catalogNotes = [...(v0 ? v0Notes : []), ...(v1 ? v1Notes : [])];
  const catalogs: FleetCatalog[] = [
    ...((v0 && sources?.items) || []).map((cs) => {
      const h = catalogHealth(cs);
      return {
        kind: 'CatalogSource' as const,
        name: cs.metadata?.name ?? '',
        namespace: cs.metadata?.namespace,
        healthy: h.healthy,
        state: h.state,
      };
    }),
    ...((v1 && clusterCatalogs?.items) || []).map(clusterCatalogRow),
  ];
  return {
    ...ready,
    ...(v.gitVersion ? { kubernetesVersion: v.gitVersion } : {}),
    olmV0: { present: v0, ...packages, ...olmVersion },
    olmV1: { present: v1 },
    catalogs,
    // Sorted: the lists are asked at once, and the same refusals should read the same on every cluster.
    catalogNotes: catalogNotes.sort(),
    rights,
  };
}
