// The ClusterCatalog routes against the sandbox's catalogd (v1.2.0's behaviour, checked against the
// real one by `npm run conformance`): the seeded catalog listed Serving with its digest and its
// package count from the content API; disabling and enabling as catalogd words it; priority and
// poll interval within the CRD's limits; an image that does not exist added and failing in
// catalogd's words, then deleted; the API server's own refusals passed on with nothing written;
// who may do what, and the dependents a delete would strand; a status.urls.base anywhere but
// catalogd's own address for that catalog shown unread, and never fetched. Checked with the
// Kubernetes API.
import assert from 'node:assert/strict';
import https from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import { before, describe, test } from 'node:test';
import type { CatalogDependentsResponse, ClusterCatalogRow, ClusterCatalogsResponse } from '@/lib/api/olm-v1-catalogs';
import { isKubeError } from '@/lib/k8s/errors';
import { rbacType } from '@/lib/k8s/core-kinds';
import { waitFor } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';
import { CLUSTER_CATALOG_TYPE, CLUSTER_EXTENSION_TYPE, type ClusterCatalog } from '@/lib/server/olm-v1/resources';

const DEMO = 'olm-console-demo';

function fetchText(url: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      })
      .on('error', reject);
  });
}

describe('ClusterCatalogs through the console, as the person', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let GET: Handler, POST: Handler, PATCH: Handler, DELETE: Handler, DEPENDENTS: Handler;

  before(async () => {
    ({ GET, POST } = (await import('./route')) as unknown as { GET: Handler; POST: Handler });
    ({ PATCH, DELETE } = (await import('./[name]/route')) as unknown as { PATCH: Handler; DELETE: Handler });
    ({ GET: DEPENDENTS } = (await import('./[name]/dependents/route')) as unknown as { GET: Handler });
  });

  const list = async (user = 'admin') =>
    sb.call<ClusterCatalogsResponse & ErrorBody>(GET, '/api/olm-v1/clustercatalogs', { user });
  const rowOf = async (name: string): Promise<ClusterCatalogRow | undefined> => {
    const { body } = await list();
    assert.ok(body.served);
    return body.catalogs.find((c) => c.name === name);
  };
  const patch = (name: string, body: unknown, user = 'admin') =>
    sb.call<ErrorBody & { generation: number }>(PATCH, `/api/olm-v1/clustercatalogs/${name}`, {
      method: 'PATCH',
      user,
      body,
      params: { name },
    });
  const stored = (name: string) => sb.admin.get<ClusterCatalog>(CLUSTER_CATALOG_TYPE, name);

  test("the seeded catalog is Serving in catalogd's words, with its digest and its packages counted", async () => {
    const row = await waitFor('the demo catalog serving', async () => {
      const r = await rowOf(DEMO);
      return r?.state === 'Serving' && r.content.read ? r : undefined;
    });
    assert.equal(row.serving?.reason, 'Available');
    assert.equal(row.serving?.message, 'Serving desired content from resolved source');
    assert.equal(row.progressing?.reason, 'Succeeded');
    assert.equal(row.imageRef, `sandbox.olm-console.dev/catalogs/${DEMO}:latest`);
    assert.match(row.resolvedRef ?? '', /^sandbox\.olm-console\.dev\/catalogs\/olm-console-demo@sha256:[0-9a-f]{64}$/);
    assert.ok(row.lastUnpacked);
    // The count is what catalogd serves: one olm.package document per package.
    const served = await fetchText(`${row.baseUrl}/api/v1/all`, sb.sandbox.caPem);
    const packages = served
      .split('\n')
      .filter((l) => l.trim() && (JSON.parse(l) as { schema?: string }).schema === 'olm.package').length;
    assert.ok(packages > 0);
    assert.deepEqual(row.content, { read: true, packages, brokenPackages: 0, problems: [] });
    assert.equal(row.canEdit.allowed, true);
    assert.equal(row.canDelete.allowed, true);
  });

  test('disabling is catalogd’s UserSpecifiedUnavailable; enabling serves it again', async () => {
    const before = (await rowOf(DEMO))!;
    const off = await patch(DEMO, { seen: before.generation, availabilityMode: 'Unavailable' });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    const disabled = await waitFor('the catalog disabled', async () => {
      const r = await rowOf(DEMO);
      return r?.state === 'Disabled' ? r : undefined;
    });
    assert.equal(disabled.serving?.status, 'False');
    assert.equal(disabled.serving?.message, 'Catalog availability mode is set to Unavailable');
    assert.equal(disabled.resolvedRef, undefined);
    assert.deepEqual(disabled.content, { read: false, why: 'catalogd serves no content for it now' });
    const on = await patch(DEMO, { seen: disabled.generation, availabilityMode: 'Available' });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    await waitFor('the catalog serving again', async () =>
      (await rowOf(DEMO))?.state === 'Serving' ? true : undefined,
    );
  });

  test('priority and poll interval change at the generation seen; a stale one is a 409 that changes nothing', async () => {
    const row = (await rowOf(DEMO))!;
    const ok = await patch(DEMO, { seen: row.generation, priority: -5, pollIntervalMinutes: 30 });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    let cc = await stored(DEMO);
    assert.equal(cc.spec.priority, -5);
    assert.equal(cc.spec.source.image?.pollIntervalMinutes, 30);
    const stale = await patch(DEMO, { seen: row.generation, priority: 9 });
    assert.equal(stale.status, 409);
    assert.match(stale.body.error.message, /changed since you read it/);
    assert.equal((await stored(DEMO)).spec.priority, -5);
    const unset = await patch(DEMO, { seen: ok.body.generation, priority: 0, pollIntervalMinutes: null });
    assert.equal(unset.status, 200, JSON.stringify(unset.body));
    cc = await stored(DEMO);
    assert.equal(cc.spec.priority, 0);
    assert.equal(cc.spec.source.image?.pollIntervalMinutes, undefined);
  });

  test('values outside the CRD’s limits are a 400 naming the field, and nothing changes', async () => {
    const row = (await rowOf(DEMO))!;
    for (const [body, field] of [
      [{ seen: row.generation, pollIntervalMinutes: 0 }, /pollIntervalMinutes: at least 1 minute/],
      [{ seen: row.generation, priority: 2147483648 }, /priority: at most 2147483647/],
      [{ seen: row.generation, priority: 1.5 }, /priority: a whole number/],
      [{ seen: row.generation, availabilityMode: 'Off' }, /availabilityMode: Available or Unavailable/],
      [{ seen: row.generation }, /nothing to change/],
    ] as const) {
      const r = await patch(DEMO, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.body.error.message, field);
    }
    assert.equal((await stored(DEMO)).metadata?.generation, row.generation);
  });

  test('the API server judges a new catalog’s name and image reference, with its reasons', async () => {
    const bad = await sb.call<ErrorBody>(POST, '/api/olm-v1/clustercatalogs', {
      method: 'POST',
      body: { name: 'Not_A_Name', imageRef: 'quay.io/example/catalog:1' },
    });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.error.reason, 'Invalid');
    assert.match(bad.body.error.message, /Not_A_Name/);
    const noTag = await sb.call<ErrorBody>(POST, '/api/olm-v1/clustercatalogs', {
      method: 'POST',
      body: { name: 'no-tag', imageRef: 'quay.io/example/catalog' },
    });
    assert.equal(noTag.status, 422);
    assert.match(noTag.body.error.message, /must end with a digest or a tag/);
    for (const name of ['Not_A_Name', 'no-tag']) await assert.rejects(stored(name), (e) => isKubeError(e, 404));
  });

  test('a catalog from an image that does not exist fails in catalogd’s words, and is deleted', async () => {
    const made = await sb.call<ErrorBody & { generation: number }>(POST, '/api/olm-v1/clustercatalogs', {
      method: 'POST',
      body: { name: 'missing-image', imageRef: 'quay.io/olm-console/does-not-exist:v1', priority: 3 },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const row = await waitFor('catalogd to try the image', async () => {
      const r = await rowOf('missing-image');
      return r?.progressing ? r : undefined;
    });
    assert.equal(row.state, 'Retrying');
    assert.equal(row.progressing?.reason, 'Retrying');
    assert.match(row.progressing?.message ?? '', /^source catalog content: /);
    assert.equal(row.serving, undefined);
    assert.equal(row.priority, 3);
    const del = await sb.call<ErrorBody>(DELETE, `/api/olm-v1/clustercatalogs/missing-image?seen=${row.generation}`, {
      method: 'DELETE',
      params: { name: 'missing-image' },
    });
    assert.equal(del.status, 200, JSON.stringify(del.body));
    await waitFor('the catalog gone', async () =>
      (await stored('missing-image').then(
        () => false,
        (e: unknown) => isKubeError(e, 404),
      ))
        ? true
        : undefined,
    );
  });

  test('a ClusterExtension whose selector picks the catalog and whose package it carries is a dependent', async () => {
    await sb.admin.create(CLUSTER_EXTENSION_TYPE, {
      metadata: { name: 'depends-on-demo' },
      spec: {
        namespace: 'depends',
        serviceAccount: { name: 'installer' },
        source: {
          sourceType: 'Catalog',
          catalog: {
            packageName: 'pgpilot',
            selector: { matchLabels: { 'olm.operatorframework.io/metadata.name': DEMO } },
          },
        },
      },
    });
    await sb.admin.create(CLUSTER_EXTENSION_TYPE, {
      metadata: { name: 'elsewhere' },
      spec: {
        namespace: 'depends',
        serviceAccount: { name: 'installer' },
        source: {
          sourceType: 'Catalog',
          catalog: { packageName: 'pgpilot', selector: { matchLabels: { team: 'other' } } },
        },
      },
    });
    await sb.admin.create(CLUSTER_EXTENSION_TYPE, {
      metadata: { name: 'any-catalog' },
      spec: {
        namespace: 'depends',
        serviceAccount: { name: 'installer' },
        source: { sourceType: 'Catalog', catalog: { packageName: 'pgpilot' } },
      },
    });
    await sb.admin.create(CLUSTER_CATALOG_TYPE, {
      metadata: { name: 'never-served' },
      spec: { source: { type: 'Image', image: { ref: 'quay.io/olm-console/nothing:v1' } } },
    });
    const dependentsOf = (name: string) =>
      sb.call<CatalogDependentsResponse>(DEPENDENTS, `/api/olm-v1/clustercatalogs/${name}/dependents`, {
        params: { name },
      });
    const r = await dependentsOf(DEMO);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.dependents.map((d) => d.name).sort(), ['any-catalog', 'depends-on-demo']);
    // catalogd serves nothing for it, so nothing resolves from it, whatever selects it.
    assert.deepEqual((await dependentsOf('never-served')).body.dependents, []);
    assert.equal(r.body.dependents[0]!.packageName, 'pgpilot');
    assert.deepEqual(r.body.problems, []);
  });

  test('a viewer who may read catalogs sees why every change is refused, and a change by them is a 403', async () => {
    const refused = await list('bob');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.reason, 'Forbidden');
    await sb.admin.create(rbacType('ClusterRole'), {
      metadata: { name: 'catalog-reader' },
      rules: [
        { apiGroups: ['olm.operatorframework.io'], resources: ['clustercatalogs'], verbs: ['get', 'list', 'watch'] },
      ],
    });
    await sb.admin.create(rbacType('ClusterRoleBinding'), {
      metadata: { name: 'bob-catalog-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'catalog-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
    });
    const { body } = await waitFor('bob reading catalogs', async () => {
      const r = await list('bob');
      return r.status === 200 ? r : undefined;
    });
    assert.ok(body.served);
    const row = body.catalogs.find((c) => c.name === DEMO)!;
    assert.equal(row.canEdit.allowed, false);
    assert.ok(row.canEdit.reason);
    assert.equal(body.canCreate.allowed, false);
    const before = await stored(DEMO);
    const r = await patch(DEMO, { seen: row.generation, availabilityMode: 'Unavailable' }, 'bob');
    assert.equal(r.status, 403);
    assert.equal(r.body.error.reason, 'Forbidden');
    assert.equal((await stored(DEMO)).metadata?.resourceVersion, before.metadata?.resourceVersion);
  });

  test('a status.urls.base anywhere but catalogd’s address for that catalog is shown unread, never fetched', async () => {
    // Something listening where the status will point: it must never be connected to.
    let connections = 0;
    const elsewhere = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const port = (elsewhere.address() as AddressInfo).port;
    try {
      // An image catalogd cannot pull: it retries, and keeps whatever else the status says.
      await sb.admin.create(CLUSTER_CATALOG_TYPE, {
        apiVersion: 'olm.operatorframework.io/v1',
        kind: 'ClusterCatalog',
        metadata: { name: 'pointed' },
        spec: { source: { type: 'Image', image: { ref: 'quay.io/olm-console/pointed:v1' } } },
      });
      await waitFor('catalogd to try the image', async () => (await rowOf('pointed'))?.progressing);
      const demoBase = (await rowOf(DEMO))!.baseUrl!;
      const bases = [
        `https://127.0.0.1:${port}/catalogs/pointed`,
        // catalogd's own address, but another catalog's content.
        demoBase,
      ];
      for (const base of bases) {
        // As whoever may write clustercatalogs/status (catalogd, or anyone granted it) could.
        const cc = await stored('pointed');
        await sb.admin.replace(
          CLUSTER_CATALOG_TYPE,
          {
            ...cc,
            status: {
              ...cc.status,
              conditions: [
                ...(cc.status?.conditions ?? []).filter((c) => c.type !== 'Serving'),
                {
                  type: 'Serving',
                  status: 'True',
                  reason: 'Available',
                  message: 'Serving desired content from resolved source',
                  lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
                },
              ],
              resolvedSource: { type: 'Image', image: { ref: `quay.io/olm-console/pointed@sha256:${'0'.repeat(64)}` } },
              urls: { base },
              lastUnpacked: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
            },
          },
          'status',
        );
        await sb.sandbox.olmV1.settled();
        assert.equal((await stored('pointed')).status?.urls?.base, base);
        for (const user of ['admin', 'bob']) {
          const { body } = await list(user);
          if (!body.served) continue;
          const row = body.catalogs.find((c) => c.name === 'pointed');
          if (!row && user === 'bob') continue;
          assert.equal(row?.state, 'Serving');
          assert.equal(row?.content.read, false, JSON.stringify(row?.content));
          const why = !row!.content.read ? row!.content.why : '';
          assert.ok(why.startsWith(`status.urls.base "${base}" is not where catalogd serves this catalog`), why);
          // The address the sandbox's kubeconfig names for catalogd, with this catalog's name.
          assert.ok(why.includes(`${sb.sandbox.olmV1.contentUrl}/catalogs/pointed`), why);
        }
      }
      assert.equal(connections, 0);
    } finally {
      await sb.admin.delete(CLUSTER_CATALOG_TYPE, 'pointed').catch(() => undefined);
      await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
    }
  });
});
