// An operator whose API is cluster-scoped (its CRD says `scope: Cluster`), through the console's
// routes against the sandbox: the create route makes the instance without a namespace, the
// Instances list finds it although the operator watches only its own namespace, its page is at
// `_cluster`, its events come from `default`, the create form knows there is no namespace to
// choose, the uninstall preview counts it, and a delete removes it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { OperandFormSource } from '@/lib/api/operand-form';
import type { OperandDetails, OperandList } from '@/lib/api/operands';
import type { UninstallPreview } from '@/lib/api/operators';
import type { KubeClient } from '@/lib/k8s/client';
import { OPERATOR_GROUP_TYPE } from '@/lib/olm/resources/operator-group';
import { SUBSCRIPTION_TYPE } from '@/lib/olm/resources/subscription';
import { writeFixtureCatalog } from '@/lib/sandbox/testing/fbc-fixture';
import { ensureNamespace, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

const FLEET = { group: 'fleetwarden.example.com', version: 'v1', plural: 'fleets', namespaced: false, kind: 'Fleet' };
const EVENTS = { group: '', version: 'v1', plural: 'events', namespaced: true, kind: 'Event' };
const CSV = 'fleetwarden.v1.0.0';

describe('operands of a cluster-scoped API', () => {
  const root = mkdtempSync(join(tmpdir(), 'olm-cluster-scoped-'));
  writeFixtureCatalog(join(root, 'fleets'), [
    { name: 'fleetwarden', kind: 'Fleet', scope: 'Cluster', bundles: [{ version: '1.0.0' }] },
  ]);
  const sb = routeSandbox({ catalogs: [join(root, 'fleets')], demo: false, deploymentDelayMs: 0 });
  let kube: KubeClient;
  let CREATE: Handler;
  let LIST: Handler;
  let GET: Handler;
  let DELETE: Handler;
  let FORM: Handler;
  let UNINSTALL: Handler;

  before(async () => {
    kube = sb.admin;
    await ensureNamespace(kube, 'fw');
    await kube.create(OPERATOR_GROUP_TYPE, {
      metadata: { name: 'fw', namespace: 'fw' },
      spec: { targetNamespaces: ['fw'] },
    });
    await kube.create(SUBSCRIPTION_TYPE, {
      metadata: { name: 'fleetwarden', namespace: 'fw' },
      spec: {
        name: 'fleetwarden',
        source: 'fleets',
        sourceNamespace: 'olm',
        channel: 'stable',
        installPlanApproval: 'Automatic',
      },
    });
    await waitFor(
      'fleetwarden installed',
      async () =>
        (await kube.get<{ status?: { installedCSV?: string } }>(SUBSCRIPTION_TYPE, 'fleetwarden', 'fw')).status
          ?.installedCSV
          ? true
          : undefined,
      30_000,
    );
    await waitForCsv(kube, 'fw', CSV);
    ({ POST: CREATE } = await import('@/app/api/operands/[namespace]/route'));
    ({ GET: LIST } = await import('./route'));
    ({ GET, DELETE } = await import('./[group]/[version]/[plural]/[instanceNamespace]/[instance]/route'));
    ({ GET: FORM } = await import('../forms/[group]/[version]/[plural]/route'));
    ({ POST: UNINSTALL } = await import('../uninstall/plan/route'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const json = async <T>(res: Response) => ({ status: res.status, body: (await res.json()) as T & ErrorBody });
  const admin = (path: string, method = 'GET', body?: unknown) => sb.request(path, { method, body });
  const at = (instanceNamespace: string, instance: string) => ({
    params: Promise.resolve({
      namespace: 'fw',
      name: CSV,
      group: FLEET.group,
      version: 'v1',
      plural: 'fleets',
      instanceNamespace,
      instance,
    }),
  });
  const operator = { params: Promise.resolve({ namespace: 'fw', name: CSV }) };

  test('the create form knows there is no namespace to choose', async () => {
    const { status, body } = await json<OperandFormSource>(
      await FORM(admin('/x'), {
        params: Promise.resolve({ namespace: 'fw', name: CSV, group: FLEET.group, version: 'v1', plural: 'fleets' }),
      }),
    );
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.namespaced, false);
    assert.equal(body.api.namespaced, false);
  });

  test('creating one makes it without a namespace, whatever the request carried', async () => {
    const { status, body } = await json<{ metadata: { name: string; namespace?: string } }>(
      await CREATE(
        admin('/api/operands/fw', 'POST', {
          csv: CSV,
          operatorNamespace: 'fw',
          object: {
            apiVersion: 'fleetwarden.example.com/v1',
            kind: 'Fleet',
            metadata: { name: 'east', namespace: 'fw' },
            spec: { regions: 3 },
          },
        }),
        { params: Promise.resolve({ namespace: 'fw' }) },
      ),
    );
    assert.equal(status, 201, JSON.stringify(body));
    assert.equal(body.metadata.namespace, undefined);
    const stored = await kube.get<{ metadata: { namespace?: string }; spec: { regions: number } }>(FLEET, 'east');
    assert.equal(stored.spec.regions, 3);
    assert.equal(stored.metadata.namespace, undefined);
  });

  test('the Instances list shows it although the operator watches only its namespace', async () => {
    const { status, body } = await json<OperandList>(await LIST(admin(`/api/operators/fw/${CSV}/instances`), operator));
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.scope, 'fw');
    const fleets = body.apis.find((a) => a.kind === 'Fleet');
    assert.equal(fleets?.namespaced, false);
    assert.equal(fleets?.problem, undefined);
    assert.deepEqual(
      fleets?.items.map((i) => [i.name, i.namespace]),
      [['east', undefined]],
    );
  });

  test('its page is at _cluster, with the events recorded about it in default; a namespace there is a 404', async () => {
    await kube.create(
      EVENTS,
      {
        metadata: { name: 'east.1', namespace: 'default' },
        involvedObject: { apiVersion: 'fleetwarden.example.com/v1', kind: 'Fleet', name: 'east' },
        type: 'Normal',
        reason: 'RegionsReady',
        message: '3 of 3 regions up',
        count: 1,
        lastTimestamp: '2026-01-01T00:00:00Z',
      },
      { namespace: 'default' },
    );
    const { status, body } = await json<OperandDetails>(await GET(admin('/x'), at('_cluster', 'east')));
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.object.metadata?.name, 'east');
    assert.deepEqual(
      body.events.map((e) => e.reason),
      ['RegionsReady'],
    );
    assert.equal(body.canDelete.allowed, true);
    const misplaced = await json(await GET(admin('/x'), at('fw', 'east')));
    assert.equal(misplaced.status, 404);
    assert.match(misplaced.body.error.message, /cluster-scoped/);
    const bad = await json(await GET(admin('/x'), at('_elsewhere', 'east')));
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /_cluster for a cluster-scoped instance/);
  });

  test('the uninstall preview counts it among the operands', async () => {
    const { status, body } = await json<UninstallPreview>(await UNINSTALL(admin('/x', 'POST', {}), operator));
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.operands.total, 1);
    assert.deepEqual(body.operands.byNamespace[''], [
      { apiVersion: 'fleetwarden.example.com/v1', kind: 'Fleet', plural: 'fleets', name: 'east' },
    ]);
  });

  test('deleting it at _cluster removes it', async () => {
    const { status, body } = await json<{ gone?: boolean }>(
      await DELETE(admin('/x', 'DELETE'), at('_cluster', 'east')),
    );
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.gone, true);
    const left = await kube.list(FLEET);
    assert.deepEqual(left.items, []);
  });
});
