// The ClusterRoles OLM generates (docs/olm/operator-groups.md#generated-clusterroles): for every owned CRD of a
// Succeeded CSV, admin/edit/view roles on its custom resources (aggregated into the cluster's
// admin/edit/view, so a namespace admin can create operands) and a crdview role; and for every
// OperatorGroup, three roles aggregating the per-API roles of the APIs it provides.
import { createHash } from 'node:crypto';
import type { KObject } from '../store/types';

const SUFFIXES = ['admin', 'edit', 'view'] as const;
const VERBS: Record<(typeof SUFFIXES)[number], string[]> = {
  admin: ['*'],
  edit: ['create', 'update', 'patch', 'delete'],
  view: ['get', 'list', 'watch'],
};

/** FNV-1a, 64 bit, as hex: how OLM keys labels by API. */
export function fnv64a(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) {
    h ^= BigInt(byte);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16);
}

const BASE62 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function base62(buf: Buffer): string {
  let n = BigInt(`0x${buf.toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out || '0';
}

export interface OwnedCrd {
  name: string;
  group: string;
  plural: string;
  version: string;
  kind: string;
  uid?: string;
}

export function apiKey(c: Pick<OwnedCrd, 'kind' | 'version' | 'group'>): string {
  return `${c.kind}.${c.version}.${c.group}`;
}

/** The four roles of one owned CRD. */
export function crdRoles(crd: OwnedCrd): KObject[] {
  const hash = fnv64a(apiKey(crd));
  const owner = crd.uid
    ? [
        {
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'CustomResourceDefinition',
          name: crd.name,
          uid: crd.uid,
          blockOwnerDeletion: false,
          controller: false,
        },
      ]
    : undefined;
  const roles: KObject[] = SUFFIXES.map((suffix) => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: {
      name: `${crd.name}-${crd.version}-${suffix}`,
      labels: {
        [`rbac.authorization.k8s.io/aggregate-to-${suffix}`]: 'true',
        [`olm.opgroup.permissions/aggregate-to-${hash}-${suffix}`]: 'true',
        'olm.managed': 'true',
      },
      ...(owner ? { ownerReferences: owner } : {}),
    },
    rules: [{ apiGroups: [crd.group], resources: [crd.plural], verbs: VERBS[suffix] }],
  }));
  roles.push({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: {
      name: `${crd.name}-${crd.version}-crdview`,
      labels: {
        'rbac.authorization.k8s.io/aggregate-to-view': 'true',
        [`olm.opgroup.permissions/aggregate-to-${hash}-view`]: 'true',
        'olm.managed': 'true',
      },
      ...(owner ? { ownerReferences: owner } : {}),
    },
    rules: [
      {
        apiGroups: ['apiextensions.k8s.io'],
        resources: ['customresourcedefinitions'],
        resourceNames: [crd.name],
        verbs: ['get'],
      },
    ],
  });
  return roles;
}

/** The three aggregated roles of an OperatorGroup, for the APIs it provides. */
export function operatorGroupRoles(
  og: { name: string; namespace: string },
  providedApis: readonly string[],
): KObject[] {
  return SUFFIXES.map((suffix) => {
    const digest = base62(createHash('sha224').update(`${og.namespace}/${og.name}/${suffix}`).digest());
    const prefix = `olm.og.${og.name}.${suffix}-`;
    const name =
      (prefix.length + digest.length > 253
        ? `olm.og.${og.name.slice(0, 253 - digest.length - suffix.length - 9)}.${suffix}-`
        : prefix) + digest;
    return {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: {
        name,
        labels: {
          'olm.owner': og.name,
          'olm.owner.namespace': og.namespace,
          'olm.owner.kind': 'OperatorGroup',
          'olm.managed': 'true',
        },
      },
      aggregationRule: {
        clusterRoleSelectors: [...providedApis].sort().map((api) => ({
          matchLabels: { [`olm.opgroup.permissions/aggregate-to-${fnv64a(api)}-${suffix}`]: 'true' },
        })),
      },
      rules: [],
    };
  });
}
