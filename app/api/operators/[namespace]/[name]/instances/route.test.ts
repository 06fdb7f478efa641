// Operands through the console's routes, against the sandbox: PgPilot in pg with two
// PostgresClusters (one reported Ready by "the operator" through the status subresource, one held
// by a finalizer), read through the CSV's descriptors, and deleted as the person.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { OperandDetails, OperandList, OperandRow } from '@/lib/api/operands';
import type { KubeClient } from '@/lib/k8s/client';
import { subscribe, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';

const PG = {
  group: 'pgpilot.example.com',
  version: 'v1',
  plural: 'postgresclusters',
  namespaced: true,
  kind: 'PostgresCluster',
};
const EVENTS = { group: '', version: 'v1', plural: 'events', namespaced: true, kind: 'Event' };
type ErrorBody = { error: { code: number; message: string } };

describe('operands: /api/operators/<ns>/<csv>/instances', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let kube: KubeClient;
  let LIST: Handler;
  let GET: Handler;
  let DELETE: Handler;

  before(async () => {
    kube = sb.admin;
    await subscribe(kube, { namespace: 'pg', package: 'pgpilot', channel: 'stable', targets: ['pg'] });
    await waitForCsv(kube, 'pg', 'pgpilot.v1.4.0');
    const main = await kube.create<{
      apiVersion?: string;
      kind?: string;
      spec?: unknown;
      metadata?: { name?: string; namespace?: string; resourceVersion?: string };
    }>(
      PG,
      {
        apiVersion: 'pgpilot.example.com/v1',
        kind: 'PostgresCluster',
        metadata: { name: 'main', namespace: 'pg' },
        spec: { instances: 3, version: '16' },
      },
      { namespace: 'pg' },
    );
    await kube.replace(
      PG,
      {
        ...main,
        apiVersion: 'pgpilot.example.com/v1',
        kind: 'PostgresCluster',
        metadata: { ...main.metadata, name: 'main', namespace: 'pg' },
        status: {
          phase: 'Running',
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              reason: 'AllReplicasReady',
              message: '3 of 3 ready',
              lastTransitionTime: '2026-01-01T00:00:00Z',
            },
          ],
          connectionSecret: 'main-app',
          dashboard: 'https://grafana.example.com/d/pg',
        },
      },
      'status',
    );
    await kube.create(
      PG,
      {
        apiVersion: 'pgpilot.example.com/v1',
        kind: 'PostgresCluster',
        metadata: { name: 'held', namespace: 'pg', finalizers: ['pgpilot.example.com/backup'] },
        spec: { instances: 1 },
      },
      { namespace: 'pg' },
    );
    await kube.create(
      EVENTS,
      {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'main.1', namespace: 'pg' },
        involvedObject: {
          apiVersion: 'pgpilot.example.com/v1',
          kind: 'PostgresCluster',
          name: 'main',
          namespace: 'pg',
        },
        type: 'Normal',
        reason: 'PrimaryElected',
        message: 'main-0 is the primary',
        count: 1,
        lastTimestamp: '2026-01-01T00:00:00Z',
      },
      { namespace: 'pg' },
    );
    ({ GET: LIST } = await import('./route'));
    ({ GET, DELETE } = await import('./[group]/[version]/[plural]/[instanceNamespace]/[instance]/route'));
  });

  const params = (instance: string, plural = 'postgresclusters') => ({
    params: Promise.resolve({
      namespace: 'pg',
      name: 'pgpilot.v1.4.0',
      group: 'pgpilot.example.com',
      version: 'v1',
      plural,
      instanceNamespace: 'pg',
      instance,
    }),
  });
  const path = (instance: string) =>
    `/api/operators/pg/pgpilot.v1.4.0/instances/pgpilot.example.com/v1/postgresclusters/pg/${instance}`;
  const json = async <T>(res: Response) => ({ status: res.status, body: (await res.json()) as T & ErrorBody });

  test('every instance of each owned API in the watched namespace, with its state', async () => {
    const { status, body } = await json<OperandList>(
      await LIST(sb.request('/api/operators/pg/pgpilot.v1.4.0/instances'), {
        params: Promise.resolve({ namespace: 'pg', name: 'pgpilot.v1.4.0' }),
      }),
    );
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.scope, 'pg');
    assert.deepEqual(
      body.apis.map((a) => [a.kind, a.total]),
      [
        ['PostgresCluster', 2],
        ['PostgresBackup', 0],
      ],
    );
    const pg = body.apis[0]!;
    assert.deepEqual(
      pg.items.map((i) => [i.name, i.state.label]),
      [
        ['held', 'Unknown'],
        ['main', 'Ready'],
      ],
    );
  });

  test('one instance: spec and status through the descriptors, conditions, events', async () => {
    const { status, body } = await json<OperandDetails>(await GET(sb.request(path('main')), params('main')));
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.state, { label: 'Ready', tone: 'ok', detail: 'AllReplicasReady: 3 of 3 ready' });
    assert.deepEqual(
      body.spec.map((r) => [r.displayName, r.missing ? undefined : r.view]),
      [
        ['Instances', { kind: 'value', value: 3 }],
        ['PostgreSQL version', { kind: 'value', value: '16' }],
        ['Backups', undefined],
      ],
    );
    const byName = Object.fromEntries(body.status.map((r) => [r.displayName, r.view]));
    assert.deepEqual(byName['Connection secret'], { kind: 'resource', resource: 'Secret', name: 'main-app' });
    assert.deepEqual(byName.Dashboard, { kind: 'link', url: 'https://grafana.example.com/d/pg' });
    assert.equal(body.conditions[0]?.type, 'Ready');
    assert.deepEqual(
      body.events.map((e) => e.reason),
      ['PrimaryElected'],
    );
    assert.equal(body.canDelete.allowed, true);
  });

  test('an API the operator does not own is a 404; a person who may not list is told', async () => {
    const other = await json(await GET(sb.request('/x'), params('main', 'deployments')));
    assert.equal(other.status, 404);
    assert.match(
      other.body.error.message,
      /deployments\.pgpilot\.example\.com\/v1 is not an API pgpilot\.v1\.4\.0 provides/,
    );
    const alice = await json<OperandList>(
      await LIST(sb.request('/x', { user: 'alice' }), {
        params: Promise.resolve({ namespace: 'pg', name: 'pgpilot.v1.4.0' }),
      }),
    );
    assert.equal(alice.status, 403, 'alice may not even read the CSV in pg');
  });

  test('deleting: a finalizer holds it and says so; once removed, it is gone', async () => {
    const del = await json<OperandRow>(await DELETE(sb.request(path('held'), { method: 'DELETE' }), params('held')));
    assert.equal(del.status, 200, JSON.stringify(del.body));
    assert.deepEqual(del.body.deleting?.finalizers, ['pgpilot.example.com/backup']);
    await kube.patch(PG, 'held', { metadata: { finalizers: null } }, { namespace: 'pg', type: 'merge' });
    const gone = await json(await GET(sb.request(path('held')), params('held')));
    assert.equal(gone.status, 404);
    const viewer = await json(
      await DELETE(sb.request(path('main'), { user: 'bob', method: 'DELETE' }), params('main')),
    );
    assert.equal(viewer.status, 403);
  });
});
