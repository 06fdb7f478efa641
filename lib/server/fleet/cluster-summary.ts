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
 * OLM's version: OLM's own manifests install a CSV named packageserver labelled `olm.version` with
 * the same spec.version (olm:deploy/chart/templates/_packageserver.clusterserviceversion.yaml).
 */
async function olmVersion(client: KubeClient): Promise<{ version?: string; versionNote?: string }> {
  try {
    const list = await client.list<ClusterServiceVersion>(CSV_TYPE, { fieldSelector: 'metadata.name=packageserver' });
    const csv = list.items[0];
    const version = csv?.metadata?.labels?.['olm.version'] || csv?.spec?.version;
    if (version) return { version };
    return {
      versionNote: 'no packageserver ClusterServiceVersion to read it from',
    };
  } catch (err) {
    if (isKubeError(err, 403)) return { versionNote: `not readable: ${err.message}` };
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
  const version = kubeRequest<{ gitVersion?: string }>(client.kubeConfig, {
    method: 'GET',
    path: '/version',
    what: 'version',
  });
  const [ready, v, v0, packageserver, v1] = await Promise.all([
    readiness(client),
    version,
    client.serves(CSV_TYPE),
    client.serves(PACKAGE_MANIFEST_TYPE),
    client.serves(CLUSTER_EXTENSION_TYPE),
  ]);
  const catalogNotes: string[] = [];
  const [olm, sources, clusterCatalogs, rights] = await Promise.all([
    v0 ? olmVersion(client) : Promise.resolve({}),
    v0 ? readable(() => client.listAll<CatalogSource>(CATALOG_SOURCE_TYPE), catalogNotes) : Promise.resolve(undefined),
    v1
      ? readable(() => client.listAll<ClusterCatalog>(CLUSTER_CATALOG_TYPE), catalogNotes)
      : Promise.resolve(undefined),
    Promise.all(
      RIGHTS.map(async (r): Promise<FleetRight> => {
        const a = await accessReview(client, r.verb, r.group, r.resource);
        return { label: r.label, allowed: a.allowed, ...(a.reason ? { reason: a.reason } : {}) };
      }),
    ),
  ]);
  const catalogs: FleetCatalog[] = [
    ...(sources?.items ?? []).map((cs) => {
      const h = catalogHealth(cs);
      return {
        kind: 'CatalogSource' as const,
        name: cs.metadata?.name ?? '',
        namespace: cs.metadata?.namespace,
        healthy: h.healthy,
        state: h.state,
      };
    }),
    ...(clusterCatalogs?.items ?? []).map(clusterCatalogRow),
  ];
  return {
    ...ready,
    ...(v.gitVersion ? { kubernetesVersion: v.gitVersion } : {}),
    olmV0: { present: v0, packageserver, ...olm },
    olmV1: { present: v1 },
    catalogs,
    // Sorted: the lists are asked at once, and the same refusals should read the same on every cluster.
    catalogNotes: catalogNotes.sort(),
    rights,
  };
}
