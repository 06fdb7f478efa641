// The create form's sources, and creating from the form, against a sandbox serving a real catalog
// (okderators): local-storage-operator's bundle carries its LocalVolume CRD inline, so OLM creates
// it with its real schema, and the route reads that schema back as the person.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { OperandFormSource } from '@/lib/api/operand-form';
import { clientAs, subscribe, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';

const CATALOG = join(import.meta.dirname, '..', '..', '..', '..', '..', '..', '..', '..', '..', '..', 'shared', 'catalogs', 'okderators');
const CSV = 'local-storage-operator.v4.15.0-2024-04-16-164915';
const LV = { group: 'local.storage.openshift.io', version: 'v1', plural: 'localvolumes', namespaced: true, kind: 'LocalVolume' };

describe('the create form of an operator\'s API', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0, catalogs: [CATALOG] });
  let GET: Handler;
  let POST: Handler;
  before(async () => {
    ({ GET } = await import('./route'));
    ({ POST } = await import('../../../../../../../operands/[namespace]/route'));
    const admin = sb.admin;
    await subscribe(admin, { namespace: 'lso', package: 'local-storage-operator', channel: 'alpha', source: 'okderators', targets: ['lso'] });
    await waitForCsv(admin, 'lso', CSV);
  });

  const get = (plural: string, user = 'admin') => {
    const params = { namespace: 'lso', name: CSV, group: 'local.storage.openshift.io', version: 'v1', plural };
    return sb.call<OperandFormSource & { error?: { message: string } }>(GET, `/api/operators/lso/${CSV}/forms/local.storage.openshift.io/v1/${plural}`, { user, params });
  };
  const post = (object: unknown, user = 'admin') =>
    sb.call<{ metadata?: { name?: string }; error?: { code: number; reason: string; message: string; details?: { causes?: { field?: string }[] } } }>(POST, '/api/operands/lso', { method: 'POST', user, body: { csv: CSV, object }, params: { namespace: 'lso' } });

  test('the CRD\'s schema as the bundle carries it, with the CSV\'s descriptors', async () => {
    const r = await get('localvolumes');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.api.displayName, 'Local Volume');
    const spec = (r.body.schema as { properties: { spec: { properties: Record<string, { type?: string; pattern?: string; items?: { required?: string[] } }> } } }).properties.spec.properties;
    // local-storage-operator's localvolumes CRD: managementState has a pattern, storageClassDevices' items require storageClassName.
    assert.equal(spec.managementState?.pattern, '^(Managed|Unmanaged|Force|Removed)$');
    assert.deepEqual(spec.storageClassDevices?.items?.required, ['storageClassName']);
    assert.deepEqual((r.body.specDescriptors as { path: string }[]).map((d) => d.path), ['managementState', 'logLevel', 'nodeSelector', 'storageClassDevices']);
    // Where an instance can go: the CRD is namespaced and the operator watches lso only.
    assert.deepEqual([r.body.namespaced, r.body.operatorNamespace, r.body.watched], [true, 'lso', { all: false, namespaces: ['lso'] }]);
  });

  test('an API the operator does not own is not served', async () => {
    const r = await get('widgets');
    assert.equal(r.status, 404);
    assert.match(r.body.error!.message, /widgets\.local\.storage\.openshift\.io\/v1 is not an API/);
  });

  test('created as the person after a dry run; the API server\'s causes come back with their fields', async () => {
    // Broken twice against the CRD: a managementState its pattern refuses, a device without the
    // storageClassName its items require. The dry run refuses it, so nothing is stored.
    const bad = await post({ apiVersion: 'local.storage.openshift.io/v1', kind: 'LocalVolume', metadata: { name: 'disks' }, spec: { managementState: 'Sometimes', storageClassDevices: [{ devicePaths: ['/dev/vdb'] }] } });
    assert.equal(bad.status, 422, JSON.stringify(bad.body));
    assert.equal(bad.body.error?.reason, 'Invalid');
    assert.deepEqual(bad.body.error?.details?.causes?.map((c) => c.field), ['spec.managementState', 'spec.storageClassDevices[0].storageClassName']);
    await assert.rejects(clientAs(sb, 'admin').get(LV, 'disks', 'lso'), /not found/);
    const good = await post({ apiVersion: 'local.storage.openshift.io/v1', kind: 'LocalVolume', metadata: { name: 'disks' }, spec: { storageClassDevices: [{ storageClassName: 'local-sc', devicePaths: ['/dev/vdb'] }] } });
    assert.equal(good.status, 201, JSON.stringify(good.body));
    const stored = await clientAs(sb, 'admin').get<{ spec?: unknown }>(LV, 'disks', 'lso');
    assert.deepEqual(stored.spec, { storageClassDevices: [{ storageClassName: 'local-sc', devicePaths: ['/dev/vdb'] }] });
    const viewer = await post({ apiVersion: 'local.storage.openshift.io/v1', kind: 'LocalVolume', metadata: { name: 'mine' } }, 'bob');
    assert.equal(viewer.status, 403);
  });
});
