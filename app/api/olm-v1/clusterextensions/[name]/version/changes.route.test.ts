// What a ClusterExtension's version change does against the installed bundle, in the preview
// (`POST …/version/plan`), against the sandbox's OLM v1: pgpilot installed at 1.0.0 by the console,
// previewed at 1.1.0. Both bundles are the catalog's; the installed CRDs are read in the cluster,
// so a version the API server has stored objects in (status.storedVersions) and the new bundle
// drops is said, as kube-apiserver would refuse it.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { VersionPlan } from '@/lib/api/olm-v1-extensions';
import type { V1InstallRequestBody } from '@/lib/api/olm-v1-install';
import { CRD_TYPE } from '@/lib/k8s/core-kinds';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '@/lib/server/olm-v1/resources';
import { waitFor } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

const NAME = 'pgpilot';
const CRD = 'postgresclusters.pgpilot.example.com';

describe('the changes of a ClusterExtension version change', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let PLAN: Handler;
  const preview = (version: string, user = 'admin') =>
    sb.call<VersionPlan & ErrorBody>(PLAN, `/api/olm-v1/clusterextensions/${NAME}/version/plan`, {
      method: 'POST',
      user,
      body: { version },
      params: { name: NAME },
    });

  before(async () => {
    const { POST: INSTALL } = (await import('../../route')) as unknown as { POST: Handler };
    ({ POST: PLAN } = (await import('./plan/route')) as unknown as { POST: Handler });
    const body: V1InstallRequestBody = {
      catalog: 'olm-console-demo',
      packageName: NAME,
      name: NAME,
      namespace: 'pgpilot-v1',
      serviceAccount: { name: 'pgpilot-installer', grant: true },
      version: '1.0.0',
      channels: [],
      onlyThisCatalog: false,
      upgradeConstraintPolicy: 'CatalogProvided',
    };
    await waitFor('the catalog served', async () => {
      const r = await sb.call<ErrorBody>(INSTALL, '/api/olm-v1/clusterextensions', { method: 'POST', body });
      return r.status === 201 ? r : undefined;
    });
    await waitFor('Installed at 1.0.0', async () => {
      const c = await sb.admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, NAME);
      return c.status?.install?.bundle?.version === '1.0.0' ? c : undefined;
    });
  });

  test('the preview says what the new version changes against the installed bundle', async () => {
    const res = await preview('1.1.0');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const ch = res.body.changes;
    assert.ok(ch, JSON.stringify(res.body));
    assert.deepEqual(ch.installed, { bundle: 'pgpilot.v1.0.0', source: 'catalog', gaps: [] });
    assert.deepEqual(ch.target, { bundle: 'pgpilot.v1.1.0', source: 'catalog', gaps: [] });
    const c = ch.changes;
    assert.ok(!('unknown' in c), JSON.stringify(c));
    // The demo catalog's 1.1.0 runs another image, with the same rules and CRDs.
    assert.deepEqual(c.images, {
      added: ['quay.example.com/demo/pgpilot@sha256:706770696c6f742d312e312e3000000000000000000000000000000000000000'],
      removed: [
        'quay.example.com/demo/pgpilot@sha256:706770696c6f742d312e302e3000000000000000000000000000000000000000',
      ],
    });
    assert.deepEqual([c.rulesAdded, c.rulesDropped, c.crds, c.dropsStoredVersion], [[], [], [], false]);
  });

  test('a version stored in the installed CRD that the new bundle drops is said', async () => {
    // As after an earlier version of the operator stored objects in v1beta1, not yet migrated.
    await sb.admin.patch(
      CRD_TYPE,
      CRD,
      { status: { storedVersions: ['v1beta1', 'v1'] } },
      { type: 'merge', subresource: 'status' },
    );
    const res = await preview('1.1.0');
    const c = res.body.changes?.changes;
    assert.ok(c && !('unknown' in c), JSON.stringify(res.body));
    assert.equal(c.dropsStoredVersion, true);
    const crd = c.crds.find((x) => x.name === CRD);
    assert.deepEqual(crd?.storedDropped, [{ version: 'v1beta1', why: 'storedVersions' }]);
  });

  test('staying on the installed version has no changes to show', async () => {
    const res = await preview('1.0.0');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.change, 'same');
    assert.equal(res.body.changes, undefined);
  });
});
