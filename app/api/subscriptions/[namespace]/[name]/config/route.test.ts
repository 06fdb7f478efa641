// An operator's pod configuration through the route, against the sandbox: read what the
// Subscription says and what the Deployment carries, change it and see OLM write it into the
// Deployment, refused when invalid, when someone changed it meanwhile, or when the person may
// only view.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import type { SubscriptionConfig } from '@/lib/olm/resources/subscription-config';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import type { OperatorConfigView } from '@/lib/server/subscription-config';
import { subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';

describe('/api/subscriptions/<ns>/<name>/config', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let GET: Handler;
  let PUT: Handler;
  let admin: KubeClient;
  before(async () => {
    ({ GET, PUT } = await import('./route'));
    admin = sb.admin;
    await subscribe(admin, { namespace: 'team1', package: 'pgpilot', channel: 'stable', targets: ['team1'] });
    await waitForCsv(admin, 'team1', 'pgpilot.v1.4.0');
  });

  const params = { namespace: 'team1', name: 'pgpilot' };
  const read = (user = 'admin') =>
    sb.call<OperatorConfigView>(GET, '/api/subscriptions/team1/pgpilot/config', { user, params });
  const put = (body: unknown, user = 'admin') =>
    sb.call<{
      changed?: boolean;
      error?: { code: number; message: string; details?: { problems?: { field: string }[] } };
    }>(PUT, '/api/subscriptions/team1/pgpilot/config', { method: 'PUT', user, body, params });

  test('no config yet: the Deployment as the bundle has it', async () => {
    const { status, body } = await read();
    assert.equal(status, 200);
    assert.equal(body.config, undefined);
    assert.equal(body.openshift, false);
    assert.equal(body.deployments?.length, 1);
    assert.deepEqual(body.deployments![0]!.containers[0]!.resources, { requests: { cpu: '50m', memory: '64Mi' } });
  });

  test('a config saved is written into the Deployment by OLM', async () => {
    const config: SubscriptionConfig = {
      nodeSelector: { 'node-role.kubernetes.io/infra': '' },
      resources: { limits: { memory: '256Mi' } },
      env: [{ name: 'LOG_LEVEL', value: 'debug' }],
    };
    const res = await put({ config, seen: null });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.changed, true);
    const view = await waitFor('the Deployment written again', async () => {
      const v = (await read()).body;
      return v.deployments?.[0]?.nodeSelector ? v : undefined;
    });
    assert.deepEqual(view.config, config);
    assert.deepEqual(view.deployments![0]!.containers[0]!.resources, { limits: { memory: '256Mi' } });
    assert.deepEqual(
      view.deployments![0]!.containers[0]!.env.map((e) => e.name),
      ['LOG_LEVEL', 'OPERATOR_CONDITION_NAME'],
    );
  });

  test('a stale view is refused with 409, and nothing is written', async () => {
    const res = await put({ config: { nodeSelector: { zone: 'a' } }, seen: null });
    assert.equal(res.status, 409);
    assert.match(res.body.error!.message, /was changed meanwhile; reload it/);
    const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'team1');
    assert.deepEqual((sub.spec.config as SubscriptionConfig).nodeSelector, { 'node-role.kubernetes.io/infra': '' });
  });

  test('an invalid config: 400 naming each field', async () => {
    const seen = (await read()).body.config;
    const res = await put({
      config: { resources: { requests: { cpu: '2' }, limits: { cpu: '1' } }, env: [{ name: '9LIVES', value: 'x' }] },
      seen,
    });
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.body.error!.details!.problems!.map((p) => p.field),
      ['resources.requestsCpu', 'env.0.name'],
    );
    const wrongShape = await put({ config: { tolerations: [{ operator: 'Maybe' }] }, seen });
    assert.equal(wrongShape.status, 400);
  });

  test("a viewer reads it but may not change it: the cluster's refusal comes back", async () => {
    const seen = (await read('bob')).body.config;
    assert.ok(seen, 'bob sees the config');
    const res = await put({ config: null, seen }, 'bob');
    assert.equal(res.status, 403);
    assert.match(res.body.error!.message, /forbidden/i);
  });

  test("removing the config gives the bundle's Deployment back", async () => {
    const seen = (await read()).body.config;
    const res = await put({ config: null, seen });
    assert.equal(res.status, 200);
    await waitFor("the bundle's resources back", async () => {
      const d = (await read()).body.deployments?.[0];
      return d &&
        !d.nodeSelector &&
        JSON.stringify(d.containers[0]!.resources) === JSON.stringify({ requests: { cpu: '50m', memory: '64Mi' } })
        ? true
        : undefined;
    });
  });
});
