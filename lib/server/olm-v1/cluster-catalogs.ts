// Every ClusterCatalog the person may list, as an administrator reads it: catalogd's Serving and
// Progressing conditions in its words, the image and its resolved digest, where the content is
// served and how many packages it holds, and what the person may change (SelfSubjectAccessReview
// per catalog, since RBAC may name single catalogs). Where the cluster does not serve
// olm.operatorframework.io/v1 the answer says so instead.
import type { ClusterCatalogRow, ClusterCatalogsResponse, CatalogCondition } from '../../api/olm-v1-catalogs';
import type { KubeClient } from '../../k8s/client';
import type { Condition } from '../../olm/resources/common';
import { accessReview } from '../permissions';
import { unreadContent, type ContentIndex } from './catalog-content';
import { catalogdAddresses, contentBaseVerdict } from './catalogd-address';
import { catalogContent } from './content-cache';
import { CLUSTER_CATALOG_TYPE, OLM_V1_GROUP, servesOlmV1, type ClusterCatalog } from './resources';

export const NOT_SERVED =
  'This cluster does not serve olm.operatorframework.io/v1 (ClusterCatalogs): OLM v1 is not installed here.';

function condition(cc: ClusterCatalog, type: string): CatalogCondition | undefined {
  const c: Condition | undefined = cc.status?.conditions?.find((x) => x.type === type);
  if (!c) return undefined;
  return {
    status: c.status,
    reason: c.reason ?? '',
    message: c.message ?? '',
    ...(c.lastTransitionTime ? { since: c.lastTransitionTime } : {}),
    current: c.observedGeneration === undefined || c.observedGeneration === cc.metadata?.generation,
  };
}

/** One word for the list, read from catalogd's conditions (docs/olm-v1/catalogs.md#status). */
export function catalogState(
  cc: ClusterCatalog,
  serving?: CatalogCondition,
  progressing?: CatalogCondition,
): { state: string; healthy: boolean } {
  if (cc.metadata?.deletionTimestamp) return { state: 'Deleting', healthy: false };
  if (serving?.reason === 'UserSpecifiedUnavailable') return { state: 'Disabled', healthy: true };
  if (progressing?.status === 'False' && progressing.reason === 'Blocked') return { state: 'Blocked', healthy: false };
  if (serving?.status === 'True') return { state: 'Serving', healthy: true };
  if (progressing?.reason === 'Retrying') return { state: 'Retrying', healthy: false };
  if (!serving && !progressing) return { state: 'Waiting for catalogd', healthy: false };
  return { state: serving ? 'Not serving' : 'Unpacking', healthy: false };
}

/**
 * The catalog's content where catalogd serves it, or why there is none to read. A base anywhere
 * but catalogd's address the console was told of is never fetched (catalogd-address.ts).
 */
export function servedContent(client: KubeClient, cc: ClusterCatalog): Promise<ContentIndex> {
  const base = cc.status?.urls?.base;
  const resolvedRef = cc.status?.resolvedSource?.image?.ref;
  const serving = cc.status?.conditions?.find((c) => c.type === 'Serving')?.status === 'True';
  if (!base || !resolvedRef || !serving) return Promise.resolve(unreadContent('catalogd serves no content for it now'));
  const verdict = contentBaseVerdict(cc.metadata?.name ?? '', base, catalogdAddresses(client.kubeConfig));
  if (!verdict.ok) return Promise.resolve(unreadContent(verdict.why));
  return catalogContent(client.kubeConfig, base, resolvedRef, cc.status?.lastUnpacked ?? '', client.cluster);
}

async function row(client: KubeClient, cc: ClusterCatalog): Promise<ClusterCatalogRow> {
  const name = cc.metadata?.name ?? '';
  const serving = condition(cc, 'Serving');
  const progressing = condition(cc, 'Progressing');
  const base = cc.status?.urls?.base;
  const resolvedRef = cc.status?.resolvedSource?.image?.ref;
  const contentPromise = servedContent(client, cc).then((c) => c.summary);
  const [canEdit, canDelete, content] = await Promise.all([
    accessReview(client, 'update', OLM_V1_GROUP, 'clustercatalogs', undefined, name),
    accessReview(client, 'delete', OLM_V1_GROUP, 'clustercatalogs', undefined, name),
    contentPromise,
  ]);
  const image = cc.spec?.source?.image;
  return {
    name,
    generation: cc.metadata?.generation ?? 0,
    imageRef: image?.ref ?? '',
    ...(resolvedRef ? { resolvedRef } : {}),
    ...(cc.status?.lastUnpacked ? { lastUnpacked: cc.status.lastUnpacked } : {}),
    ...(base ? { baseUrl: base } : {}),
    priority: cc.spec?.priority ?? 0,
    availabilityMode: cc.spec?.availabilityMode === 'Unavailable' ? 'Unavailable' : 'Available',
    ...(image?.pollIntervalMinutes !== undefined ? { pollIntervalMinutes: image.pollIntervalMinutes } : {}),
    ...(serving ? { serving } : {}),
    ...(progressing ? { progressing } : {}),
    ...catalogState(cc, serving, progressing),
    deleting: !!cc.metadata?.deletionTimestamp,
    content,
    canEdit,
    canDelete,
  };
}

export async function listClusterCatalogs(client: KubeClient): Promise<ClusterCatalogsResponse> {
  if (!(await servesOlmV1(client))) return { served: false, message: NOT_SERVED };
  const [list, canCreate] = await Promise.all([
    client.listAll<ClusterCatalog>(CLUSTER_CATALOG_TYPE),
    accessReview(client, 'create', OLM_V1_GROUP, 'clustercatalogs'),
  ]);
  // catalogd prefers the higher priority where two catalogs offer a package; list them that way.
  const items = [...list.items].sort(
    (a, b) =>
      (b.spec?.priority ?? 0) - (a.spec?.priority ?? 0) ||
      (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
  );
  return { served: true, catalogs: await Promise.all(items.map((cc) => row(client, cc))), canCreate };
}
