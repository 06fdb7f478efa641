// "What this operator may do", in Debian's Chromium against a production build: the OLM v0 package
// page (as bob, a viewer) and install wizard for a fixture package whose CSV asks for notable
// cluster-wide rights and brings webhooks and an API service; the OLM v1 package page and wizard
// for the demo's pgpilot; and a ClusterCatalog whose bundle is given by image only, on a console
// that does not pull images, where the page says it is not known and why. Each state is looked
// at (screenshots) and checked by axe at desktop and phone widths.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { CATALOG_SOURCE_TYPE } from '../lib/olm/resources/catalog-source';
import { writeFixtureCatalog } from '../lib/sandbox/testing/fbc-fixture';
import { CLUSTER_CATALOG_TYPE } from '../lib/server/olm-v1/resources';
import { waitFor } from '../lib/server/testing/cluster';
import { PHONE } from './support/a11y';
import { useHarness } from './support/harness';

const SHOTS = join(import.meta.dirname, '..', 'test-results', 'operator-brings');
const FIXTURE = 'brings-fixture';
const IMAGES_ONLY = 'images-only';
const IMAGES_ONLY_REF = 'quay.example.com/acme/images-only:latest';

/** A catalog image only catalogd serves, whose one bundle names an image and carries no objects. */
function writeImagesOnlyCatalog(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'e2e-brings-')), IMAGES_ONLY);
  mkdirSync(dir);
  const docs = [
    { schema: 'olm.package', name: 'solo', defaultChannel: 'stable' },
    { schema: 'olm.channel', name: 'stable', package: 'solo', entries: [{ name: 'solo.v1.0.0' }] },
    {
      schema: 'olm.bundle',
      name: 'solo.v1.0.0',
      package: 'solo',
      image: 'quay.example.com/acme/solo-bundle:v1.0.0',
      properties: [{ type: 'olm.package', value: { packageName: 'solo', version: '1.0.0' } }],
    },
  ];
  writeFileSync(join(dir, 'catalog.json'), docs.map((d) => JSON.stringify(d)).join('\n'));
  return dir;
}

describe('what an operator may do, before it is installed', () => {
  const h = useHarness({
    suite: 'operator-brings',
    sandbox: { demo: true, catalogImages: { [IMAGES_ONLY_REF]: writeImagesOnlyCatalog() } },
    writeCatalogs: (tmp) => {
      const dir = join(tmp, FIXTURE);
      writeFixtureCatalog(dir, [
        {
          name: 'gatekeep',
          bundles: [
            {
              version: '1.0.0',
              clusterRules: [
                { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] },
                { apiGroups: [''], resources: ['pods/exec'], verbs: ['create'] },
                { nonResourceURLs: ['/metrics'], verbs: ['get'] },
              ],
              csvSpec: {
                webhookdefinitions: [
                  {
                    type: 'ValidatingAdmissionWebhook',
                    generateName: 'vgatekeep.example.com',
                    deploymentName: 'gatekeep-operator',
                    sideEffects: 'None',
                    admissionReviewVersions: ['v1'],
                    rules: [
                      {
                        operations: ['CREATE', 'UPDATE'],
                        apiGroups: ['apps'],
                        apiVersions: ['v1'],
                        resources: ['deployments'],
                      },
                    ],
                  },
                ],
                apiservicedefinitions: {
                  owned: [
                    {
                      group: 'metrics.gatekeep.example.com',
                      version: 'v1',
                      kind: 'Usage',
                      deploymentName: 'gatekeep-operator',
                    },
                  ],
                },
                relatedImages: [
                  { name: 'auditor', image: 'quay.example.com/gatekeep/auditor@sha256:' + 'a'.repeat(64) },
                ],
              },
            },
          ],
        },
      ]);
      return [dir];
    },
    seed: async (kube) => {
      await kube.create(CLUSTER_CATALOG_TYPE, {
        apiVersion: 'olm.operatorframework.io/v1',
        kind: 'ClusterCatalog',
        metadata: { name: IMAGES_ONLY },
        spec: { source: { type: 'Image', image: { ref: IMAGES_ONLY_REF } } },
      });
      await waitFor('the fixture catalog ready', async () => {
        const { items } = await kube.listAll<{
          metadata: { name: string };
          status?: { connectionState?: { lastObservedState?: string } };
        }>(CATALOG_SOURCE_TYPE, { namespace: 'olm' });
        const cs = items.find((c) => c.metadata.name === FIXTURE);
        return cs?.status?.connectionState?.lastObservedState === 'READY' ? true : undefined;
      });
    },
  });

  const region = (page: Page) => page.getByRole('region', { name: 'What this operator may do' });

  test('v0 package page as a viewer: rules in words, notable marked, webhooks, API services, images', async () => {
    const page = await h.openAs('bob', `/operatorhub/olm/${FIXTURE}/gatekeep`);
    const r = region(page);
    await r.getByText('read, list and watch secrets in every namespace').waitFor();
    const text = (await r.textContent()) ?? '';
    assert.match(text, /Cluster-wide rules \(3\)/);
    assert.match(text, /Service account gatekeep-operator may:/);
    assert.match(text, /create pods\/exec in every namespace/);
    assert.match(text, /read the non-resource URL \/metrics of the API server/);
    assert.match(text, /Namespaced rules \(1\)/);
    assert.match(
      text,
      /do everything on every resource in group gatekeep\.example\.com in the namespaces it is installed for/,
    );
    assert.equal(await r.getByText('Notable', { exact: true }).count(), 3, 'secrets, exec and the wildcard');
    assert.match(text, /Validating admission webhook vgatekeep\.example\.com/);
    assert.match(text, /sees and may refuse create and update of deployments in group apps/);
    assert.match(text, /while it is down, the requests it matches are refused/);
    assert.match(text, /v1\.metrics\.gatekeep\.example\.com serves Usage/);
    assert.match(text, /quay\.example\.com\/gatekeep:1\.0\.0/);
    assert.match(text, /related image auditor/);
    await h.shot(page, 'v0-package');
    // The same page on a phone, to look at: long rules and image references wrap.
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: join(SHOTS, 'v0-package-phone.png'), fullPage: true, animations: 'disabled' });
    await page.close();
  });

  test('v0 install wizard: folded under a line that counts what stands out, open on demand', async () => {
    const page = await h.open(`/operatorhub/olm/${FIXTURE}/gatekeep/install`);
    const r = region(page);
    const summary = r.locator('summary');
    await summary.waitFor();
    assert.equal(
      await summary.textContent(),
      '3 cluster-wide rules, 1 namespaced rule, 3 notable, 1 CRD, 1 webhook, 1 API service, 2 images',
    );
    assert.equal(await r.getByText('read, list and watch secrets in every namespace').isVisible(), false);
    await summary.click();
    await r.getByText('read, list and watch secrets in every namespace').waitFor();
    // All namespaces is the first mode offered: OLM promotes the namespaced rules to a ClusterRole.
    await r.getByText('Installed for all namespaces, OLM grants these through a ClusterRole').waitFor();
    await h.shot(page, 'v0-wizard');
    await page.getByRole('radio', { name: /Own namespace/ }).check();
    await page.getByLabel('Installed namespace').fill('gatekeep-system');
    await r
      .getByText('OLM grants these through Roles in gatekeep-system, the namespaces this install is for.')
      .waitFor();
    await page.close();
  });

  test('v1 package page and wizard for the demo’s pgpilot', async () => {
    const page = await h.open('/clustercatalogs/olm-console-demo/packages/pgpilot');
    const r = region(page);
    await r.getByText('read, list and watch namespaces across the cluster').waitFor({ timeout: 30_000 });
    assert.match((await r.textContent()) ?? '', /OLM v1 installs for all namespaces/);
    assert.match(
      (await r.textContent()) ?? '',
      /postgresclusters\.pgpilot\.example\.com \(PostgresCluster, namespaced\)/,
    );
    await h.shot(page, 'v1-package');
    await page.goto(`${h.admin.url}/clustercatalogs/olm-console-demo/packages/pgpilot/install`);
    const summary = region(page).locator('summary');
    await summary.waitFor({ timeout: 30_000 });
    assert.match((await summary.textContent()) ?? '', /^1 cluster-wide rule, 3 namespaced rules, 3 notable, 2 CRDs/);
    await summary.click();
    await h.shot(page, 'v1-wizard');
    await page.close();
  });

  test('a bundle given by image only, on a console that does not pull: not known, and why', async () => {
    const page = await h.open(`/clustercatalogs/${IMAGES_ONLY}/packages/solo`);
    const note = region(page).getByRole('note');
    await note.waitFor({ timeout: 30_000 });
    assert.equal(
      await note.textContent(),
      'Not known here: the catalog gives bundle solo.v1.0.0 by image only, and this console does not pull ' +
        `bundle images (OLM_CONSOLE_PULL_BUNDLE_IMAGES is not true) (ClusterCatalog ${IMAGES_ONLY}).`,
    );
    await h.shot(page, 'v1-unknown');
    await page.close();
  });
});
