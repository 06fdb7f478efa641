// Parts of a shared InstallPlan, on objects shaped as OLM writes them (InstallPlan
// spec.clusterServiceVersionNames and status.plan[].resolving; Subscription status.currentCSV and
// installedCSV).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InstallPlan } from '../resources/install-plan';
import type { Subscription } from '../resources/subscription';
import { planParts } from './plan-parts';

const step = (resolving: string, kind: string, name: string) => ({
  resolving,
  resource: { kind, name, group: '', version: 'v1', sourceName: 'c', sourceNamespace: 'olm' },
  status: 'Unknown',
});
const sub = (name: string, currentCSV: string, installedCSV?: string) =>
  ({
    metadata: { name, namespace: 'shared' },
    spec: { name, source: 'c', sourceNamespace: 'olm' },
    status: { currentCSV, ...(installedCSV ? { installedCSV } : {}) },
  }) as unknown as Subscription;

test('an upgrade, a new install and a dependency in one plan, each with its steps', () => {
  const plan = {
    metadata: { name: 'install-abc', namespace: 'shared' },
    spec: {
      approval: 'Manual',
      approved: false,
      clusterServiceVersionNames: ['alpha.v2.0.0', 'beta.v0.2.0', 'gamma.v1.0.0'],
    },
    status: {
      phase: 'RequiresApproval',
      plan: [
        step('alpha.v2.0.0', 'ClusterServiceVersion', 'alpha.v2.0.0'),
        step('alpha.v2.0.0', 'CustomResourceDefinition', 'as.example.com'),
        step('beta.v0.2.0', 'ClusterServiceVersion', 'beta.v0.2.0'),
        step('beta.v0.2.0', 'Role', 'r1'),
        step('beta.v0.2.0', 'Role', 'r2'),
        step('gamma.v1.0.0', 'ClusterServiceVersion', 'gamma.v1.0.0'),
        step('gamma.v1.0.0', 'Subscription', 'gamma-stable-c-olm'),
      ],
    },
  } as unknown as InstallPlan;
  assert.deepEqual(planParts(plan, [sub('alpha', 'alpha.v2.0.0', 'alpha.v1.0.0'), sub('beta', 'beta.v0.2.0')]), [
    {
      csv: 'alpha.v2.0.0',
      subscription: 'alpha',
      change: 'upgrade',
      from: 'alpha.v1.0.0',
      steps: 2,
      kinds: { ClusterServiceVersion: 1, CustomResourceDefinition: 1 },
    },
    {
      csv: 'beta.v0.2.0',
      subscription: 'beta',
      change: 'install',
      steps: 3,
      kinds: { ClusterServiceVersion: 1, Role: 2 },
    },
    { csv: 'gamma.v1.0.0', change: 'dependency', steps: 2, kinds: { ClusterServiceVersion: 1, Subscription: 1 } },
  ]);
});

test('an upgrade no Subscription names yet is unclaimed, not a dependency', () => {
  // OLM creates the plan (ensureInstallPlan) and only then writes the Subscription's currentCSV
  // (updateSubscriptionStatuses), so a reader between the two sees the old currentCSV.
  const plan = {
    metadata: { name: 'install-def', namespace: 'shared' },
    spec: { approval: 'Manual', approved: false, clusterServiceVersionNames: ['alpha.v2.0.0'] },
    status: {
      phase: 'RequiresApproval',
      plan: [
        step('alpha.v2.0.0', 'ClusterServiceVersion', 'alpha.v2.0.0'),
        step('alpha.v2.0.0', 'ServiceAccount', 'alpha-sa'),
      ],
    },
  } as unknown as InstallPlan;
  assert.deepEqual(planParts(plan, [sub('alpha', 'alpha.v1.0.0', 'alpha.v1.0.0')]), [
    { csv: 'alpha.v2.0.0', change: 'unclaimed', steps: 2, kinds: { ClusterServiceVersion: 1, ServiceAccount: 1 } },
  ]);
});
