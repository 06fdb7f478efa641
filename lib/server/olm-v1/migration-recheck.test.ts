// The move's last look before it marks objects for OLM v1, against the sandbox: Cachely installed
// by OLM v0, planned, and then the cluster changed as it may between the plan and the adopt step.
// Untouched, every planned patch goes out bound to the resourceVersion just read, and a change
// after that read makes the API server refuse it (409); an account replaced by someone else's under
// the same name, and an object the plan said v1 would create made by someone, stop the move.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeClient } from '../../k8s/client';
import { DEPLOYMENT_TYPE, SERVICE_ACCOUNT_TYPE, rbacType } from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import type { MigrationStep } from '../../olm/v1/migration-plan';
import { withSandbox } from '../../sandbox/testing/sandbox-fixture';
import { clientAs, subscribe, waitForCsv } from '../testing/cluster';
import { analyseMigration } from './migration';
import { createdByV1, recheckAdoption } from './migration-recheck';

const CSV = 'cachely.v0.9.2';
const ctx = { csv: CSV, extension: 'cachely', namespace: 'operators' };

describe('the move looks again just before it marks anything', () => {
  let admin: KubeClient;
  let close: () => Promise<void>;
  let plan: Awaited<ReturnType<typeof analyseMigration>>;
  let adopt: MigrationStep;
  before(async () => {
    const sb = await withSandbox({ deploymentDelayMs: 10 });
    close = () => sb.close();
    admin = clientAs(sb, 'admin');
    await subscribe(admin, { namespace: 'operators', package: 'cachely', channel: 'alpha' });
    await waitForCsv(admin, 'operators', CSV);
    plan = await analyseMigration(admin, 'operators', CSV);
    assert.equal(plan.view.canMove, true, JSON.stringify(plan.view.reasons));
    adopt = plan.steps!.find((s) => s.id === 'adopt')!;
  });
  after(() => close?.());

  test('untouched: each planned patch goes out bound to what was just read; a later change is a 409', async () => {
    const r = await recheckAdoption(admin, adopt, createdByV1(plan), ctx);
    assert.ok(!('refused' in r), JSON.stringify(r));
    assert.deepEqual(
      r.writes.map((w) => `${w.type.kind}/${w.name}`).sort(),
      adopt.writes.map((w) => `${w.type.kind}/${w.name}`).sort(),
    );
    assert.deepEqual(r.vanished, []);
    const dep = r.writes.find((w) => w.type.kind === 'Deployment')!;
    const rv = (dep.body as { metadata: { resourceVersion?: string } }).metadata.resourceVersion;
    assert.ok(rv, 'the patch names the resourceVersion it was checked at');
    // Someone changes the Deployment between the last look and the write.
    await admin.patch(
      DEPLOYMENT_TYPE,
      dep.name,
      { metadata: { labels: { touched: 'yes' } } },
      {
        namespace: 'operators',
        type: 'merge',
      },
    );
    await assert.rejects(admin.patch(dep.type, dep.name, dep.body!, { namespace: dep.namespace, type: 'merge' }), (e) =>
      isKubeError(e, 409),
    );
    const after = await admin.get<{ metadata: { labels?: Record<string, string> } }>(
      DEPLOYMENT_TYPE,
      dep.name,
      'operators',
    );
    assert.equal(after.metadata.labels?.['app.kubernetes.io/managed-by'], undefined);
  });

  test('an object the plan said OLM v1 would create, made by someone meanwhile, stops the move', async () => {
    const created = createdByV1(plan);
    const role = created.find((w) => w.type.kind === 'ClusterRole')!;
    await admin.create(rbacType('ClusterRole'), { metadata: { name: role.name }, rules: [] });
    try {
      const r = await recheckAdoption(admin, adopt, created, ctx);
      assert.deepEqual(r, {
        refused: `ClusterRole ${role.name} appeared since the plan, and OLM v0 did not install it for ${CSV}`,
      });
    } finally {
      await admin.delete(rbacType('ClusterRole'), role.name);
    }
  });

  test('an account replaced by someone else’s under the same name stops the move', async () => {
    await admin.delete(SERVICE_ACCOUNT_TYPE, 'cachely-controller', { namespace: 'operators' });
    await admin.create(
      SERVICE_ACCOUNT_TYPE,
      { metadata: { name: 'cachely-controller', namespace: 'operators', labels: { team: 'other' } } },
      { namespace: 'operators' },
    );
    const r = await recheckAdoption(admin, adopt, createdByV1(plan), ctx);
    assert.deepEqual(r, {
      refused:
        'ServiceAccount operators/cachely-controller was replaced since the plan; ' +
        'the new one is not what OLM v0 installed',
    });
  });
});
