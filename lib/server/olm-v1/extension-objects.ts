// The objects a ClusterExtension installed, read as the person: operator-controller labels each
// one `olm.operatorframework.io/owner-name=<extension>` (docs/olm-v1/install.md; v1.2.0's Helm
// post-renderer), so each kind a registry+v1 bundle may carry is listed by that label. A kind the
// cluster does not serve (by its discovery documents) is skipped; a kind the person may not list anywhere is reported unread
// rather than taken for "nothing there".
import type { InstalledObject } from '../../api/olm-v1-extensions';
import type { KubeClient } from '../../k8s/client';
import {
  CONFIG_MAP_TYPE,
  CRD_TYPE,
  DEPLOYMENT_TYPE,
  PRIORITY_CLASS_TYPE,
  rbacType,
  SECRET_TYPE,
  SERVICE_ACCOUNT_TYPE,
} from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import type { KubeObject, ResourceType } from '../../olm/resources/common';
import { objectHealth, type HealthFacts } from '../../olm/v1/extension-health';

export const OWNER_NAME_LABEL = 'olm.operatorframework.io/owner-name';

const t = (group: string, version: string, plural: string, kind: string, namespaced: boolean): ResourceType => ({
  group,
  version,
  plural,
  kind,
  namespaced,
});

// What OLM v1 installs from a registry+v1 bundle: the Deployments and RBAC it makes of the CSV, and
// the other manifests operator-registry supports (pkg/lib/bundle/supported_resources.go).
const KINDS: ResourceType[] = [
  DEPLOYMENT_TYPE,
  CRD_TYPE,
  SERVICE_ACCOUNT_TYPE,
  rbacType('ClusterRole'),
  rbacType('ClusterRoleBinding'),
  rbacType('Role'),
  rbacType('RoleBinding'),
  t('', 'v1', 'services', 'Service', true),
  CONFIG_MAP_TYPE,
  SECRET_TYPE,
  PRIORITY_CLASS_TYPE,
  t('policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget', true),
  t('monitoring.coreos.com', 'v1', 'servicemonitors', 'ServiceMonitor', true),
  t('monitoring.coreos.com', 'v1', 'prometheusrules', 'PrometheusRule', true),
  t('autoscaling.k8s.io', 'v1', 'verticalpodautoscalers', 'VerticalPodAutoscaler', true),
  t('console.openshift.io', 'v1', 'consoleyamlsamples', 'ConsoleYAMLSample', false),
  t('console.openshift.io', 'v1', 'consolequickstarts', 'ConsoleQuickStart', false),
  t('console.openshift.io', 'v1', 'consoleclidownloads', 'ConsoleCLIDownload', false),
  t('console.openshift.io', 'v1', 'consolelinks', 'ConsoleLink', false),
];

type Listed = { type: ResourceType; items: (KubeObject & HealthFacts)[] } | { type: ResourceType; refused: string };

async function listKind(client: KubeClient, type: ResourceType, name: string, namespace?: string): Promise<Listed> {
  const labelSelector = `${OWNER_NAME_LABEL}=${name}`;
  try {
    return { type, items: (await client.listAll<KubeObject & HealthFacts>(type, { labelSelector })).items };
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    // Someone who may not list a kind cluster-wide may still list it where the extension installs.
    if (type.namespaced && namespace)
      try {
        return {
          type,
          items: (await client.listAll<KubeObject & HealthFacts>(type, { labelSelector, namespace })).items,
        };
      } catch (inner) {
        if (!isKubeError(inner, 403)) throw inner;
      }
    return { type, refused: (err as Error).message };
  }
}

export interface ExtensionObjects {
  objects: InstalledObject[];
  unread: { kind: string; reason: string }[];
}

export async function extensionObjects(
  client: KubeClient,
  name: string,
  namespace: string | undefined,
): Promise<ExtensionObjects> {
  // One discovery read per group-version says which of these kinds the cluster serves at all.
  const gvs = [...new Set(KINDS.map((k) => `${k.group}/${k.version}`))];
  const served = new Map(
    await Promise.all(
      gvs.map(async (gv) => {
        const [group = '', version = ''] = gv.split('/');
        return [gv, new Set((await client.discover(group, version))?.map((r) => r.name))] as const;
      }),
    ),
  );
  const kinds = KINDS.filter((k) => served.get(`${k.group}/${k.version}`)?.has(k.plural));
  const listed = await Promise.all(kinds.map((k) => listKind(client, k, name, namespace)));
  const objects: InstalledObject[] = [];
  const unread: ExtensionObjects['unread'] = [];
  for (const l of listed) {
    if ('refused' in l) {
      unread.push({ kind: l.type.kind, reason: l.refused });
      continue;
    }
    for (const o of l.items) {
      const h = objectHealth({
        ...o,
        kind: l.type.kind,
        name: o.metadata?.name ?? '',
        generation: o.metadata?.generation,
        deleting: !!o.metadata?.deletionTimestamp,
      });
      objects.push({
        apiVersion: l.type.group ? `${l.type.group}/${l.type.version}` : l.type.version,
        kind: l.type.kind,
        name: o.metadata?.name ?? '',
        ...(o.metadata?.namespace ? { namespace: o.metadata.namespace } : {}),
        ...h,
      });
    }
  }
  return { objects, unread };
}
