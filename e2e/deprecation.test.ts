// Deprecation as a badge, in Debian's Chromium against a production build: a fixture catalog whose
// olm.deprecations blob deprecates a channel and a bundle of one package. The Installed Operators
// row of an operator subscribed to that channel (OLM's ChannelDeprecated and BundleDeprecated
// conditions) and the install wizard's channel picker say "Deprecated", with the catalog's words
// as the badge's description; an operator nothing deprecates has no badge.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import type { KubeClient } from '../lib/k8s/client';
import { CATALOG_SOURCE_TYPE } from '../lib/olm/resources/catalog-source';
import { OPERATOR_GROUP_TYPE } from '../lib/olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '../lib/olm/resources/subscription';
import { writeFixtureCatalog } from '../lib/sandbox/testing/fbc-fixture';
import { ensureNamespace, waitFor, waitForCsv } from '../lib/server/testing/cluster';
import { useHarness } from './support/harness';

const CHANNEL_MESSAGE = 'The legacy channel gets no more updates; switch to stable.';
const BUNDLE_MESSAGE = 'oldtimer 1.0.0 logs tokens (OT-2026-1); use 1.1.0.';

describe('deprecation badges', () => {
  async function install(kube: KubeClient, ns: string, pkg: string, channel: string): Promise<string> {
    await ensureNamespace(kube, ns);
    await kube.create(OPERATOR_GROUP_TYPE, {
      metadata: { name: `${ns}-og`, namespace: ns },
      spec: { targetNamespaces: [ns] },
    });
    await kube.create<Subscription>(SUBSCRIPTION_TYPE, {
      metadata: { name: pkg, namespace: ns },
      spec: { name: pkg, source: 'deprecations', sourceNamespace: 'olm', channel, installPlanApproval: 'Automatic' },
    });
    const csv = await waitFor(
      `${ns}/${pkg} installed`,
      async () => (await kube.get<Subscription>(SUBSCRIPTION_TYPE, pkg, ns)).status?.installedCSV,
      30_000,
    );
    await waitForCsv(kube, ns, csv);
    return csv;
  }

  const h = useHarness({
    suite: 'deprecation',
    writeCatalogs: (tmp) => {
      const dir = join(tmp, 'deprecations');
      writeFixtureCatalog(dir, [
        {
          name: 'oldtimer',
          channel: 'stable',
          bundles: [
            { version: '1.0.0', channels: ['stable', 'legacy'] },
            { version: '1.1.0', replaces: '1.0.0' },
          ],
        },
        { name: 'fresh', bundles: [{ version: '2.0.0' }] },
      ]);
      writeFileSync(
        join(dir, 'oldtimer', 'deprecations.json'),
        JSON.stringify({
          schema: 'olm.deprecations',
          package: 'oldtimer',
          entries: [
            { reference: { schema: 'olm.channel', name: 'legacy' }, message: CHANNEL_MESSAGE },
            { reference: { schema: 'olm.bundle', name: 'oldtimer.v1.0.0' }, message: BUNDLE_MESSAGE },
          ],
        }),
      );
      return [dir];
    },
    sandbox: { demo: false },
    seed: async (kube) => {
      await waitFor('the catalog ready', async () => {
        const cs = (
          await kube.listAll<{ status?: { connectionState?: { lastObservedState?: string } } }>(CATALOG_SOURCE_TYPE, {
            namespace: 'olm',
          })
        ).items[0];
        return cs?.status?.connectionState?.lastObservedState === 'READY' ? true : undefined;
      });
      await install(kube, 'legacy-ns', 'oldtimer', 'legacy');
      await install(kube, 'fresh-ns', 'fresh', 'stable');
      await waitFor(
        'OLM says the channel is deprecated',
        async () =>
          (await kube.get<Subscription>(SUBSCRIPTION_TYPE, 'oldtimer', 'legacy-ns')).status?.conditions?.some(
            (c) => c.type === 'ChannelDeprecated' && c.status === 'True',
          ) || undefined,
      );
    },
  });

  /** The text of the elements a node's aria-describedby names: its accessible description. */
  const description = (l: Locator) =>
    l.evaluate((el) =>
      (el.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ')
        .trim(),
    );

  test("Installed Operators: the deprecated operator's row has a Deprecated badge with the catalog's words; the other has none", async () => {
    const page = await h.open('/operators');
    const rows = page.getByRole('table', { name: 'Installed operators' }).getByRole('row');
    const old = rows.filter({ hasText: 'oldtimer' });
    await old.waitFor();
    const badge = old.getByRole('note', { name: 'Deprecated' });
    assert.equal(await badge.textContent(), 'Deprecated');
    assert.ok(await badge.isVisible());
    const said = await description(badge);
    assert.match(said, /Channel legacy is deprecated: The legacy channel gets no more updates; switch to stable\./);
    assert.match(said, /Bundle oldtimer\.v1\.0\.0 is deprecated: oldtimer 1\.0\.0 logs tokens/);
    assert.equal(await badge.getAttribute('title'), said, 'the same words as a tooltip');
    assert.equal(await rows.filter({ hasText: 'fresh' }).getByRole('note', { name: 'Deprecated' }).count(), 0);
    // A state no other suite reaches: a Deprecated badge in a row, checked by axe at both widths.
    await h.shot(page, 'operators-deprecated');
    await page.close();
  });

  test('install wizard: the channel picker marks a deprecated channel with a badge and says why', async () => {
    const page = await h.open('/operatorhub/olm/deprecations/oldtimer/install?channel=legacy');
    const picker = page.getByRole('combobox', { name: /^Update channel/ });
    await picker.waitFor();
    assert.deepEqual(await picker.locator('option').allTextContents(), ['legacy (deprecated)', 'stable (default)']);
    const badge = page.getByRole('form', { name: 'Install choices' }).getByRole('note', { name: 'Deprecated' });
    assert.ok(await badge.isVisible());
    assert.equal(await description(badge), `Channel legacy is deprecated: ${CHANNEL_MESSAGE}`);
    await h.shot(page, 'install-deprecated-channel');
    assert.match(
      await description(picker),
      new RegExp(`Deprecated.*${CHANNEL_MESSAGE.replace(/[.;]/g, '\\$&')}`),
      'the picker itself is described by it',
    );
    await picker.selectOption('stable');
    await page
      .getByRole('form', { name: 'Install choices' })
      .getByRole('note', { name: 'Deprecated' })
      .waitFor({ state: 'detached' });
    assert.equal(await picker.getAttribute('aria-describedby'), null);
    await page.close();
  });
});
