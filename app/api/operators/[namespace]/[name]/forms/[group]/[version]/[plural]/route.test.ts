// The create form's sources, and creating from the form, against a sandbox serving a real catalog
// (okderators): local-storage-operator's bundle carries its LocalVolume CRD inline, so OLM creates
// it with its real schema, and the route reads that schema back as the person. loki-operator
// (same catalog) watches every namespace: alice, admin of team1 only, builds its form from OLM's
// copy in team1 and creates there, though she may not read the operator's own CSV.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { OperandFormSource } from '@/lib/api/operand-form';
import { clientAs, subscribe, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';
import { needsSharedCatalogs, sharedCatalog } from '@/lib/testing/shared-catalogs';

const CATALOG = sharedCatalog('okderators');
const CSV = 'local-storage-operator.v4.15.0-2024-04-16-164915';
const LV = {
  group: 'local.storage.openshift.io',
  version: 'v1',
  plural: 'localvolumes',
  namespaced: true,
  kind: 'LocalVolume',
};
const LOKI_CSV = 'loki-operator.v5.9.0-2024-05-06-220335';
const LOKI = { group: 'loki.grafana.com', version: 'v1', plural: 'lokistacks', namespaced: true, kind: 'LokiStack' };

describe("the create form of an operator's API", needsSharedCatalogs, () => {
  const sb = routeSandbox({ deploymentDelayMs: 0, catalogs: [CATALOG] });
  let GET: Handler;
  let POST: Handler;
  before(async () => {
    ({ GET } = await import('./route'));
    ({ POST } = await import('../../../../../../../operands/[namespace]/route'));
    const admin = sb.admin;
    await subscribe(admin, {
      namespace: 'lso',
      package: 'local-storage-operator',
      channel: 'alpha',
      source: 'okderators',
      targets: ['lso'],
    });
    await waitForCsv(admin, 'lso', CSV);
    await subscribe(admin, {
      namespace: 'operators',
      package: 'loki-operator',
      channel: 'alpha',
      source: 'okderators',
    });
    await waitForCsv(admin, 'operators', LOKI_CSV);
    await waitForCsv(admin, 'team1', LOKI_CSV);
  });

  const get = (plural: string, user = 'admin') => {
    const params = { namespace: 'lso', name: CSV, group: 'local.storage.openshift.io', version: 'v1', plural };
    return sb.call<OperandFormSource & { error?: { message: string } }>(
      GET,
      `/api/operators/lso/${CSV}/forms/local.storage.openshift.io/v1/${plural}`,
      { user, params },
    );
  };
  const post = (object: unknown, user = 'admin') =>
    sb.call<{
      metadata?: { name?: string };
      error?: { code: number; reason: string; message: string; details?: { causes?: { field?: string }[] } };
    }>(POST, '/api/operands/lso', { method: 'POST', user, body: { csv: CSV, object }, params: { namespace: 'lso' } });

  test("the CRD's schema as the bundle carries it, with the CSV's descriptors", async () => {
    const r = await get('localvolumes');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.api.displayName, 'Local Volume');
    const spec = (
      r.body.schema as {
        properties: {
          spec: { properties: Record<string, { type?: string; pattern?: string; items?: { required?: string[] } }> };
        };
      }
    ).properties.spec.properties;
    // local-storage-operator's localvolumes CRD: managementState has a pattern, storageClassDevices' items require storageClassName.
    assert.equal(spec.managementState?.pattern, '^(Managed|Unmanaged|Force|Removed)$');
    assert.deepEqual(spec.storageClassDevices?.items?.required, ['storageClassName']);
    assert.deepEqual(
      (r.body.specDescriptors as { path: string }[]).map((d) => d.path),
      ['managementState', 'logLevel', 'nodeSelector', 'storageClassDevices'],
    );
    // Where an instance can go: the CRD is namespaced and the operator watches lso only.
    assert.deepEqual(
      [r.body.namespaced, r.body.operatorNamespace, r.body.watched],
      [true, 'lso', { all: false, namespaces: ['lso'] }],
    );
  });

  test('an API the operator does not own is not served', async () => {
    const r = await get('widgets');
    assert.equal(r.status, 404);
    assert.match(r.body.error!.message, /widgets\.local\.storage\.openshift\.io\/v1 is not an API/);
  });

  test("created as the person after a dry run; the API server's causes come back with their fields", async () => {
    // Broken twice against the CRD: a managementState its pattern refuses, a device without the
    // storageClassName its items require. The dry run refuses it, so nothing is stored.
    const bad = await post({
      apiVersion: 'local.storage.openshift.io/v1',
      kind: 'LocalVolume',
      metadata: { name: 'disks' },
      spec: { managementState: 'Sometimes', storageClassDevices: [{ devicePaths: ['/dev/vdb'] }] },
    });
    assert.equal(bad.status, 422, JSON.stringify(bad.body));
    assert.equal(bad.body.error?.reason, 'Invalid');
    assert.deepEqual(
      bad.body.error?.details?.causes?.map((c) => c.field),
      ['spec.managementState', 'spec.storageClassDevices[0].storageClassName'],
    );
    await assert.rejects(clientAs(sb, 'admin').get(LV, 'disks', 'lso'), /not found/);
    const good = await post({
      apiVersion: 'local.storage.openshift.io/v1',
      kind: 'LocalVolume',
      metadata: { name: 'disks' },
      spec: { storageClassDevices: [{ storageClassName: 'local-sc', devicePaths: ['/dev/vdb'] }] },
    });
    assert.equal(good.status, 201, JSON.stringify(good.body));
    const stored = await clientAs(sb, 'admin').get<{ spec?: unknown }>(LV, 'disks', 'lso');
    assert.deepEqual(stored.spec, {
      storageClassDevices: [{ storageClassName: 'local-sc', devicePaths: ['/dev/vdb'] }],
    });
    const viewer = await post(
      { apiVersion: 'local.storage.openshift.io/v1', kind: 'LocalVolume', metadata: { name: 'mine' } },
      'bob',
    );
    assert.equal(viewer.status, 403);
  });

  test("a namespace admin who may read only OLM's copy builds the form from it and creates in that namespace", async () => {
    const path = `/api/operators/team1/${LOKI_CSV}/forms/loki.grafana.com/v1/lokistacks`;
    const form = await sb.call<OperandFormSource>(GET, path, {
      user: 'alice',
      params: { namespace: 'team1', name: LOKI_CSV, group: 'loki.grafana.com', version: 'v1', plural: 'lokistacks' },
    });
    assert.equal(form.status, 200, JSON.stringify(form.body));
    assert.deepEqual(
      [form.body.operatorNamespace, form.body.watched, form.body.copyOnly],
      ['operators', { all: false, namespaces: ['team1'] }, true],
    );
    assert.ok(
      (form.body.specDescriptors as { path: string }[]).some((d) => d.path === 'storage.secret.name'),
      "the copy carries the operator's descriptors",
    );
    const admin = await sb.call<OperandFormSource>(GET, path.replace('team1', 'operators'), {
      user: 'admin',
      params: {
        namespace: 'operators',
        name: LOKI_CSV,
        group: 'loki.grafana.com',
        version: 'v1',
        plural: 'lokistacks',
      },
    });
    assert.deepEqual(
      [admin.body.watched, admin.body.copyOnly],
      [{ all: true }, undefined],
      "an administrator reads the operator's own CSV",
    );

    // The example leaves out the secret's type, which the CRD requires (the form asks for it).
    const example = form.body.example as { spec: { storage: { secret: Record<string, unknown> } } };
    const object = {
      ...example,
      metadata: { name: 'team-logs', namespace: 'team1' },
      spec: {
        ...example.spec,
        storage: { ...example.spec.storage, secret: { ...example.spec.storage.secret, type: 's3' } },
      },
    };
    const create = (namespace: string) =>
      sb.call<{ error?: { code: number; message: string } }>(POST, `/api/operands/${namespace}`, {
        method: 'POST',
        user: 'alice',
        body: {
          csv: LOKI_CSV,
          operatorNamespace: 'operators',
          object: { ...object, metadata: { ...object.metadata, namespace } },
        },
        params: { namespace },
      });
    const created = await create('team1');
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(
      (await clientAs(sb, 'admin').get<{ metadata?: { name?: string } }>(LOKI, 'team-logs', 'team1')).metadata?.name,
      'team-logs',
    );
    // Elsewhere neither the operator's CSV nor a copy is hers to read: the API server's refusal.
    const elsewhere = await create('team2');
    assert.equal(elsewhere.status, 403, JSON.stringify(elsewhere.body));
    assert.match(elsewhere.body.error!.message, /clusterserviceversions/);
  });
});
