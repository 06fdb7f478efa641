// The access objects an uninstall may offer to delete with a ClusterExtension: only those the
// console's install wizard made for this very extension (install-mark.ts). Everything else that a
// name could suggest is the install's — the account spec.serviceAccount names, roles its bindings
// use — may be another team's account, OLM v0's generated RBAC or a role feeding `view`, and
// deleting it as "the install's" takes rights away from others. Objects that look like the
// install's by name but are not offered are listed with the reason, so the person can judge and
// delete them by hand (installs made before the mark existed among them).
// The same check runs for the preview and again for the delete, and the request's schema accepts
// every name the API server accepts for these kinds, so whatever the preview offers, the delete
// takes, and it takes nothing else.
import { z } from 'zod';
import type { ExtensionUninstallPreview } from '../../api/olm-v1-extensions';
import type { KubeClient } from '../../k8s/client';
import { rbacType } from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import type { KubeObject } from '../../olm/resources/common';
import { dnsLabel, dnsSubdomain } from '../api-error';
import {
  ACCESS_TYPES,
  carriesMark,
  installerRoleName,
  INSTALL_MARK,
  markValue,
  othersObject,
  type AccessKind,
} from './install-mark';
import type { ClusterExtension } from './resources';

// Kubernetes validates RBAC object names as path segments (ValidateRBACName in
// pkg/apis/rbac/validation: any string but "." and "..", without "/" or "%"; mixed case and ":"
// allowed), a ServiceAccount's as a DNS subdomain. 253 bounds the request; longer names are never offered.
const rbacName = z
  .string({ message: 'the object’s name' })
  .min(1, 'must not be empty')
  .max(253, 'must be at most 253 characters')
  .refine((n) => n !== '.' && n !== '..', 'may not be "." or ".."')
  .refine((n) => !/[/%]/.test(n), 'may not contain "/" or "%"');

export const AccessObject = z
  .strictObject({
    kind: z.enum(['ServiceAccount', 'ClusterRoleBinding', 'RoleBinding', 'ClusterRole', 'Role'], {
      message: 'ServiceAccount, ClusterRoleBinding, RoleBinding, ClusterRole or Role',
    }),
    name: rbacName,
    namespace: dnsLabel.optional(),
  })
  .superRefine((a, ctx) => {
    if (a.kind === 'ServiceAccount') {
      const bad = dnsSubdomain.safeParse(a.name);
      if (!bad.success) ctx.addIssue({ code: 'custom', path: ['name'], message: bad.error.issues[0]!.message });
    }
    const namespaced = a.kind === 'ServiceAccount' || a.kind === 'Role' || a.kind === 'RoleBinding';
    if (namespaced && !a.namespace)
      ctx.addIssue({ code: 'custom', path: ['namespace'], message: `a ${a.kind} needs its namespace` });
    if (!namespaced && a.namespace)
      ctx.addIssue({ code: 'custom', path: ['namespace'], message: `a ${a.kind} has no namespace` });
  });
export type AccessObject = z.infer<typeof AccessObject>;

interface Binding extends KubeObject {
  roleRef?: { kind?: string; name?: string };
  subjects?: { kind?: string; name?: string; namespace?: string }[];
}

/** One object offered, with the resourceVersion it was judged at (the delete's precondition). */
export interface Offered extends AccessObject {
  uid?: string;
  resourceVersion?: string;
}

export interface InstallAccess {
  offered: Offered[];
  notOffered: ExtensionUninstallPreview['notOffered'];
  problems: string[];
}

const describe = (a: { kind: string; name: string; namespace?: string }) =>
  `${a.kind} ${a.namespace ? `${a.namespace}/` : ''}${a.name}`;

/** A binding of the installer role to exactly this account and nobody else. */
function bindsExactly(b: Binding, roleKind: string, role: string, sa: string, ns: string): boolean {
  const subjects = b.subjects ?? [];
  return (
    b.roleRef?.kind === roleKind &&
    b.roleRef.name === role &&
    subjects.length === 1 &&
    subjects[0]!.kind === 'ServiceAccount' &&
    subjects[0]!.name === sa &&
    (subjects[0]!.namespace ?? ns) === ns
  );
}

/** Why a binding is not this install's grant to its account alone, or undefined. */
export function bindingProblem(b: Binding, roleKind: string, role: string, sa: string, ns: string): string | undefined {
  if (bindsExactly(b, roleKind, role, sa, ns)) return undefined;
  if (b.roleRef?.kind !== roleKind || b.roleRef.name !== role)
    return `it binds ${b.roleRef?.kind ?? '?'} ${b.roleRef?.name ?? '?'}, not ${roleKind} ${role}`;
  const names = (b.subjects ?? []).map((s) => `${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`);
  return `it binds ${names.join(', ') || 'nobody'}, not ServiceAccount ${ns}/${sa} alone`;
}

async function read(client: KubeClient, kind: AccessKind, name: string, ns?: string) {
  try {
    return await client.get<Binding & { aggregationRule?: unknown }>(ACCESS_TYPES[kind], name, ns);
  } catch (err) {
    if (isKubeError(err, 404)) return 'absent' as const;
    if (isKubeError(err, 403)) return 'refused' as const;
    throw err;
  }
}

async function listOrProblem(client: KubeClient, kind: 'ClusterRoleBinding' | 'RoleBinding', problems: string[]) {
  try {
    return (await client.listAll<Binding>(rbacType(kind))).items;
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    problems.push(`you may not list ${kind}s in the whole cluster, so no role can be known to be the install's alone`);
    return undefined;
  }
}

/**
 * What the console's install made for this extension and may be deleted with it: the account and
 * the installer bindings when marked for it and granting only it; the installer roles when marked
 * for it and bound by nothing else anywhere.
 */
export async function installAccess(client: KubeClient, ce: ClusterExtension): Promise<InstallAccess> {
  const ext = ce.metadata?.name ?? '';
  const ns = ce.spec?.namespace ?? '';
  const sa = ce.spec?.serviceAccount?.name ?? '';
  const role = installerRoleName(ext);
  const candidates: AccessObject[] = [
    { kind: 'ServiceAccount', name: sa, namespace: ns },
    { kind: 'ClusterRoleBinding', name: role },
    { kind: 'RoleBinding', name: role, namespace: ns },
    { kind: 'ClusterRole', name: role },
    { kind: 'Role', name: role, namespace: ns },
  ];
  const offered: Offered[] = [];
  const notOffered: InstallAccess['notOffered'] = [];
  const problems: string[] = [];
  const refuse = (a: AccessObject, reason: string) => notOffered.push({ ...a, reason });
  const [crbs, rbs] = await Promise.all([
    listOrProblem(client, 'ClusterRoleBinding', problems),
    listOrProblem(client, 'RoleBinding', problems),
  ]);
  const mark = markValue(ce);
  for (const a of candidates) {
    // A name the delete request could not carry is never offered (none of these today).
    if (!a.name || !AccessObject.safeParse(a).success) continue;
    const obj = await read(client, a.kind, a.name, a.namespace);
    if (obj === 'absent') continue;
    if (obj === 'refused') {
      problems.push(`you may not read ${describe(a)}`);
      continue;
    }
    const foreign = othersObject(a.kind, obj);
    if (foreign) {
      refuse(a, foreign);
      continue;
    }
    if (!carriesMark(obj, ce)) {
      const had = obj.metadata?.annotations?.[INSTALL_MARK];
      refuse(
        a,
        had
          ? `its mark names ${had}, not this extension (${mark ?? ext})`
          : `it carries no mark of this console's install of ${ext}: made by someone else, ` +
              'or by an install from before the console marked what it made',
      );
      continue;
    }
    if (a.kind === 'ClusterRoleBinding' || a.kind === 'RoleBinding') {
      const problem = bindingProblem(obj, a.kind === 'RoleBinding' ? 'Role' : 'ClusterRole', role, sa, ns);
      if (problem) {
        refuse(a, problem);
        continue;
      }
    }
    if (a.kind === 'ClusterRole' || a.kind === 'Role') {
      if (!crbs || !rbs) continue;
      const users = [...crbs, ...rbs].filter(
        (b) =>
          b.roleRef?.kind === a.kind &&
          b.roleRef.name === a.name &&
          (a.kind === 'ClusterRole' || b.metadata?.namespace === a.namespace),
      );
      const isOffered = (b: Binding) =>
        offered.some(
          (o) =>
            o.kind === (b.metadata?.namespace ? 'RoleBinding' : 'ClusterRoleBinding') &&
            o.name === b.metadata?.name &&
            o.namespace === b.metadata?.namespace,
        );
      const other = users.find((b) => !isOffered(b));
      if (other) {
        const kind = other.metadata?.namespace ? 'RoleBinding' : 'ClusterRoleBinding';
        refuse(
          a,
          `${describe({ kind, name: other.metadata?.name ?? '', namespace: other.metadata?.namespace })} uses it too`,
        );
        continue;
      }
    }
    offered.push({ ...a, uid: obj.metadata?.uid, resourceVersion: obj.metadata?.resourceVersion });
  }
  return { offered, notOffered, problems };
}
