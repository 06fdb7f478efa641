// Planning a ClusterExtension install against what operator-controller v1.2.0 needs at its first
// reconcile: the namespace (Helm runs with CreateNamespace=false) and the ServiceAccount (its token
// request fails otherwise: "service account ... not found") exist before the ClusterExtension, and
// the account's rights before it too, so the first install is not Retrying in Forbidden words
// (docs/olm-v1/install.md); the spec's fields as api/v1/clusterextension_types.go names them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planV1Install, type V1InstallFacts } from './install-plan';

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'db-operator', namespace: 'db-system' },
};

function facts(over: Partial<V1InstallFacts> = {}): V1InstallFacts {
  return {
    request: {
      name: 'db',
      packageName: 'db',
      namespace: 'db-system',
      serviceAccount: 'db-installer',
      grant: true,
      version: '~1.4',
      channels: ['stable'],
      upgradeConstraintPolicy: 'CatalogProvided',
    },
    namespaceExists: false,
    serviceAccountExists: false,
    resolution: { bundle: 'db.v1.4.2', version: '1.4.2', catalog: 'main' },
    rendered: { objects: [deployment] },
    denied: {},
    ...over,
  };
}

describe('planV1Install', () => {
  it('creates the namespace, the account and its rights before the ClusterExtension', () => {
    const plan = planV1Install(facts());
    assert.deepEqual(
      plan.objects.map((o) => [o.action, o.kind, o.name]),
      [
        ['create', 'Namespace', 'db-system'],
        ['create', 'ServiceAccount', 'db-installer'],
        ['create', 'ClusterRole', 'db-installer'],
        ['create', 'ClusterRoleBinding', 'db-installer'],
        ['create', 'Role', 'db-installer'],
        ['create', 'RoleBinding', 'db-installer'],
        ['create', 'ClusterExtension', 'db'],
      ],
    );
    assert.deepEqual(plan.objects.at(-1)!.object.spec, {
      namespace: 'db-system',
      serviceAccount: { name: 'db-installer' },
      source: {
        sourceType: 'Catalog',
        catalog: {
          packageName: 'db',
          version: '~1.4',
          channels: ['stable'],
          upgradeConstraintPolicy: 'CatalogProvided',
        },
      },
    });
    assert.equal(plan.granted, true);
    assert.deepEqual(plan.blockers, []);
  });

  it('uses what exists, and says an existing account brings its own rights', () => {
    const plan = planV1Install(facts({ namespaceExists: true, serviceAccountExists: true }));
    assert.deepEqual(
      plan.objects.slice(0, 2).map((o) => o.action),
      ['reuse', 'reuse'],
    );
    assert.ok(plan.warnings.some((w) => w.code === 'accountExists'));
  });

  it('takes a namespace the person may neither read nor create as existing, and says so', () => {
    const plan = planV1Install(facts({ namespaceExists: 'unknown', denied: { createNamespace: 'forbidden' } }));
    assert.deepEqual([plan.objects[0]!.action, plan.objects[0]!.kind], ['reuse', 'Namespace']);
    assert.ok(plan.warnings.some((w) => w.code === 'namespaceUnknown'));
    assert.deepEqual(plan.blockers, []);
  });

  it('leaves the rights for an administrator when the person may not grant them, and says so', () => {
    const plan = planV1Install(facts({ denied: { grantRbac: 'clusterroles is forbidden' } }));
    assert.equal(plan.granted, false);
    assert.ok(!plan.objects.some((o) => o.kind === 'ClusterRole'));
    assert.equal(plan.rbac.length, 4, 'the rights are still there to copy');
    assert.match(plan.warnings.find((w) => w.code === 'rightsNotGranted')!.message, /clusterroles is forbidden/);
    assert.deepEqual(plan.blockers, []);
  });

  it('blocks what the person may not create, and a name already taken', () => {
    const plan = planV1Install(
      facts({
        denied: { createExtension: 'no', createNamespace: 'no ns', createServiceAccount: 'no sa' },
        existing: { packageName: 'db', conditions: [] },
      }),
    );
    assert.deepEqual(plan.blockers.map((b) => b.code).sort(), ['exists', 'forbidden', 'forbidden', 'forbidden']);
  });

  it('blocks granting rights over rights an earlier install of the same name left behind', () => {
    const plan = planV1Install(facts({ rbacExisting: ['ClusterRole db-installer'] }));
    assert.match(plan.blockers.find((b) => b.code === 'exists')!.message, /^ClusterRole db-installer already exists/);
    const left = planV1Install(facts({ rbacExisting: ['ClusterRole db-installer'], denied: { grantRbac: 'no' } }));
    assert.deepEqual(left.blockers, []);
  });

  it('says a bundle v1.2.0 will not install in its words, wrapped as the Progressing message is', () => {
    const plan = planV1Install(facts({ rendered: { error: 'webhookDefinitions are not supported' } }));
    assert.equal(
      plan.warnings.find((w) => w.code === 'unsupported')?.message,
      'operator-controller v1.2.0 cannot install this bundle: webhookDefinitions are not supported for resolved bundle "db.v1.4.2" with version "1.4.2"',
    );
    assert.deepEqual(plan.rbac, []);
  });

  it('says plainly what SelfCertified gives up', () => {
    const f = facts();
    f.request.upgradeConstraintPolicy = 'SelfCertified';
    assert.match(planV1Install(f).warnings.find((w) => w.code === 'selfCertified')!.message, /downgrades/);
  });
});
