// OLMConfig disableCopiedCSVs through the routes, against the sandbox: the setting, its condition
// and the effect counted before switching (copies of all-namespaces operators go, those of
// operators watching chosen namespaces stay; switched back, they come back, as many as said), who
// may switch it (admin; not alice or bob, with the reason), a switch by someone else since the
// person looked, and bad bodies.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import { CSV_TYPE, type ClusterServiceVersion } from '@/lib/olm/resources/cluster-service-version';
import { OLM_CONFIG_TYPE, type OLMConfig } from '@/lib/olm/resources/olm-config';
import type { OlmConfigApplied, OlmConfigPlan, OlmConfigView } from '@/lib/api/olm-config';
import { NAMESPACE_TYPE } from '@/lib/server/install';
import { ensureNamespace, subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody } from '@/lib/server/testing/route-sandbox';

describe('/api/olmconfig', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let GET: (req: Request) => Promise<Response>;
  let PATCH: (req: Request) => Promise<Response>;
  let PLAN: (req: Request) => Promise<Response>;
  let admin: KubeClient;
  let namespaces: number;

  const copiesOf = async (name: string) =>
    (await admin.listAll<ClusterServiceVersion>(CSV_TYPE, { labelSelector: 'olm.copiedFrom' })).items.filter(
      (c) => c.metadata?.name === name,
    ).length;
  const condition = async () =>
    (await admin.get<OLMConfig>(OLM_CONFIG_TYPE, 'cluster')).status?.conditions?.find(
      (c) => c.type === 'DisabledCopiedCSVs',
    );

  before(async () => {
    ({ GET, PATCH } = await import('./route'));
    ({ POST: PLAN } = await import('./plan/route'));
    admin = sb.admin;
    await ensureNamespace(admin, 'team1');
    await subscribe(admin, { namespace: 'operators', package: 'certwarden', channel: 'stable' });
    await subscribe(admin, { namespace: 'pg', package: 'pgpilot', channel: 'stable', targets: ['pg', 'team1'] });
    await waitForCsv(admin, 'pg', 'pgpilot.v1.4.0');
    const cert = await waitFor(
      'certwarden installed',
      async () =>
        (await admin.listAll<ClusterServiceVersion>(CSV_TYPE, { namespace: 'operators' })).items.find(
          (c) => c.spec.displayName === 'CertWarden' || c.metadata?.name?.startsWith('certwarden'),
        )?.metadata?.name,
    );
    await waitForCsv(admin, 'operators', cert);
    namespaces = (await admin.listAll(NAMESPACE_TYPE)).items.length;
    await waitFor('certwarden copied everywhere', async () =>
      (await copiesOf(cert)) === namespaces - 1 ? true : undefined,
    );
    await waitFor('pgpilot copied into team1', async () =>
      (await copiesOf('pgpilot.v1.4.0')) === 1 ? true : undefined,
    );
  });

  const get = (user = 'admin') => sb.call<OlmConfigView & ErrorBody>(GET, '/api/olmconfig', { user });
  const send = <T>(
    handler: (req: Request) => Promise<Response>,
    body: unknown,
    user = 'admin',
    opts: { csrf?: null } = {},
  ) =>
    sb.call<T & ErrorBody>(handler, handler === PLAN ? '/api/olmconfig/plan' : '/api/olmconfig', {
      method: handler === PLAN ? 'POST' : 'PATCH',
      user,
      body,
      ...opts,
    });

  test('GET: the setting, its condition in words, and what turning copies off would remove', async () => {
    const { status, body } = await get();
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.state, 'present');
    assert.equal(body.disableCopiedCSVs, false);
    assert.equal(body.condition?.reason, 'CopiedCSVsEnabled');
    assert.equal(body.explanation.state, 'enabled');
    assert.equal(body.effect?.disableCopiedCSVs, true);
    assert.equal(body.effect?.removes, namespaces - 1, 'every copy of CertWarden');
    assert.equal(body.effect?.unaffected, 1, 'PgPilot watches pg and team1: its copy stays');
    assert.deepEqual(
      body.effect?.operators.map((o) => o.namespace),
      ['operators'],
    );
    assert.deepEqual(body.canChange, { allowed: true });
  });

  test("alice and bob may not switch it, and are told why; bob's write is refused by the cluster", async () => {
    for (const user of ['alice', 'bob']) {
      const { status, body } = await get(user);
      assert.equal(status, 200);
      assert.equal(body.canChange.allowed, false);
      assert.match(body.canChange.reason ?? '', /^you may not \w+ olmconfigs\b/);
      assert.equal(body.state, 'forbidden', "OLM's aggregated roles give no read of OLMConfig");
      assert.equal(body.effect, undefined, 'no effect said without the current setting');
      assert.match(body.effectProblem ?? '', /cannot be said/);
    }
    const denied = await send(PATCH, { disableCopiedCSVs: true, seen: false }, 'bob');
    assert.equal(denied.status, 403);
    assert.equal((await admin.get<OLMConfig>(OLM_CONFIG_TYPE, 'cluster')).spec?.features?.disableCopiedCSVs, undefined);
  });

  test('plan: the exact change and its effect; nothing written', async () => {
    const before = await admin.get<OLMConfig>(OLM_CONFIG_TYPE, 'cluster');
    const { status, body } = await send<OlmConfigPlan>(PLAN, { disableCopiedCSVs: true });
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.change, { spec: { features: { disableCopiedCSVs: true } } });
    assert.equal(body.effect?.removes, namespaces - 1);
    assert.match(body.warnings.join(' '), /keep watching every namespace/);
    assert.equal(
      (await admin.get<OLMConfig>(OLM_CONFIG_TYPE, 'cluster')).metadata?.resourceVersion,
      before.metadata?.resourceVersion,
    );
  });

  test('off, then on again: the copies go and come back as counted; the condition follows', async () => {
    const off = await send<OlmConfigApplied>(PATCH, { disableCopiedCSVs: true, seen: false });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal((await admin.get<OLMConfig>(OLM_CONFIG_TYPE, 'cluster')).spec?.features?.disableCopiedCSVs, true);
    await waitFor('DisabledCopiedCSVs=True', async () => ((await condition())?.status === 'True' ? true : undefined));
    assert.equal((await condition())?.reason, 'CopiedCSVsDisabled');
    assert.equal(await copiesOf('pgpilot.v1.4.0'), 1, 'the copy of an operator watching chosen namespaces stays');

    const now = await get();
    assert.equal(now.body.disableCopiedCSVs, true);
    assert.equal(now.body.explanation.state, 'disabled');
    assert.equal(now.body.effect?.present, 1);
    assert.equal(now.body.effect?.restores, namespaces - 1, 'CertWarden into every other namespace');

    const stale = await send(PATCH, { disableCopiedCSVs: true, seen: false });
    assert.equal(stale.status, 409);
    assert.match(stale.body.error.message, /disableCopiedCSVs is now true, you saw false/);

    const on = await send<OlmConfigApplied>(PATCH, { disableCopiedCSVs: false, seen: true });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    const cert = now.body.effect!.operators[0]!.name;
    await waitFor('the copies come back', async () =>
      (await copiesOf(cert)) === now.body.effect!.restores ? true : undefined,
    );
    await waitFor('DisabledCopiedCSVs=False/CopiedCSVsEnabled', async () =>
      (await condition())?.reason === 'CopiedCSVsEnabled' ? true : undefined,
    );
  });

  test('the DisabledCopiedCSVs events OLM records on each operator are listed', async () => {
    // Written as OLM's olm-operator writes it (syncCopyCSV); the sandbox does not record it yet.
    await admin.create(
      { group: '', version: 'v1', plural: 'events', namespaced: true, kind: 'Event' },
      {
        metadata: { name: 'certwarden.disabled', namespace: 'operators' },
        involvedObject: {
          kind: 'ClusterServiceVersion',
          namespace: 'operators',
          name: 'certwarden.v2.0.0',
          apiVersion: 'operators.coreos.com/v1alpha1',
        },
        reason: 'DisabledCopiedCSVs',
        type: 'Warning',
        message: 'CSV copying disabled for operators/certwarden.v2.0.0',
        lastTimestamp: '2026-01-01T00:00:00Z',
      },
    );
    const { body } = await get();
    assert.equal(body.events?.count, 1);
    assert.deepEqual(body.events?.items[0], {
      namespace: 'operators',
      csv: 'certwarden.v2.0.0',
      type: 'Warning',
      message: 'CSV copying disabled for operators/certwarden.v2.0.0',
      lastTimestamp: '2026-01-01T00:00:00Z',
    });
  });

  test('bad bodies are 400s naming the field; a write without the CSRF token is refused', async () => {
    const bad = async (body: unknown, field: RegExp) => {
      const r = await send(PATCH, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.body.error.message, field);
    };
    await bad({ disableCopiedCSVs: 'yes', seen: false }, /^disableCopiedCSVs: must be true/);
    await bad({ disableCopiedCSVs: true }, /^seen: say which value you saw/);
    await bad({ disableCopiedCSVs: true, seen: false, resourceVersion: '1' }, /resourceVersion/);
    const plan = await send(PLAN, {});
    assert.equal(plan.status, 400);
    const csrf = await send(PATCH, { disableCopiedCSVs: true, seen: false }, 'admin', { csrf: null });
    assert.equal(csrf.status, 403);
  });
});
