import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterServiceVersion, InstallMode } from '../resources/cluster-service-version';
import type { OperatorGroup } from '../resources/operator-group';
import type { Subscription } from '../resources/subscription';
import { planMove, type MoveFacts } from './move';

const modes = (...types: InstallMode['type'][]): InstallMode[] =>
  (['OwnNamespace', 'SingleNamespace', 'MultiNamespace', 'AllNamespaces'] as const).map((type) => ({
    type,
    supported: types.includes(type),
  }));
const csv = (m: InstallMode[]): ClusterServiceVersion =>
  ({ metadata: { name: 'pgpilot.v1.2.0', namespace: 'shared' }, spec: { installModes: m } }) as ClusterServiceVersion;
const sub: Subscription = {
  metadata: {
    name: 'pgpilot',
    namespace: 'shared',
    uid: 'u',
    resourceVersion: '9',
    labels: { 'operators.coreos.com/pgpilot.shared': '', team: 'db' },
  },
  spec: {
    name: 'pgpilot',
    source: 'demo',
    sourceNamespace: 'olm',
    channel: 'stable',
    installPlanApproval: 'Manual',
    startingCSV: 'pgpilot.v1.0.0',
    config: { env: [{ name: 'A', value: 'b' }] },
  },
  status: { installedCSV: 'pgpilot.v1.2.0', currentCSV: 'pgpilot.v1.3.0' },
};

function facts(over: Partial<MoveFacts> = {}): MoveFacts {
  return {
    subscription: sub,
    csv: csv(modes('OwnNamespace', 'SingleNamespace')),
    targets: ['shared'],
    to: 'pgpilot-own',
    toExists: false,
    toGroups: [],
    toSubscriptions: [],
    sharing: ['cachely'],
    waitingPlans: [],
    denied: {},
    ...over,
  };
}

test('an operator watching its own namespace keeps watching it from the new one (SingleNamespace)', () => {
  const p = planMove(facts());
  assert.deepEqual(p.blockers, []);
  assert.deepEqual(
    p.objects.map((o) => `${o.action} ${o.kind} ${o.name}`),
    ['create Namespace pgpilot-own', 'create OperatorGroup pgpilot-own-operators'],
  );
  assert.deepEqual((p.objects[1]!.object as OperatorGroup).spec, { targetNamespaces: ['shared'] });
  assert.deepEqual(p.deletes, [
    { kind: 'Subscription', name: 'pgpilot' },
    { kind: 'ClusterServiceVersion', name: 'pgpilot.v1.2.0' },
  ]);
  // The same package, channel, catalog, approval and config, starting at the version running now;
  // OLM's own labels are not carried over.
  assert.deepEqual(p.subscription?.spec, {
    name: 'pgpilot',
    source: 'demo',
    sourceNamespace: 'olm',
    channel: 'stable',
    installPlanApproval: 'Manual',
    config: { env: [{ name: 'A', value: 'b' }] },
    startingCSV: 'pgpilot.v1.2.0',
  });
  assert.deepEqual(p.subscription?.metadata, { name: 'pgpilot', namespace: 'pgpilot-own', labels: { team: 'db' } });
  assert.ok(p.warnings.some((w) => /shared's InstallPlans then carry only cachely/.test(w)));
  assert.ok(p.warnings.some((w) => /once someone approves the first InstallPlan of pgpilot-own/.test(w)));
});

test('an OwnNamespace-only operator cannot keep watching the old namespace: blocked, with why', () => {
  const p = planMove(facts({ csv: csv(modes('OwnNamespace')) }));
  assert.match(
    p.blockers.join(),
    /supports only watching its own namespace \(OwnNamespace\), so in pgpilot-own it would watch pgpilot-own instead of shared/,
  );
});

test('an AllNamespaces operator moves with an all-namespaces group; an existing group that does not fit blocks', () => {
  const all = planMove(facts({ csv: csv(modes('AllNamespaces')), targets: [''] }));
  assert.deepEqual((all.objects[1]!.object as OperatorGroup).spec, {});
  const taken = planMove(
    facts({
      toExists: true,
      toGroups: [{ metadata: { name: 'x', namespace: 'pgpilot-own' }, spec: { targetNamespaces: ['pgpilot-own'] } }],
    }),
  );
  assert.equal(taken.blockers.length, 1);
});

test('the same namespace, nothing installed, a package already there, or missing rights: blocked', () => {
  assert.match(planMove(facts({ to: 'shared' })).blockers.join(), /pick another namespace/);
  assert.match(
    planMove(facts({ csv: undefined })).blockers.join(),
    /installed version pgpilot.v1.2.0 is not in shared/,
  );
  const there = planMove(
    facts({
      toExists: true,
      toSubscriptions: [
        {
          metadata: { name: 'pg', namespace: 'pgpilot-own' },
          spec: { name: 'pgpilot', source: 'demo', sourceNamespace: 'olm', installPlanApproval: 'Manual' },
        },
      ],
    }),
  );
  assert.match(there.blockers.join(), /already has a Subscription to pgpilot/);
  assert.ok(there.warnings.some((w) => /a namespace of its own is one with no other Subscription/.test(w)));
  assert.match(
    planMove(facts({ denied: { deleteCsv: 'RBAC: no' } })).blockers.join(),
    /you may not delete ClusterServiceVersion shared\/pgpilot.v1.2.0: RBAC: no/,
  );
});

test('not installed yet (its first plan shared and waiting): the Subscription moves as it is, an own-namespace group with it', () => {
  const waiting = { ...sub, status: { currentCSV: 'pgpilot.v1.2.0' } };
  const p = planMove(facts({ subscription: waiting, csv: undefined }));
  assert.deepEqual(p.blockers, []);
  assert.deepEqual((p.objects[1]!.object as OperatorGroup).spec, { targetNamespaces: ['pgpilot-own'] });
  assert.deepEqual(p.deletes, [{ kind: 'Subscription', name: 'pgpilot' }]);
  assert.equal(p.subscription?.spec.startingCSV, 'pgpilot.v1.0.0');
  assert.ok(p.warnings.some((w) => /is not installed yet/.test(w)));
});

test('the waiting plan it shares goes with it: OLM would keep it, and approving it would still install the moved CSV here', () => {
  const p = planMove(
    facts({
      waitingPlans: [
        { name: 'install-abc', csvNames: ['pgpilot.v1.3.0', 'cachely.v0.9.2'] },
        { name: 'install-other', csvNames: ['cachely.v0.9.2'] },
      ],
    }),
  );
  assert.deepEqual(p.deletes, [
    { kind: 'Subscription', name: 'pgpilot' },
    { kind: 'InstallPlan', name: 'install-abc' },
    { kind: 'ClusterServiceVersion', name: 'pgpilot.v1.2.0' },
  ]);
  assert.ok(
    p.warnings.some((w) =>
      /InstallPlan install-abc waits with pgpilot\.v1\.3\.0, cachely\.v0\.9\.2: OLM keeps a waiting plan as it is/.test(
        w,
      ),
    ),
  );
});
