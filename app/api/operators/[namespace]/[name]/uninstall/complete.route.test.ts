// A complete removal through the uninstall route against the sandbox: the CRDs go too, after every
// instance in the cluster (also outside the namespaces the operator watches) once the person typed
// the count; refused while another operator owns the same CRD, or for a person who may not delete
// CRDs. Checked afterwards with the Kubernetes API.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { UninstallPreview, UninstallStep } from '@/lib/api/operators';
import type { KubeClient } from '@/lib/k8s/client';
import { isKubeError } from '@/lib/k8s/errors';
import { ensureNamespace, subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';
import type { Subscription } from '@/lib/olm/resources/subscription';
import { SUBSCRIPTION_TYPE } from '@/lib/olm/resources/subscription';

type ErrorBody = { error: { code: number; message: string } };
const PLANS = {
  group: 'backstop.example.com',
  version: 'v1',
  plural: 'backupplans',
  namespaced: true,
  kind: 'BackupPlan',
};
const FLAGS = { group: 'flagpole.example.com', version: 'v1', plural: 'flags', namespaced: true, kind: 'Flag' };
const CRD = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  namespaced: false,
  kind: 'CustomResourceDefinition',
};

describe('complete removal: uninstall with the CRDs', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let PLAN: Handler;
  let POST: Handler;
  let admin: KubeClient;
  let backstop: string;
  let flagpole: string;

  before(async () => {
    admin = sb.admin;
    await subscribe(admin, { namespace: 'backup', package: 'backstop', channel: 'v2', targets: ['backup'] });
    backstop = await waitFor(
      'backstop installed',
      async () => (await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'backstop', 'backup')).status?.installedCSV,
    );
    await waitForCsv(admin, 'backup', backstop);
    await admin.create(
      PLANS,
      { apiVersion: 'backstop.example.com/v1', kind: 'BackupPlan', metadata: { name: 'nightly', namespace: 'backup' } },
      { namespace: 'backup' },
    );
    await ensureNamespace(admin, 'elsewhere');
    await subscribe(admin, { namespace: 'flags', package: 'flagpole', channel: 'stable', targets: ['flags'] });
    flagpole = await waitFor(
      'flagpole installed',
      async () => (await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'flagpole', 'flags')).status?.installedCSV,
    );
    await waitForCsv(admin, 'flags', flagpole);
    for (const [ns, name] of [
      ['flags', 'dark-mode'],
      ['elsewhere', 'stray'],
    ] as const)
      await admin.create(
        FLAGS,
        { apiVersion: 'flagpole.example.com/v1', kind: 'Flag', metadata: { name, namespace: ns } },
        { namespace: ns },
      );
    // Two PgPilots: each owns postgresclusters.pgpilot.example.com.
    await subscribe(admin, { namespace: 'pg-a', package: 'pgpilot', channel: 'stable', targets: ['pg-a'] });
    await subscribe(admin, { namespace: 'pg-b', package: 'pgpilot', channel: 'stable', targets: ['pg-b'] });
    await waitForCsv(admin, 'pg-a', 'pgpilot.v1.4.0');
    await waitForCsv(admin, 'pg-b', 'pgpilot.v1.4.0');
    ({ POST } = await import('./route'));
    ({ POST: PLAN } = await import('./plan/route'));
  });

  const preview = (ns: string, name: string, user = 'admin') =>
    sb.call<UninstallPreview & ErrorBody>(PLAN, '/x', {
      method: 'POST',
      user,
      body: { deleteCrds: true },
      params: { namespace: ns, name },
    });
  const run = (ns: string, name: string, body: unknown, user = 'admin') =>
    sb.call<{ steps: UninstallStep[] } & ErrorBody>(POST, '/x', {
      method: 'POST',
      user,
      body,
      params: { namespace: ns, name },
    });
  const exists = async (t: typeof CRD, name: string, ns?: string) => {
    try {
      await admin.get(t, name, ns);
      return true;
    } catch (err) {
      if (isKubeError(err, 404)) return false;
      throw err;
    }
  };

  test('another operator owning the same CRD refuses it, naming that operator', async () => {
    const p = await preview('pg-a', 'pgpilot.v1.4.0');
    assert.deepEqual(
      p.body.crdRemoval?.usedBy.filter((u) => u.crd === 'postgresclusters.pgpilot.example.com'),
      [{ crd: 'postgresclusters.pgpilot.example.com', csv: 'pgpilot.v1.4.0', namespace: 'pg-b', relation: 'owns' }],
    );
    const r = await run('pg-a', 'pgpilot.v1.4.0', { deleteCrds: true });
    assert.equal(r.status, 409);
    assert.match(
      r.body.error.message,
      /^the CRDs stay: .*pg-b\/pgpilot\.v1\.4\.0 owns postgresclusters\.pgpilot\.example\.com/,
    );
    assert.equal(await exists(CRD, 'postgresclusters.pgpilot.example.com'), true);
    assert.equal(
      (await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'pg-a')).spec.name,
      'pgpilot',
      'nothing was uninstalled',
    );
  });

  test("a viewer is refused with the cluster's reason; an operator that asks consoles not to delete its operands keeps its CRD while instances remain", async () => {
    const p = await preview('flags', flagpole, 'bob');
    assert.equal(p.body.crdRemoval?.allowed.allowed, false);
    const r = await run('flags', flagpole, { deleteCrds: true, confirmation: 'delete 2 instances' }, 'bob');
    assert.equal(r.status, 403);
    const kept = await run('backup', backstop, { deleteCrds: true, confirmation: 'delete 1 instance' });
    assert.equal(kept.status, 400);
    assert.match(
      kept.body.error.message,
      /Backstop asks consoles not to delete its operands .*its CRDs can go only once their instances are gone/,
    );
  });

  test('every instance in the cluster counted, the count typed, then instances, operator and CRD go', async () => {
    const p = await preview('flags', flagpole);
    assert.equal(p.status, 200, JSON.stringify(p.body));
    const removal = p.body.crdRemoval!;
    assert.deepEqual(
      removal.crds.map((c) => [c.name, c.instances, c.byNamespace]),
      [['flags.flagpole.example.com', 2, { elsewhere: 1, flags: 1 }]],
    );
    assert.equal(removal.confirmation, 'delete 2 instances');
    assert.deepEqual(removal.usedBy, []);
    const unconfirmed = await run('flags', flagpole, { deleteCrds: true });
    assert.equal(unconfirmed.status, 409);
    assert.match(
      unconfirmed.body.error.message,
      /deletes their 2 instances in the whole cluster: confirm by typing "delete 2 instances"/,
    );
    const done = await run('flags', flagpole, { deleteCrds: true, confirmation: 'delete 2 instances' });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.deepEqual(
      done.body.steps.map((s) => `${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}: ${s.outcome}`),
      [
        'Flag elsewhere/stray: deleted',
        'Flag flags/dark-mode: deleted',
        'Subscription flags/flagpole: deleted',
        `ClusterServiceVersion flags/${flagpole}: deleted`,
        'CustomResourceDefinition flags.flagpole.example.com: deleted',
      ],
    );
    await waitFor('the CRD gone', async () => ((await exists(CRD, 'flags.flagpole.example.com')) ? undefined : true));
    assert.equal(await exists(FLAGS, 'stray', 'elsewhere'), false);
  });
});
