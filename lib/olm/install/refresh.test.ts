// The refresh of a failing Subscription: the documented repair's steps, the bundle unpack Job and
// ConfigMap found as OLM makes them (controller/bundle/bundle_unpacker.go, v0.38.0: the Job
// labelled operatorframework.io/bundle-unpack-ref with its ConfigMap's name, pulling the bundle
// image), and nothing done for a Subscription that is not failing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InstallPlan } from '../resources/install-plan';
import type { Subscription } from '../resources/subscription';
import { BUNDLE_UNPACK_REF_LABEL, planRefresh, type RefreshFacts } from './refresh';

const sub: Subscription = {
  metadata: { name: 'quay', namespace: 'ops', uid: 'u1' },
  spec: {
    name: 'quay',
    source: 'redhat-operators',
    sourceNamespace: 'openshift-marketplace',
    channel: 'stable',
    installPlanApproval: 'Manual',
    config: { env: [{ name: 'A', value: '1' }] },
  },
  status: {
    currentCSV: 'quay.v3.9.1',
    installedCSV: 'quay.v3.9.0',
    installPlanRef: { name: 'install-x' },
    conditions: [
      {
        type: 'InstallPlanFailed',
        status: 'True',
        reason: 'InstallComponentFailed',
        message: 'bundle unpacking failed. Reason: DeadlineExceeded',
      },
    ],
  },
};
const failed = {
  metadata: { name: 'install-x', namespace: 'ops', ownerReferences: [{ uid: 'u1' }] },
  spec: { clusterServiceVersionNames: ['quay.v3.9.1'], approval: 'Manual', approved: true },
  status: { phase: 'Failed', bundleLookups: [{ path: 'registry.example.com/quay-bundle@sha256:abc' }] },
} as unknown as InstallPlan;
const other = {
  metadata: { name: 'install-y', namespace: 'ops', ownerReferences: [{ uid: 'u2' }] },
  spec: { clusterServiceVersionNames: ['db.v1'], approval: 'Manual', approved: false },
  status: { phase: 'Failed' },
} as unknown as InstallPlan;
const facts = (over: Partial<RefreshFacts> = {}): RefreshFacts => ({
  subscription: sub,
  plans: [failed, other],
  csv: { name: 'quay.v3.9.0', phase: 'Succeeded' },
  unpackJobs: [
    {
      namespace: 'openshift-marketplace',
      name: 'a1b2c3',
      labels: { [BUNDLE_UNPACK_REF_LABEL]: 'a1b2c3' },
      images: ['quay.io/operator-framework/opm:latest', 'registry.example.com/quay-bundle@sha256:abc'],
      failed: true,
    },
    {
      namespace: 'openshift-marketplace',
      name: 'd4e5f6',
      labels: { [BUNDLE_UNPACK_REF_LABEL]: 'd4e5f6' },
      images: ['registry.example.com/other-bundle@sha256:def'],
      failed: false,
    },
  ],
  denied: {},
  ...over,
});

test('the repair: the Subscription first, its failed plan, the unpack Job and ConfigMap of that bundle, the CSV, then the same Subscription', () => {
  const p = planRefresh(facts());
  assert.deepEqual(
    p.steps.map((s) => `${s.action} ${s.kind} ${s.namespace}/${s.name}`),
    [
      'delete Subscription ops/quay',
      'delete InstallPlan ops/install-x',
      'delete Job openshift-marketplace/a1b2c3',
      'delete ConfigMap openshift-marketplace/a1b2c3',
      'delete ClusterServiceVersion ops/quay.v3.9.0',
      'create Subscription ops/quay',
    ],
  );
  assert.deepEqual(p.subscription.spec, sub.spec);
  assert.match(p.failing[0]!, /^InstallPlanFailed \(InstallComponentFailed\): bundle unpacking failed/);
  assert.deepEqual(p.blockers, []);
  assert.ok(p.notes.some((n) => /Manual: its new InstallPlan waits/.test(n)));
});

test('not failing: nothing to refresh; Jobs that cannot be listed are left to the person, named', () => {
  const healthy = planRefresh(
    facts({ subscription: { ...sub, status: { ...sub.status, conditions: [] } }, plans: [] }),
  );
  assert.match(healthy.blockers[0]!, /is not failing/);
  const hidden = planRefresh(facts({ unpackJobs: 'you may not list Jobs in openshift-marketplace' }));
  assert.ok(
    hidden.notes.some((n) =>
      /delete the Job and ConfigMap of registry\.example\.com\/quay-bundle@sha256:abc in openshift-marketplace by hand/.test(
        n,
      ),
    ),
  );
});
