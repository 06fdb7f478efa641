// Scoped installs (OLM's doc/design/scoped-operator-install.md): an OperatorGroup naming a
// service account makes OLM write the install as that account, and the API server judge it.
import { RegistryClient } from '../../lib/catalog/registry-client';
import { scopedInstallRbac } from '../../lib/olm/install/scoped-install';
import type { ClusterServiceVersion } from '../../lib/olm/resources/cluster-service-version';
import type { Check } from '../run-checks';
import type { Target } from '../target';
import {
  CATALOG,
  csvPhase,
  list,
  must,
  namespace,
  operatorGroup,
  readScoped,
  settled,
  subscribe,
  until,
} from './olm-read';

/** The bundle's CSV as the catalog's registry serves it (GetBundle). */
async function bundleCsv(t: Target, pkg: string, channel: string, csvName: string): Promise<ClusterServiceVersion> {
  const client = new RegistryClient(t.registries[CATALOG]!);
  try {
    const b = await client.getBundle(pkg, channel, csvName);
    return JSON.parse(b.csvJson) as ClusterServiceVersion;
  } finally {
    client.close();
  }
}

async function create(t: Target, o: Record<string, unknown>): Promise<void> {
  const meta = o.metadata as { name: string; namespace?: string };
  const plural = `${(o.kind as string).toLowerCase()}s`;
  const path = meta.namespace
    ? `/apis/rbac.authorization.k8s.io/v1/namespaces/${meta.namespace}/${plural}`
    : `/apis/rbac.authorization.k8s.io/v1/${plural}`;
  await must(t, 'POST', path, o);
}

export const scopedChecks: Check[] = [
  {
    id: 'olm/scoped OperatorGroup naming a service account that does not exist',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-scoped-missing';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns], serviceAccountName: 'installer' });
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable' });
      await until(t, 'the plan to say why it waits', async () =>
        (await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`)).some((p) =>
          (p.status?.conditions as { reason?: string }[] | undefined)?.some((c) => c.reason === 'InstallCheckFailed'),
        )
          ? true
          : undefined,
      );
      await until(t, 'the group to say so', async () =>
        (
          (await must(t, 'GET', `/apis/operators.coreos.com/v1/namespaces/${ns}/operatorgroups/og`)).status
            ?.conditions as unknown[] | undefined
        )?.length
          ? true
          : undefined,
      );
      // Real OLM retries both (rewriting their times) with a growing backoff; what they say stays.
      await settled(t, ns);
      return readScoped(t, ns);
    },
  },
  {
    id: 'olm/scoped OperatorGroup whose service account has no rights, then granted',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-scoped';
      await namespace(t, ns);
      // The account first, then the group that names it (as OLM's docs do it).
      await must(t, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'installer' },
      });
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns], serviceAccountName: 'installer' });
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable' });
      await until(t, 'the plan to be refused', async () =>
        (await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`)).some((p) =>
          /forbidden/.test((p.status?.message as string | undefined) ?? ''),
        )
          ? true
          : undefined,
      );
      await settled(t, ns);
      const refused = await readScoped(t, ns);
      // OLM's docs: a Role granting everything in the namespace, bound to the account.
      await must(t, 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'scoped' },
        rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
      });
      await must(t, 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'scoped-bindings' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'scoped' },
        subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: ns }],
      });
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      return { refused, granted: await readScoped(t, ns) };
    },
  },
  {
    id: 'olm/scoped OperatorGroup with the rights the console generates for the bundle',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-scoped-generated';
      await namespace(t, ns);
      await must(t, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'installer' },
      });
      const csv = await bundleCsv(t, 'alpha', 'stable', 'alpha.v2.0.0');
      // First only what OLM writes, without the operator's own rules: RBAC refuses OLM the
      // operator's Role, since the account would grant rights it does not hold.
      const writesOnly = scopedInstallRbac(ns, 'installer', 'alpha', {
        csv: {
          ...csv,
          spec: {
            ...csv.spec,
            install: { strategy: 'deployment', spec: { ...csv.spec.install?.spec, permissions: [] } },
          },
        },
        objects: [],
      });
      for (const o of writesOnly.objects) await create(t, o);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns], serviceAccountName: 'installer' });
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable' });
      await until(t, 'the plan to be refused', async () =>
        (await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`)).some((p) =>
          /not currently held/.test((p.status?.message as string | undefined) ?? ''),
        )
          ? true
          : undefined,
      );
      await settled(t, ns);
      // During the refusal real OLM's CSV said the operator's service account did not exist,
      // while its plan showed that account made (seen once, not understood); the sandbox checks
      // the account again at once. The refusal itself is what this check is for.
      const refused = (await readScoped(t, ns)).installPlans;
      // Then the whole grant for the bundle, the operator's rules included.
      const full = scopedInstallRbac(ns, 'installer', 'alpha', { csv, objects: [] });
      const role = full.objects.find((o) => o.kind === 'Role')!;
      const current = await must(
        t,
        'GET',
        `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles/${(role.metadata as { name: string }).name}`,
      );
      await must(t, 'PUT', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles/${current.metadata.name}`, {
        ...role,
        metadata: {
          ...(role.metadata as object),
          resourceVersion: (current.metadata as { resourceVersion?: string }).resourceVersion,
        },
      });
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      return { refused, granted: await readScoped(t, ns) };
    },
  },
];
