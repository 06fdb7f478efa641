// The console's mark on what its install wizard made for one ClusterExtension: the ServiceAccount
// (when the wizard created it, not when it reused one) and the `<extension>-installer` roles and
// bindings. Uninstalling offers, and a version change widens, only objects with this mark for this
// very extension (docs/security.md, "What an uninstall offers and a version change widens").
// The mark is an annotation naming the extension and its uid, written as the person once the
// extension exists, so:
// - a catalog cannot choose it: it ships content before any extension exists, the uid is made by
//   the API server at the extension's create, and every object v1 installs from a bundle carries
//   an ownerReference to the extension, which refuses it here anyway;
// - a person can put it only on an object they may patch, naming an extension that exists, and
//   it counts only on an object with exactly the name the extension's spec implies
//   (spec.serviceAccount in spec.namespace, `<extension>-installer`);
// - a later extension of the same name (another uid) finds nothing of an earlier one's.
// Objects that others plainly manage are never the install's, marked or not: Kubernetes' and OLM's
// shared roles (lib/olm/v1/shared-roles.ts, the rule the move to OLM v1 follows too), anything
// with an owner, and OLM v0's and OLM v1's objects.
import type { KubeClient } from '../../k8s/client';
import { rbacType, SERVICE_ACCOUNT_TYPE } from '../../k8s/core-kinds';
import type { KubeObject, ResourceType } from '../../olm/resources/common';
import { sharedRole, sharedRoleSentence } from '../../olm/v1/shared-roles';
import type { ClusterExtension } from './resources';

export const INSTALL_MARK = 'olm-console.io/installed-for';

export type AccessKind = 'ServiceAccount' | 'ClusterRole' | 'ClusterRoleBinding' | 'Role' | 'RoleBinding';

export const ACCESS_TYPES: Record<AccessKind, ResourceType> = {
  ServiceAccount: SERVICE_ACCOUNT_TYPE,
  ClusterRole: rbacType('ClusterRole'),
  ClusterRoleBinding: rbacType('ClusterRoleBinding'),
  Role: rbacType('Role'),
  RoleBinding: rbacType('RoleBinding'),
};

/** The `<extension>-installer` name the wizard gives the account's roles and bindings. */
export const installerRoleName = (extension: string) => `${extension}-installer`;

/** The mark's value for this extension, or undefined when it has no uid to tie a mark to. */
export function markValue(ce: ClusterExtension): string | undefined {
  const name = ce.metadata?.name;
  const uid = ce.metadata?.uid;
  return name && uid ? `${name}/${uid}` : undefined;
}

export function carriesMark(obj: KubeObject, ce: ClusterExtension): boolean {
  const want = markValue(ce);
  return want !== undefined && obj.metadata?.annotations?.[INSTALL_MARK] === want;
}

// Label keys that say someone else manages the object: OLM v0 (operator-lifecycle-manager's
// ownerutil and its generated RBAC) and OLM v1's own owner labels on what it installs.
const FOREIGN_LABELS: { test: (key: string) => boolean; why: (key: string) => string }[] = [
  { test: (k) => k === 'olm.managed' || k.startsWith('olm.owner'), why: (k) => `OLM v0 manages it (label ${k})` },
  { test: (k) => k.startsWith('operators.coreos.com/'), why: (k) => `OLM v0 manages it (label ${k})` },
  { test: (k) => k.startsWith('olm.operatorframework.io/owner'), why: (k) => `OLM v1 installed it (label ${k})` },
];

/** Why an object is plainly someone else's whatever it carries, or undefined. */
export function othersObject(kind: string, obj: KubeObject & { aggregationRule?: unknown }): string | undefined {
  const shared = sharedRole({
    kind,
    name: obj.metadata?.name ?? '',
    labels: obj.metadata?.labels,
    aggregated: !!obj.aggregationRule,
  });
  if (shared) return sharedRoleSentence('it', shared);
  const owner = obj.metadata?.ownerReferences?.[0];
  if (owner) return `it is owned by ${owner.kind} ${owner.name}`;
  for (const key of Object.keys(obj.metadata?.labels ?? {})) {
    const rule = FOREIGN_LABELS.find((r) => r.test(key));
    if (rule) return rule.why(key);
  }
  return undefined;
}

export interface MarkRef {
  kind: string;
  name: string;
  namespace?: string;
}

/**
 * Puts the mark on the account and roles an install just created, as the person. A patch that
 * fails leaves that object unmarked — the install stands; uninstall then does not offer it and a
 * version change does not widen it — so the failures are returned for the person to read.
 */
export async function markInstall(
  client: KubeClient,
  ce: ClusterExtension,
  created: readonly MarkRef[],
): Promise<{ ref: MarkRef; message: string }[]> {
  const value = markValue(ce);
  const failed: { ref: MarkRef; message: string }[] = [];
  for (const ref of created) {
    const type = ACCESS_TYPES[ref.kind as AccessKind];
    if (!type) continue;
    if (!value) {
      failed.push({ ref, message: `ClusterExtension ${ce.metadata?.name ?? ''} has no uid` });
      continue;
    }
    try {
      await client.patch(
        type,
        ref.name,
        { metadata: { annotations: { [INSTALL_MARK]: value } } },
        {
          namespace: ref.namespace,
        },
      );
    } catch (err) {
      failed.push({ ref, message: (err as Error).message });
    }
  }
  return failed;
}
