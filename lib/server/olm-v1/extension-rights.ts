// Whether an extension's ServiceAccount may install the bundle a version change resolves to. The
// install wizard grants the account exactly one bundle's rights, by object name
// (lib/olm/v1/installer-rbac.ts), in roles named `<extension>-installer`; a version whose bundle
// adds an object or a kind would leave v1 retrying on a Forbidden for ever. So a change widens
// those roles first, as the person, with what the new bundle needs (widenRules keeps the old
// rules: Helm still touches the previous release's objects). Rights made by anyone else are not
// the console's to change: the plan says it cannot tell, and why.
import type { PolicyRuleLike, RightsForChange } from '../../api/olm-v1-extensions';
import type { KubeClient } from '../../k8s/client';
import { rbacType } from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import type { FbcBundle } from '../../olm/fbc/types';
import type { PolicyRule } from '../../olm/resources/cluster-service-version';
import type { KubeObject } from '../../olm/resources/common';
import { installerRbac, widenRules } from '../../olm/v1/installer-rbac';
import { renderBundle } from '../../olm/v1/render-bundle';
import { bundleManifests } from '../bundle-images/bundle-manifests';
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

const bindsOnly = (b: Binding, kind: string, name: string, sa: string, ns: string) =>
  b.roleRef?.kind === kind &&
  b.roleRef.name === name &&
  (b.subjects ?? []).some((s) => s.kind === 'ServiceAccount' && s.name === sa && (s.namespace ?? ns) === ns);

/** A role's rules widened in place, undone by writing the old rules back over whatever is there now. */
function widenWrite(kind: RbacKind, role: Role, rules: PolicyRule[]): RightsWrite {
  const name = role.metadata?.name ?? '';
  const ns = role.metadata?.namespace;
  const where = ns ? `${ns}/${name}` : name;
  return {
    describe: `${kind} ${where}`,
    apply: async (client) => void (await client.replace(rbacType(kind), { ...role, rules })),
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
): Promise<{ view: RightsForChange; writes: RightsWrite[] }> {
  const extension = ce.metadata?.name ?? '';
  const ns = ce.spec?.namespace ?? '';
  const sa = ce.spec?.serviceAccount?.name ?? '';
  const unknown = (why: string) => ({ view: { state: 'unknown' as const, why }, writes: [] });
  const manifests = await bundleManifests(bundle);
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
    !bindsOnly(clusterBinding, 'ClusterRole', name, sa, ns)
  )
    return unknown(
      `ServiceAccount ${ns}/${sa}'s rights were not granted by this console (no ClusterRole ${name} bound to it): ` +
        `make sure they cover ${bundle.name}`,
    );
  const writes: RightsWrite[] = [];
  const added: PolicyRuleLike[] = [];
  const neededCluster = (needed.find((o) => o.kind === 'ClusterRole')?.rules ?? []) as PolicyRule[];
  const widened = widenRules(clusterRole.rules ?? [], neededCluster);
  if (widened.added.length) {
    writes.push(widenWrite('ClusterRole', clusterRole, widened.rules));
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
    const roleObject = needed.find((o) => o.kind === 'Role')!;
    if (role === 'absent') {
      writes.push(createWrite('Role', roleObject));
      added.push(...neededLocal.map(toLike));
    } else {
      const local = widenRules(role.rules ?? [], neededLocal);
      if (local.added.length) writes.push(widenWrite('Role', role, local.rules));
      added.push(...local.added.map(toLike));
    }
    if (binding === 'absent')
      writes.push(
        createWrite(
          'RoleBinding',
          needed.find((o) => o.kind === 'RoleBinding')!,
        ),
      );
  }
  if (!writes.length) return { view: { state: 'held' }, writes };
  return { view: { state: 'widen', roles: writes.map((w) => w.describe), added }, writes };
}
