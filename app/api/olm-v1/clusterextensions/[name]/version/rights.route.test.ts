// A version change of an extension the console installed, against the sandbox's operator-controller
// (v1.2.0's behaviour: it installs with the ServiceAccount's token, so every object the new bundle
// brings must be allowed to that account). The install wizard grants one bundle's rights by object
// name; the change widens those roles first, as the person, so v1 reaches the new version, and a
// change the person may not make leaves the roles as they were.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { VersionPlan } from '@/lib/api/olm-v1-extensions';
import type { V1InstallRequestBody } from '@/lib/api/olm-v1-install';
import { rbacType } from '@/lib/k8s/core-kinds';
import type { PolicyRule } from '@/lib/olm/resources/cluster-service-version';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '@/lib/server/olm-v1/resources';
import { waitFor } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

const NAME = 'pgpilot';
const ROLE = `${NAME}-installer`;

describe('changing the version of an extension the console installed', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let INSTALL: Handler, PLAN: Handler, CHANGE: Handler;
  before(async () => {
    ({ POST: INSTALL } = (await import('../../route')) as unknown as { POST: Handler });
    ({ POST: PLAN } = (await import('./plan/route')) as unknown as { POST: Handler });
    ({ PATCH: CHANGE } = (await import('./route')) as unknown as { PATCH: Handler });
  });

  const installed = (version: string) =>
    waitFor(`Installed at ${version}`, async () => {
      const c = await sb.admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, NAME);
      const ok = c.status?.conditions?.some((x) => x.type === 'Installed' && x.status === 'True');
      return ok && c.status?.install?.bundle?.version === version ? c : undefined;
    });
  const rules = async () => (await sb.admin.get<{ rules: PolicyRule[] }>(rbacType('ClusterRole'), ROLE)).rules;

  test('the installer’s roles are widened for the new bundle, and v1 reaches it', async () => {
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
    const made = await waitFor('the catalog served', async () => {
      const r = await sb.call<ErrorBody>(INSTALL, '/api/olm-v1/clusterextensions', { method: 'POST', body });
      return r.status === 201 ? r : undefined;
    });
    assert.equal(made.status, 201);
    const ce = await installed('1.0.0');
    const before = await rules();
    const path = `/api/olm-v1/clusterextensions/${NAME}/version`;
    const change = { version: '1.1.0', upgradeConstraintPolicy: 'SelfCertified' };
    const plan = await sb.call<VersionPlan & ErrorBody>(PLAN, `${path}/plan`, {
      method: 'POST',
      body: change,
      params: { name: NAME },
    });
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    assert.equal(plan.body.resolved?.version, '1.1.0');
    // 1.1.0's bundle names its own ClusterRoles (by CSV name), which 1.0.0's rights do not cover.
    assert.equal(plan.body.rights?.state, 'widen', JSON.stringify(plan.body.rights));
    if (plan.body.rights?.state === 'widen') assert.deepEqual(plan.body.rights.roles, [`ClusterRole ${ROLE}`]);

    // bob may not change it: nothing is written, the roles included.
    const refused = await sb.call<ErrorBody>(CHANGE, path, {
      method: 'PATCH',
      user: 'bob',
      body: { ...change, seen: ce.metadata?.resourceVersion },
      params: { name: NAME },
    });
    assert.equal(refused.status, 403);
    assert.deepEqual(await rules(), before);

    const done = await sb.call<ErrorBody>(CHANGE, path, {
      method: 'PATCH',
      body: {
        ...change,
        seen: (await sb.admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, NAME)).metadata?.resourceVersion,
      },
      params: { name: NAME },
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const after = await installed('1.1.0');
    const progressing = after.status?.conditions?.find((x) => x.type === 'Progressing');
    assert.equal(progressing?.reason, 'Succeeded', progressing?.message);
    // The old bundle's rules stay: Helm still reads and deletes the previous release's objects.
    const now = JSON.stringify(await rules());
    for (const r of before) assert.ok(now.includes(JSON.stringify(r.resources)), `kept ${JSON.stringify(r)}`);
  });
});
