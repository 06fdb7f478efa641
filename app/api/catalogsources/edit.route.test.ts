// Adding, editing and deleting a catalog through the console's routes, against a sandbox that can
// "pull" one image (--catalog-image): the plan names the exact object and what OLM does, the
// write is the person's (bob, a viewer, is refused with the cluster's reason), an edit made on a
// stale resourceVersion is a 409, and the catalog's packages come and go. Checked with the
// Kubernetes API.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CatalogSourceApplied, CatalogSourcePlan, CatalogSourcesResponse } from '@/lib/api/catalog-sources';
import type { KubeClient } from '@/lib/k8s/client';
import { isKubeError } from '@/lib/k8s/errors';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '@/lib/olm/resources/catalog-source';
import { writeFixtureCatalog } from '@/lib/sandbox/testing/fbc-fixture';
import { subscribe, waitFor } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody } from '@/lib/server/testing/route-sandbox';

type Params = { params: Promise<{ namespace: string; name: string }> };
type Handler = (req: Request, ctx: Params) => Promise<Response>;
const IMAGE = 'quay.example.com/acme/catalog:latest';

describe('catalog sources: add, edit, delete', () => {
  const root = mkdtempSync(join(tmpdir(), 'olm-console-catalog-edit-'));
  writeFixtureCatalog(join(root, 'acme'), [{ name: 'anvil', bundles: [{ version: '1.0.0' }] }]);
  const sb = routeSandbox({ deploymentDelayMs: 0, catalogImages: { [IMAGE]: join(root, 'acme') } });
  let kube: KubeClient;
  let GET: (req: Request) => Promise<Response>,
    POST: (req: Request) => Promise<Response>,
    PLAN: (req: Request) => Promise<Response>,
    PUT: Handler,
    DELETE: Handler;

  before(async () => {
    kube = sb.admin;
    ({ GET, POST } = await import('./route'));
    ({ POST: PLAN } = await import('./plan/route'));
    ({ PUT, DELETE } = await import('./[namespace]/[name]/route'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const call = <T>(
    handler: Handler | ((req: Request) => Promise<Response>),
    path: string,
    method: string,
    body?: unknown,
    user = 'admin',
    params: { namespace: string; name: string } = { namespace: '', name: '' },
  ) => sb.call<T & ErrorBody>(handler, path, { method, user, body, params });
  const list = async (user = 'admin') =>
    (await call<CatalogSourcesResponse>(GET, '/api/catalogsources', 'GET', undefined, user)).body;
  const source = { image: IMAGE, displayName: 'Acme', publisher: 'Acme Corp', priority: 5, pollInterval: '10m' };

  test('the plan of a new catalog is the exact CatalogSource, and creating it serves its packages', async () => {
    const view = await list();
    assert.deepEqual(view.globalNamespaces, ['olm']);
    assert.equal(view.canCreate.allowed, true);
    const plan = await call<CatalogSourcePlan>(PLAN, '/api/catalogsources/plan', 'POST', {
      action: 'create',
      namespace: 'olm',
      name: 'acme',
      source,
    });
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    assert.deepEqual(plan.body.object?.spec, {
      sourceType: 'grpc',
      image: IMAGE,
      displayName: 'Acme',
      publisher: 'Acme Corp',
      priority: 5,
      updateStrategy: { registryPoll: { interval: '10m' } },
    });
    assert.ok(plan.body.warnings.some((w) => /every namespace can install from it/.test(w)));
    const made = await call<CatalogSourceApplied>(POST, '/api/catalogsources', 'POST', {
      namespace: 'olm',
      name: 'acme',
      source,
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const row = await waitFor('acme READY with its package', async () =>
      (await list()).catalogSources.find((c) => c.name === 'acme' && c.health.healthy && c.packages.includes('anvil')),
    );
    assert.equal(row.publisher, 'Acme Corp');
    assert.deepEqual(row.form, source);
    assert.equal(row.canEdit.allowed, true);
  });

  test("bad input is a 400 naming the field; a viewer is refused with the cluster's reason", async () => {
    const bad = await call<CatalogSourcePlan>(PLAN, '/api/catalogsources/plan', 'POST', {
      action: 'create',
      namespace: 'olm',
      name: '1acme',
      source: { ...source, image: 'https://quay.io/x', pollInterval: '10 minutes' },
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /name: must start with a letter/);
    const badForm = await call<CatalogSourcePlan>(PLAN, '/api/catalogsources/plan', 'POST', {
      action: 'create',
      namespace: 'olm',
      name: 'acme2',
      source: { ...source, image: 'https://quay.io/x', pollInterval: '10 minutes' },
    });
    assert.equal(badForm.status, 400);
    assert.match(
      badForm.body.error.message,
      /source\.image: https:\/\/quay\.io\/x is not an image reference.*source\.pollInterval: OLM reads it as a Go duration/,
    );
    const viewer = await list('bob');
    assert.equal(viewer.canCreate.allowed, false);
    assert.equal(viewer.catalogSources.find((c) => c.name === 'acme')?.canDelete.allowed, false);
    const refused = await call<CatalogSourceApplied>(
      POST,
      '/api/catalogsources',
      'POST',
      { namespace: 'olm', name: 'bobs', source },
      'bob',
    );
    assert.equal(refused.status, 403);
    assert.match(refused.body.error.message, /User "bob" cannot create resource "catalogsources"/);
  });

  test("an edit changes only the form's fields, and a stale one is a 409", async () => {
    const row = (await list()).catalogSources.find((c) => c.name === 'acme')!;
    await kube.patch(
      CATALOG_SOURCE_TYPE,
      'acme',
      { spec: { secrets: ['pull-secret'] } },
      { namespace: 'olm', type: 'merge' },
    );
    const stale = await call<CatalogSourceApplied>(
      PUT,
      '/api/catalogsources/olm/acme',
      'PUT',
      { source: { ...source, priority: 50 }, seen: String(row.generation) },
      'admin',
      { namespace: 'olm', name: 'acme' },
    );
    assert.equal(stale.status, 409);
    assert.match(stale.body.error.message, /was changed since you looked/);
    const fresh = (await list()).catalogSources.find((c) => c.name === 'acme')!;
    const plan = await call<CatalogSourcePlan>(PLAN, '/api/catalogsources/plan', 'POST', {
      action: 'update',
      namespace: 'olm',
      name: 'acme',
      source: { ...source, priority: 50 },
      seen: String(fresh.generation),
    });
    assert.deepEqual(plan.body.changes, [{ field: 'spec.priority', from: 5, to: 50 }]);
    // OLM writes status all the time (polls, health): that is no one's edit, and no conflict.
    const now = await kube.get<CatalogSource>(CATALOG_SOURCE_TYPE, 'acme', 'olm');
    await kube.replace(
      CATALOG_SOURCE_TYPE,
      { ...now, status: { ...now.status, message: 'a status write in between' } },
      'status',
    );
    const done = await call<CatalogSourceApplied>(
      PUT,
      '/api/catalogsources/olm/acme',
      'PUT',
      { source: { ...source, priority: 50 }, seen: String(fresh.generation) },
      'admin',
      { namespace: 'olm', name: 'acme' },
    );
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const cs = await kube.get<CatalogSource>(CATALOG_SOURCE_TYPE, 'acme', 'olm');
    assert.equal(cs.spec.priority, 50);
    assert.deepEqual(cs.spec.secrets, ['pull-secret'], 'a field the form does not show is kept');
  });

  test('deleting names the Subscriptions that install from it; after it, the catalog is gone', async () => {
    await subscribe(kube, {
      namespace: 'anvil-ops',
      package: 'anvil',
      channel: 'stable',
      source: 'acme',
      targets: ['anvil-ops'],
    });
    const row = (await list()).catalogSources.find((c) => c.name === 'acme')!;
    const plan = await call<CatalogSourcePlan>(PLAN, '/api/catalogsources/plan', 'POST', {
      action: 'delete',
      namespace: 'olm',
      name: 'acme',
      seen: String(row.generation),
    });
    assert.deepEqual(
      plan.body.subscriptions.map((s) => `${s.namespace}/${s.name}`),
      ['anvil-ops/anvil'],
    );
    assert.ok(plan.body.warnings.some((w) => /keep running, but OLM can no longer upgrade them/.test(w)));
    const gone = await call<CatalogSourceApplied>(
      DELETE,
      `/api/catalogsources/olm/acme?seen=${row.generation}`,
      'DELETE',
      undefined,
      'admin',
      { namespace: 'olm', name: 'acme' },
    );
    assert.equal(gone.status, 200, JSON.stringify(gone.body));
    await waitFor('deleted', async () => {
      try {
        await kube.get(CATALOG_SOURCE_TYPE, 'acme', 'olm');
        return undefined;
      } catch (err) {
        return isKubeError(err, 404) ? true : undefined;
      }
    });
    const missing = await call<CatalogSourceApplied>(
      DELETE,
      '/api/catalogsources/olm/acme?seen=1',
      'DELETE',
      undefined,
      'admin',
      { namespace: 'olm', name: 'acme' },
    );
    assert.equal(missing.status, 404);
  });
});
