// The OLM v1 install wizard's plan on the sandbox with its demo catalog published as real catalogs
// are (--bundle-images on: every bundle by image only, in the sandbox's own registry), with the
// settings `npm start` gives the console for it (scripts/start-options.ts sandboxRegistryEnv): the
// installer's rules are read from the image, and they are the rules the bundle's own install
// strategy names (its CSV as the project's demo catalog writes it inline). The bundle in the
// registry's protected repository needs the seeded pull secret, which `npm start` names as the
// global pull secret: the admin, who may get it, sees the installer's rules; bob, who may read
// ClusterCatalogs but not secrets, is told which secret he may not get.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { V1InstallRequestBody, V1PlanAnswer } from '@/lib/api/olm-v1-install';
import { loadCatalog } from '@/lib/olm/fbc/load-catalog';
import { bundleObjects } from '@/lib/olm/fbc/model';
import { rbacType } from '@/lib/k8s/core-kinds';
import { forgetBundlesInMemory } from '@/lib/server/bundle-images/bundle-cache';
import { waitFor } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';
import { DEMO_CATALOG_DIR } from '@/lib/sandbox/demo-catalog/location';
import { sandboxRegistryEnv } from '@/scripts/start-options';

type Rule = { apiGroups?: string[]; resources?: string[]; verbs?: string[] };

describe('the v1 install plan on the sandbox whose demo catalog gives bundles by image only', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0, bundleImages: true });
  let PLAN: Handler;

  before(async () => {
    ({ POST: PLAN } = (await import('./plan/route')) as unknown as { POST: Handler });
    const { env } = sandboxRegistryEnv(
      readFileSync(sb.kubeconfigPath, 'utf8'),
      join(sb.sandbox.dir, 'serving.crt'),
      {},
    );
    Object.assign(process.env, env);
    forgetBundlesInMemory();
    await sb.admin.create(rbacType('ClusterRole'), {
      metadata: { name: 'catalog-reader' },
      rules: [
        { apiGroups: ['olm.operatorframework.io'], resources: ['clustercatalogs'], verbs: ['get', 'list', 'watch'] },
      ],
    });
    await sb.admin.create(rbacType('ClusterRoleBinding'), {
      metadata: { name: 'bob-reads-catalogs' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'catalog-reader' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }],
    });
  });

  const plan = (packageName: string, version: string, user = 'admin') =>
    waitFor(`a plan for ${packageName}`, async () => {
      const body: V1InstallRequestBody = {
        catalog: 'olm-console-demo',
        packageName,
        name: packageName,
        namespace: `${packageName}-v1`,
        serviceAccount: { name: `${packageName}-installer`, grant: true },
        version,
        channels: [],
        onlyThisCatalog: true,
        upgradeConstraintPolicy: 'CatalogProvided',
      };
      const r = await sb.call<V1PlanAnswer & ErrorBody>(PLAN, '/api/olm-v1/clusterextensions/plan', {
        method: 'POST',
        body,
        user,
      });
      return r.status === 200 ? r.body.plan : undefined;
    });
  const unknownRights = (p: V1PlanAnswer['plan']) => p.warnings.filter((w) => w.code === 'rightsUnknown');

  test("the installer's rules come from the image and grant what the install strategy names", async () => {
    const p = await plan('pgpilot', '1.4.0');
    assert.deepEqual(unknownRights(p), []);
    assert.deepEqual(p.resolution, { bundle: 'pgpilot.v1.4.0', version: '1.4.0', catalog: 'olm-console-demo' });
    const granted = JSON.stringify(p.rbac);
    // The CSV as the project writes it (its inline source): each rule of its install strategy is
    // among what the installer is given, so that it may create the operator's own roles.
    const csv = (
      bundleObjects(loadCatalog(DEMO_CATALOG_DIR).packages.get('pgpilot')!.bundles.get('pgpilot.v1.4.0')!) as {
        kind: string;
        spec?: { install?: { spec?: { permissions?: { rules: Rule[] }[] } } };
      }[]
    ).find((o) => o.kind === 'ClusterServiceVersion')!;
    for (const rule of csv.spec!.install!.spec!.permissions![0]!.rules)
      for (const resource of rule.resources ?? [])
        assert.ok(granted.includes(`"${resource}"`), `the installer may grant ${resource}: ${granted}`);
    assert.ok(granted.includes('"deployments"'), 'the installer may create the Deployment of the image');
  });

  test('the protected repository is read with the seeded pull secret by someone who may get it', async () => {
    const p = await plan('gpu-forge', '24.3.1+build.2');
    assert.deepEqual(unknownRights(p), []);
    assert.ok(p.rbac.length > 0);
  });

  test('bob, who may not get the pull secret, is told so, and nothing is read for him from the cache', async () => {
    const p = await plan('gpu-forge', '24.3.1+build.2', 'bob');
    assert.deepEqual(p.rbac, []);
    assert.match(unknownRights(p)[0]?.message ?? '', /you may not get secret olm\/sandbox-registry-pull-secret/);
  });
});
