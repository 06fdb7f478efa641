// The OLM CRDs' OpenAPI schemas as the API server applies them: required fields, types, enums
// and patterns refused with 422, defaults filled in, unknown fields pruned, and the schema served
// to `kubectl explain`. Writes that would succeed are dry runs, so nothing reaches OLM.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { call, type Answer, type Target } from '../target';
import type { Check } from '../run-checks';

const run = promisify(execFile);
const V1ALPHA1 = '/apis/operators.coreos.com/v1alpha1/namespaces/default';
const V1 = '/apis/operators.coreos.com/v1';
const statusOf = (a: Answer) => ({ status: a.status, body: a.body });
/** What a dry-run create answers that a schema decides: the status code and the spec. */
const specOf = (a: Answer) => ({ status: a.status, spec: (a.body as { spec?: unknown }).spec });

const subscription = (spec: unknown) => ({
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'Subscription',
  metadata: { name: 'schema-check' },
  spec,
});
const operatorGroup = (extra: Record<string, unknown>) => ({
  apiVersion: 'operators.coreos.com/v1',
  kind: 'OperatorGroup',
  metadata: { name: 'schema-check' },
  ...extra,
});

/** `kubectl explain` as a person reads it, less the descriptions (each project words its own). */
async function explain(t: Target, what: string): Promise<string[]> {
  const { stdout } = await run('kubectl', ['--kubeconfig', t.kubeconfig, 'explain', what], { timeout: 30_000 });
  return stdout
    .split('\n')
    .filter((l) => /^(GROUP|KIND|VERSION|FIELD):/.test(l) || /^ {2}\S+\t<[^>]+>/.test(l) || /^\s+enum:/i.test(l))
    .map((l) => l.trimEnd());
}

const csv = (name: string) => ({
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'ClusterServiceVersion',
  metadata: { name },
  spec: { displayName: 'GPU Forge', version: '24.3.1+build.2', install: { strategy: 'deployment' } },
});

export const schemaChecks: Check[] = [
  {
    // A version's build metadata in a CSV's name (a '+') is no DNS-1123 subdomain: the create is
    // refused, as OLM's would be; the same CSV named with a '-' instead passes (a dry run).
    id: 'olm/ClusterServiceVersion whose name has a + is refused as an invalid object name',
    run: async (t) => [
      statusOf(
        await call(t, {
          method: 'POST',
          path: `${V1ALPHA1}/clusterserviceversions?dryRun=All`,
          body: csv('gpu-forge.v24.3.1+build.2'),
        }),
      ),
      (
        await call(t, {
          method: 'POST',
          path: `${V1ALPHA1}/clusterserviceversions?dryRun=All`,
          body: csv('gpu-forge.v24.3.1-build.2'),
        })
      ).status,
    ],
  },
  {
    id: 'olm/Subscription without spec.name and spec.source is refused by the CRD schema',
    run: async (t) =>
      statusOf(
        await call(t, {
          method: 'POST',
          path: `${V1ALPHA1}/subscriptions`,
          body: subscription({ sourceNamespace: 'olm', channel: 'stable' }),
        }),
      ),
  },
  {
    id: 'olm/Subscription whose spec.name is a number is refused by the CRD schema',
    run: async (t) =>
      statusOf(
        await call(t, {
          method: 'POST',
          path: `${V1ALPHA1}/subscriptions`,
          body: subscription({ name: 42, source: 'x', sourceNamespace: 'olm' }),
        }),
      ),
  },
  {
    id: 'olm/Subscription config env without a name is refused by the CRD schema',
    run: async (t) =>
      statusOf(
        await call(t, {
          method: 'POST',
          path: `${V1ALPHA1}/subscriptions`,
          body: subscription({ name: 'x', source: 'y', sourceNamespace: 'olm', config: { env: [{ value: 'v' }] } }),
        }),
      ),
  },
  {
    id: 'olm/Subscription unknown fields are pruned by the CRD schema',
    run: async (t) =>
      specOf(
        await call(t, {
          method: 'POST',
          path: `${V1ALPHA1}/subscriptions?dryRun=All`,
          body: subscription({
            name: 'x',
            source: 'y',
            sourceNamespace: 'olm',
            chanel: 'typo',
            config: { nodeSelector: { a: 'b' }, podLabels: { c: 'd' } },
          }),
        }),
      ),
  },
  {
    id: 'olm/OperatorGroup upgradeStrategy outside its enum is refused by the CRD schema',
    run: async (t) =>
      statusOf(
        await call(t, {
          method: 'POST',
          path: `${V1}/namespaces/default/operatorgroups`,
          body: operatorGroup({ spec: { upgradeStrategy: 'Sometimes' } }),
        }),
      ),
  },
  {
    id: 'olm/OperatorGroup upgradeStrategy defaulted by the CRD schema',
    run: async (t) => [
      specOf(
        await call(t, {
          method: 'POST',
          path: `${V1}/namespaces/default/operatorgroups?dryRun=All`,
          body: operatorGroup({}),
        }),
      ),
      specOf(
        await call(t, {
          method: 'POST',
          path: `${V1}/namespaces/default/operatorgroups?dryRun=All`,
          body: operatorGroup({ spec: { targetNamespaces: ['default'] } }),
        }),
      ),
      specOf(
        await call(t, {
          method: 'POST',
          path: `${V1}/namespaces/default/operatorgroups?dryRun=All`,
          body: operatorGroup({ spec: { upgradeStrategy: null } }),
        }),
      ),
    ],
  },
  {
    id: 'olm/OLMConfig packageServerSyncInterval not matching its pattern is refused by the CRD schema (patch)',
    run: async (t) =>
      statusOf(
        await call(t, {
          method: 'PATCH',
          path: `${V1}/olmconfigs/cluster?dryRun=All`,
          contentType: 'application/merge-patch+json',
          body: { spec: { features: { packageServerSyncInterval: 'soon' } } },
        }),
      ),
  },
  {
    id: 'olm/InstallPlan spec.approved not a boolean is refused by the CRD schema',
    run: async (t) => {
      const created = await call(t, {
        method: 'POST',
        path: `${V1ALPHA1}/installplans?dryRun=All`,
        body: {
          apiVersion: 'operators.coreos.com/v1alpha1',
          kind: 'InstallPlan',
          metadata: { name: 'schema-check' },
          spec: { approval: 'Manual', approved: false, clusterServiceVersionNames: ['x.v1'] },
        },
      });
      const wrong = await call(t, {
        method: 'POST',
        path: `${V1ALPHA1}/installplans`,
        body: {
          apiVersion: 'operators.coreos.com/v1alpha1',
          kind: 'InstallPlan',
          metadata: { name: 'schema-check' },
          spec: { approval: 'Manual', approved: 'yes', clusterServiceVersionNames: ['x.v1'] },
        },
      });
      return [specOf(created), statusOf(wrong)];
    },
  },
  ...[
    'subscriptions',
    'operatorgroups',
    'subscriptions.spec',
    'operatorgroups.spec',
    'catalogsources.spec.grpcPodConfig',
    'installplans.spec',
    'clusterserviceversions.spec.install',
    'olmconfigs.spec.features',
    'operatorconditions.spec',
  ].map((what) => ({
    id: `olm/kubectl explain ${what} reads the CRD schema`,
    run: (t: Target) => explain(t, what),
  })),
];
