// Whether an extension's ServiceAccount may install the bundle a version change resolves to. The
// install wizard grants the account exactly one bundle's rights, by object name
// (lib/olm/v1/installer-rbac.ts), in roles named `<extension>-installer`; a version whose bundle
// adds an object or a kind would leave v1 retrying on a Forbidden for ever. So a change widens
// those roles first, as the person, with what the new bundle needs (widenRules keeps the old
// rules: Helm still touches the previous release's objects). Rights made by anyone else are not
// the console's to change: with no `<extension>-installer` bound to the account, the plan says it
// cannot tell, and why; a role of that name is widened only when it carries the console's mark for
// this extension (install-mark.ts) and its binding, also marked, grants it to the account alone —
// else the change is refused, naming what is wrong, before anything is written. Widening a role
// whose binding names others widens them too; one not marked may be anybody's.
import type { PolicyRuleLike, RightsForChange } from '../../api/olm-v1-extensions';
import type { KubeClient } from '../../k8s/client';
import { rbacType } from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import type { FbcBundle } from '../../olm/fbc/types';
import type { PolicyRule } from '../../olm/resources/cluster-service-version';
import type { KubeObject } from '../../olm/resources/common';
import { installerRbac, widenRules } from '../../olm/v1/installer-rbac';
import { renderBundle } from '../../olm/v1/render-bundle';
import { ApiError } from '../api-error';
import { bundleManifests } from '../bundle-images/bundle-manifests';
import { bindingProblem } from './install-access';
import { carriesMark, INSTALL_MARK, markValue, othersObject } from './install-mark';
import type { ClusterExtension } from './resources';

interface Role extends KubeObject {
  rules?: PolicyRule[];
}
interface Binding extends KubeObject {
  roleRef?: { kind?: string; name?: string };
  subjects?: { kind?: string; name?: string; namespace?: string }[];
}

/** One write the change makes before the extension's patch, and how to take it back. */
export interface RightsWrite {
  describe: string;
  apply: (client: KubeClient) => Promise<void>;
  undo: (client: KubeClient) => Promise<void>;
}

type Read<T> = T | 'absent' | 'refused';
type RbacKind = Parameters<typeof rbacType>[0];

async function read<T extends object>(client: KubeClient, kind: RbacKind, name: string, ns?: string): Promise<Read<T>> {
  try {
    return await client.get<T>(rbacType(kind), name, ns);
  } catch (err) {
    if (isKubeError(err, 404)) return 'absent';
    if (isKubeError(err, 403)) return 'refused';
    throw err;
  }
}

const namesAccount = (b: Binding, kind: string, name: string, sa: string, ns: string) =>
  b.roleRef?.kind === kind &&
  b.roleRef.name === name &&
  (b.subjects ?? []).some((s) => s.kind === 'ServiceAccount' && s.name === sa && (s.namespace ?? ns) === ns);

/** Why the console may not widen through this role or binding, or undefined when it may. */
function notOurs(kind: RbacKind, obj: Role & Binding, ce: ClusterExtension, role: string): string | undefined {
  const where = `${kind} ${obj.metadata?.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata?.name ?? ''}`;
  const ns = ce.spec?.namespace ?? '';
  const sa = ce.spec?.serviceAccount?.name ?? '';
  const foreign = othersObject(kind, obj);
  if (foreign) return `${where}: ${foreign}`;
  if (!carriesMark(obj, ce))
    return (
      `${where} carries no mark of this console's install of ${ce.metadata?.name ?? ''} ` +
      `(annotation ${INSTALL_MARK}=${markValue(ce) ?? ''}): made by someone else, ` +
      'or before the console marked its installs'
    );
  if (kind === 'ClusterRoleBinding' || kind === 'RoleBinding') {
    const problem = bindingProblem(obj, kind === 'RoleBinding' ? 'Role' : 'ClusterRole', role, sa, ns);
    if (problem) return `${where}: ${problem}`;
  }
  return undefined;
}

/**
 * A role's rules widened in place, undone by writing the old rules back over whatever is there now.
 * The write carries the role's resourceVersion as read, and its binding is read again just before,
 * so a role or binding changed since it was judged (a mark taken off, a subject added) is not widened.
 */
function widenWrite(kind: RbacKind, role: Role, rules: PolicyRule[], recheck: () => Promise<void>): RightsWrite {
  const name = role.metadata?.name ?? '';
  const ns = role.metadata?.namespace;
  const where = ns ? `${ns}/${name}` : name;
  return {
    describe: `${kind} ${where}`,
    apply: async (client) => {
      await recheck();
      await client.replace(rbacType(kind), { ...role, rules });
    },
    undo: async (client) => {
      const now = await client.get<Role>(rbacType(kind), name, ns);
      await client.replace(rbacType(kind), { ...now, rules: role.rules ?? [] });
    },
  };
}

function createWrite(kind: RbacKind, obj: KubeObject): RightsWrite {
  const name = obj.metadata?.name ?? '';
  const ns = obj.metadata?.namespace;
  return {
    describe: `${kind} ${ns ? `${ns}/` : ''}${name} (new)`,
    apply: async (client) => void (await client.create(rbacType(kind), obj)),
    undo: async (client) => void (await client.delete(rbacType(kind), name, ns ? { namespace: ns } : {})),
  };
}

const toLike = (r: PolicyRule): PolicyRuleLike => ({
  apiGroups: r.apiGroups ?? [],
  resources: r.resources ?? [],
  ...(r.resourceNames?.length ? { resourceNames: r.resourceNames } : {}),
  verbs: r.verbs,
});

/** What the account lacks for `bundle`, and the writes that grant it, or why that cannot be told. */
export async function rightsForChange(
  client: KubeClient,
  ce: ClusterExtension,
  bundle: FbcBundle,
  catalog?: string,
): Promise<{ view: RightsForChange; writes: RightsWrite[] }> {
  const extension = ce.metadata?.name ?? '';
  const ns = ce.spec?.namespace ?? '';
  const sa = ce.spec?.serviceAccount?.name ?? '';
  const unknown = (why: string) => ({ view: { state: 'unknown' as const, why }, writes: [] });
  const manifests = await bundleManifests(
    bundle,
    undefined,
    catalog ? { client, catalog: { kind: 'ClusterCatalog', name: catalog } } : { client },
  );
  if ('unknown' in manifests)
    return unknown(
      `${manifests.unknown}, so the rights ${bundle.name} needs cannot be computed here: ` +
        `make sure ServiceAccount ${ns}/${sa} may install it`,
    );
  const rendered = renderBundle(manifests.csv, manifests.others, ns);
  if ('error' in rendered) return unknown(`OLM v1 cannot install ${bundle.name}: ${rendered.error}`);
  const needed = installerRbac({
    manifests: rendered.objects,
    namespace: ns,
    serviceAccount: sa,
    extensionName: extension,
  });
  const name = `${extension}-installer`;
  const [clusterRole, clusterBinding] = await Promise.all([
    read<Role>(client, 'ClusterRole', name),
    read<Binding>(client, 'ClusterRoleBinding', name),
  ]);
  if (clusterRole === 'refused' || clusterBinding === 'refused')
    return unknown(`you may not read ClusterRole and ClusterRoleBinding ${name}, where this console grants the rights`);
  if (
    clusterRole === 'absent' ||
    clusterBinding === 'absent' ||
    !namesAccount(clusterBinding, 'ClusterRole', name, sa, ns)
  )
    return unknown(
      `ServiceAccount ${ns}/${sa}'s rights were not granted by this console (no ClusterRole ${name} bound to it): ` +
        `make sure they cover ${bundle.name}`,
    );
  const mark = markValue(ce);
  const marked = (o: KubeObject): KubeObject =>
    mark ? { ...o, metadata: { ...o.metadata, annotations: { [INSTALL_MARK]: mark } } } : o;
  /** Reads the binding again at write time and refuses when it is no longer this install's alone. */
  const recheck = (kind: 'ClusterRoleBinding' | 'RoleBinding') => async () => {
    const now = await read<Binding>(client, kind, name, kind === 'RoleBinding' ? ns : undefined);
    const problem =
      typeof now === 'string'
        ? `${kind} ${name} is ${now === 'absent' ? 'gone' : 'not readable'}`
        : notOurs(kind, now, ce, name);
    if (problem)
      throw new ApiError(409, 'Conflict', `the installer's rights changed while they were checked: ${problem}`);
  };
  const problems = [
    notOurs('ClusterRole', clusterRole, ce, name),
    notOurs('ClusterRoleBinding', clusterBinding, ce, name),
  ];
  const writes: RightsWrite[] = [];
  const added: PolicyRuleLike[] = [];
  const neededCluster = (needed.find((o) => o.kind === 'ClusterRole')?.rules ?? []) as PolicyRule[];
  const widened = widenRules(clusterRole.rules ?? [], neededCluster);
  if (widened.added.length) {
    writes.push(widenWrite('ClusterRole', clusterRole, widened.rules, recheck('ClusterRoleBinding')));
    added.push(...widened.added.map(toLike));
  }
  const neededLocal = (needed.find((o) => o.kind === 'Role')?.rules ?? []) as PolicyRule[];
  if (neededLocal.length) {
    const [role, binding] = await Promise.all([
      read<Role>(client, 'Role', name, ns),
      read<Binding>(client, 'RoleBinding', name, ns),
    ]);
    if (role === 'refused' || binding === 'refused')
      return unknown(`you may not read Role and RoleBinding ${ns}/${name}, where this console grants the rights`);
    if (role !== 'absent') problems.push(notOurs('Role', role, ce, name));
    if (binding !== 'absent') problems.push(notOurs('RoleBinding', binding, ce, name));
    const roleObject = needed.find((o) => o.kind === 'Role')!;
    if (role === 'absent') {
      writes.push(createWrite('Role', marked(roleObject)));
      added.push(...neededLocal.map(toLike));
    } else {
      const local = widenRules(role.rules ?? [], neededLocal);
      if (local.added.length) writes.push(widenWrite('Role', role, local.rules, recheck('RoleBinding')));
      added.push(...local.added.map(toLike));
    }
    if (binding === 'absent')
      writes.push(createWrite('RoleBinding', marked(needed.find((o) => o.kind === 'RoleBinding')!)));
  }
  if (!writes.length) return { view: { state: 'held' }, writes };
  const why = problems.filter((p): p is string => p !== undefined);
  if (why.length)
    return {
      view: {
        state: 'refused',
        why:
          `${bundle.name} needs more rights than ${name} grants, and the console widens only roles it made for ` +
          `${extension} and granted to ${ns}/${sa} alone: ${why.join('; ')}. If they are meant to hold them, add ` +
          `the rules below to ${name} yourself (or have an administrator do it), then change the version again`,
        added,
      },
      writes: [],
    };
  return { view: { state: 'widen', roles: writes.map((w) => w.describe), added }, writes };
}
