// Uninstalling a ClusterExtension, as the person. OLM v1 never uninstalls a release: deleting the
// extension lets Kubernetes garbage collection delete every object that carries its
// ownerReference, CRDs included, and with each CRD every instance of it in the cluster
// (docs/olm-v1/extensions.md#uninstall). So the preview counts those instances, per CRD, as the
// person (saying where a count could not be made), and the delete needs the extension's name typed
// and the spec the person saw.
// The ServiceAccount v1 installs with, the bindings that name only it, and the roles only those
// bindings use were made by whoever installed the extension; they are listed so the person can
// delete them too or keep them.
import type { ExtensionUninstallPreview, UninstallCrd } from '../../api/olm-v1-extensions';
import type { KubeClient } from '../../k8s/client';
import { CRD_TYPE, rbacType, SERVICE_ACCOUNT_TYPE } from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import type { KubeObject, ResourceType } from '../../olm/resources/common';
import { ApiError } from '../api-error';
import { checkFresh } from '../operators';
import { accessReview } from '../permissions';
import { OWNER_NAME_LABEL } from './extension-objects';
import { CLUSTER_EXTENSION_TYPE, OLM_V1_GROUP, type ClusterExtension } from './resources';

interface Crd extends KubeObject {
  spec?: {
    group?: string;
    scope?: string;
    names?: { plural?: string; kind?: string };
    versions?: { name: string; served?: boolean; storage?: boolean }[];
  };
}
interface Role extends KubeObject {
  aggregationRule?: unknown;
}
interface Binding extends KubeObject {
  roleRef?: { kind?: string; name?: string };
  subjects?: { kind?: string; name?: string; namespace?: string }[];
}

async function countInstances(client: KubeClient, crd: Crd): Promise<UninstallCrd> {
  const name = crd.metadata?.name ?? '';
  const version = crd.spec?.versions?.find((v) => v.storage)?.name ?? crd.spec?.versions?.find((v) => v.served)?.name;
  const type: ResourceType = {
    group: crd.spec?.group ?? '',
    version: version ?? '',
    plural: crd.spec?.names?.plural ?? '',
    namespaced: crd.spec?.scope !== 'Cluster',
    kind: crd.spec?.names?.kind ?? '',
  };
  const base = { name, ...(type.kind ? { kind: type.kind } : {}) };
  if (!version || !type.plural) return { ...base, instances: { problem: 'the CRD names no served version' } };
  try {
    return { ...base, instances: (await client.listAll<KubeObject>(type)).items.length };
  } catch (err) {
    if (isKubeError(err, 403))
      return { ...base, instances: { problem: `you may not list ${type.plural}.${type.group} in every namespace` } };
    if (isKubeError(err, 404)) return { ...base, instances: 0 };
    throw err;
  }
}

async function listOrProblem<T>(what: string, problems: string[], read: () => Promise<{ items: T[] }>): Promise<T[]> {
  try {
    return (await read()).items;
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    problems.push(`you may not list ${what}`);
    return [];
  }
}

/**
 * A role a deletion may offer: used by none but the listed bindings, and none of Kubernetes' own
 * (its defaults carry the bootstrapping label or a `system:` name; an aggregated role is filled by
 * others' rules, such as the `admin`, `edit` and `view` a cluster starts with).
 */
function ownRole(role: Role | undefined, users: readonly Binding[], listed: ReadonlySet<Binding>): boolean {
  if (!role) return false;
  const name = role.metadata?.name ?? '';
  if (name.startsWith('system:') || role.aggregationRule) return false;
  if (role.metadata?.labels?.['kubernetes.io/bootstrapping']) return false;
  return users.every((b) => listed.has(b));
}

/** The ServiceAccount, the bindings that name it alone, and the roles only those bindings use. */
async function installAccess(client: KubeClient, ce: ClusterExtension) {
  const ns = ce.spec?.namespace ?? '';
  const sa = ce.spec?.serviceAccount?.name ?? '';
  const problems: string[] = [];
  const access: ExtensionUninstallPreview['access'] = [];
  try {
    await client.get(SERVICE_ACCOUNT_TYPE, sa, ns);
    access.push({ kind: 'ServiceAccount', name: sa, namespace: ns });
  } catch (err) {
    if (isKubeError(err, 403)) problems.push(`you may not read ServiceAccount ${ns}/${sa}`);
    else if (!isKubeError(err, 404)) throw err;
  }
  const onlyThisAccount = (b: Binding) =>
    (b.subjects?.length ?? 0) > 0 &&
    b.subjects!.every((s) => s.kind === 'ServiceAccount' && s.name === sa && (s.namespace ?? ns) === ns);
  // Every RoleBinding, not only the namespace's: one anywhere may bind a ClusterRole, which then is
  // not this install's alone.
  const [crbs, rbs, clusterRoles, roles] = await Promise.all([
    listOrProblem<Binding>('ClusterRoleBindings', problems, () => client.listAll(rbacType('ClusterRoleBinding'))),
    listOrProblem<Binding>('RoleBindings in every namespace', problems, () => client.listAll(rbacType('RoleBinding'))),
    listOrProblem<Role>('ClusterRoles', problems, () => client.listAll(rbacType('ClusterRole'))),
    listOrProblem<Role>(`Roles in ${ns}`, problems, () => client.listAll(rbacType('Role'), { namespace: ns })),
  ]);
  const mine = crbs.filter(onlyThisAccount);
  const mineHere = rbs.filter((b) => b.metadata?.namespace === ns && onlyThisAccount(b));
  for (const b of mine) access.push({ kind: 'ClusterRoleBinding', name: b.metadata?.name ?? '' });
  for (const b of mineHere) access.push({ kind: 'RoleBinding', name: b.metadata?.name ?? '', namespace: ns });
  // Without every binding read, no role can be known to be this install's alone.
  if (problems.length) return { access, problems };
  const listed = new Set([...mine, ...mineHere]);
  const refs = (kind: string, name: string, where?: string) =>
    [...crbs, ...rbs].filter(
      (b) =>
        b.roleRef?.kind === kind && b.roleRef.name === name && (where === undefined || b.metadata?.namespace === where),
    );
  const offered = new Set<string>();
  for (const b of listed) {
    const kind = b.roleRef?.kind ?? '';
    const name = b.roleRef?.name ?? '';
    const key = `${kind}/${name}`;
    if (offered.has(key)) continue;
    if (kind === 'ClusterRole') {
      const role = clusterRoles.find((r) => r.metadata?.name === name);
      if (ownRole(role, refs(kind, name), listed)) access.push({ kind, name });
    } else if (kind === 'Role') {
      const role = roles.find((r) => r.metadata?.name === name);
      if (ownRole(role, refs(kind, name, ns), listed)) access.push({ kind, name, namespace: ns });
    }
    offered.add(key);
  }
  return { access, problems };
}

export async function extensionUninstallPreview(client: KubeClient, name: string): Promise<ExtensionUninstallPreview> {
  const ce = await client.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, name);
  let crdsProblem: string | undefined;
  let crds: Crd[] = [];
  try {
    crds = (await client.listAll<Crd>(CRD_TYPE, { labelSelector: `${OWNER_NAME_LABEL}=${name}` })).items;
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    crdsProblem = 'you may not list CustomResourceDefinitions, so the CRDs it deletes cannot be named or counted';
  }
  const [counted, { access, problems }, canDelete] = await Promise.all([
    Promise.all(crds.map((c) => countInstances(client, c))),
    installAccess(client, ce),
    accessReview(client, 'delete', OLM_V1_GROUP, 'clusterextensions', undefined, name),
  ]);
  return {
    name,
    generation: ce.metadata?.generation ?? 0,
    crds: counted.sort((a, b) => a.name.localeCompare(b.name)),
    ...(crdsProblem ? { crdsProblem } : {}),
    access,
    accessProblems: problems,
    canDelete,
  };
}

export interface UninstallRequest {
  /** The extension's generation when the person looked: a spec change since is a 409. */
  seen: number;
  confirm: string;
  alsoDelete: { kind: string; name: string; namespace?: string }[];
}

export interface UninstallOutcome {
  kind: string;
  name: string;
  namespace?: string;
  outcome: 'deleted' | 'already-gone' | 'failed';
  message?: string;
}

const TYPES: Record<string, ResourceType> = {
  ServiceAccount: SERVICE_ACCOUNT_TYPE,
  ClusterRoleBinding: rbacType('ClusterRoleBinding'),
  RoleBinding: rbacType('RoleBinding'),
  ClusterRole: rbacType('ClusterRole'),
  Role: rbacType('Role'),
};

/**
 * Deletes the extension at the resourceVersion the person saw, then the access objects they chose
 * from those the preview lists (anything else is a 400 before any delete).
 */
export async function uninstallExtension(
  client: KubeClient,
  name: string,
  req: UninstallRequest,
): Promise<{ name: string; access: UninstallOutcome[] }> {
  if (req.confirm !== name)
    throw new ApiError(
      400,
      'BadRequest',
      `deleting ${name} deletes its CRDs and every instance of them: confirm by typing its name, "${name}"`,
    );
  const ce = await client.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, name);
  // Judged by the spec the person saw (its generation), not the resourceVersion: operator-controller
  // writes status on every pass, and a status write does not change what the delete takes with it.
  checkFresh('ClusterExtension', name, String(ce.metadata?.generation ?? 0), String(req.seen), 'its spec changed');
  const listed = req.alsoDelete.length ? (await installAccess(client, ce)).access : [];
  const key = (a: { kind: string; name: string; namespace?: string }) => `${a.kind}/${a.namespace ?? ''}/${a.name}`;
  const allowed = new Set(listed.map(key));
  const stray = req.alsoDelete.find((a) => !allowed.has(key(a)));
  if (stray)
    throw new ApiError(
      400,
      'BadRequest',
      `${stray.kind} ${stray.name} is not the ServiceAccount ${name} installs with, a binding naming only it, ` +
        'or a role only those bindings use',
    );
  // The uid precondition: never a same-named extension made since.
  await client.delete(CLUSTER_EXTENSION_TYPE, name, ce.metadata?.uid ? { uid: ce.metadata.uid } : {});
  const access: UninstallOutcome[] = [];
  for (const a of req.alsoDelete) {
    try {
      await client.delete(TYPES[a.kind]!, a.name, a.namespace ? { namespace: a.namespace } : {});
      access.push({ ...a, outcome: 'deleted' });
    } catch (err) {
      if (isKubeError(err, 404)) access.push({ ...a, outcome: 'already-gone' });
      else access.push({ ...a, outcome: 'failed', message: (err as Error).message });
    }
  }
  return { name, access };
}
