// Installs with a service account's rights (OLM's scoped install) in Debian's Chromium, against
// a production build and the sandbox: an administrator creates the group with an account and
// grants it what the bundle needs from the wizard; a namespace admin installs where the group
// names an account that lacks the rights, sees OLM's refusal in words, and an administrator
// applies the Role the wizard showed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadAll } from 'js-yaml';
import type { ResourceType } from '../lib/olm/resources/common';
import { OPERATOR_GROUP_TYPE, type OperatorGroup } from '../lib/olm/resources/operator-group';
import { useHarness } from './support/harness';

const SA: ResourceType = {
  group: '',
  version: 'v1',
  plural: 'serviceaccounts',
  namespaced: true,
  kind: 'ServiceAccount',
};
const rbac = (kind: string, namespaced: boolean): ResourceType => ({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: `${kind.toLowerCase()}s`,
  namespaced,
  kind,
});

describe('Installing with a service account', () => {
  const h = useHarness({
    suite: 'scoped-install',
    seed: async (kube) => {
      await kube.create(SA, { metadata: { name: 'deployer', namespace: 'team1' } });
      await kube.create(OPERATOR_GROUP_TYPE, {
        metadata: { name: 'team1', namespace: 'team1' },
        spec: { targetNamespaces: ['team1'], serviceAccountName: 'deployer' },
      });
    },
  });

  test('an administrator installs with a new account and grants it the rights from the wizard', async () => {
    const page = await h.open('/operatorhub/olm/olm-console-demo/quillmq/install');
    await page.getByRole('heading', { name: 'What the install will do' }).waitFor();
    await page.getByLabel('Installed namespace').fill('scoped-web');
    await page.getByLabel('Install with a service account').check();
    assert.equal(await page.getByLabel('Account name').inputValue(), 'olm-installer');
    assert.equal(await page.getByLabel('Grant it the rights this operator needs').isChecked(), true);
    const objects = page.getByRole('list', { name: 'Objects' });
    await objects.getByText('ServiceAccount scoped-web/olm-installer').waitFor();
    await objects.getByText('Role scoped-web/quillmq-installer', { exact: true }).waitFor();
    await objects.getByText('ClusterRole scoped-web-quillmq-installer', { exact: true }).waitFor();
    const rights = page.getByRole('region', { name: 'Service account rights' });
    await rights.getByText(/The install creates this Role and binding/).waitFor();
    await rights.getByText(/cluster-wide rights/).waitFor();
    await rights
      .getByText(
        /OLM installs tenant-core\.v[\d.]+ with it, in the same InstallPlan and as olm-installer, so their rules are in this Role too/,
      )
      .waitFor();
    await h.shot(page, 'wizard-new-account');
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await page.waitForURL(/\/installs\/scoped-web\/quillmq$/);
    await page
      .getByRole('status')
      .filter({ hasText: /^Installed: quillmq\.v/ })
      .waitFor({ timeout: 20_000 });
    assert.equal(await page.getByRole('region', { name: 'Missing rights' }).count(), 0, 'OLM was refused nothing');
    const groups = (await h.kube.list<OperatorGroup>(OPERATOR_GROUP_TYPE, { namespace: 'scoped-web' })).items;
    assert.deepEqual(
      groups.map((g) => g.spec?.serviceAccountName),
      ['olm-installer'],
    );
    await page.close();
  });

  test('a namespace admin installs with the group’s account; OLM’s refusal is said in words until an administrator grants the rights', async () => {
    const page = await h.openAs('alice', '/operatorhub/olm/olm-console-demo/quillmq/install?namespace=team1');
    await page
      .getByRole('note', { name: 'Service account' })
      .getByText(/OperatorGroup team1 of this namespace names service account deployer/)
      .waitFor();
    const rights = page.getByRole('region', { name: 'Service account rights' });
    await rights.getByText(/An administrator can review and apply this Role and binding/).waitFor();
    // Alice may not read the catalog's registry, only its PackageManifests: the operator's own
    // rules are not known to her wizard, and it says so.
    await rights
      .getByText(
        /Not complete: the rules the operator itself asks for are not known here \(the catalog is read through packageserver/,
      )
      .waitFor();
    const yaml = await rights.getByLabel('Role for service account deployer').textContent();
    await h.shot(page, 'wizard-group-account');
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await page.waitForURL(/\/installs\/team1\/quillmq$/);
    const missing = page.getByRole('region', { name: 'Missing rights' });
    await missing
      .getByText(
        'Service account deployer of namespace team1 may not create clusterserviceversions (API group operators.coreos.com) in namespace team1.',
      )
      .waitFor({ timeout: 15_000 });
    await missing
      .getByLabel('Missing rights of service account deployer')
      .getByText('clusterserviceversions')
      .waitFor();
    await h.shot(page, 'progress-refused');
    const apply = async (text: string | null) => {
      for (const o of loadAll(text ?? '') as { kind: string; metadata: { namespace?: string } }[]) {
        await h.kube.create(
          rbac(o.kind, !!o.metadata.namespace),
          o,
          o.metadata.namespace ? { namespace: o.metadata.namespace } : {},
        );
      }
    };
    // The administrator applies, in order, what the wizard showed alice: OLM's own writes.
    await apply(yaml);
    // Then OLM may not grant the operator rules the account does not hold; each refusal's
    // grant, from the page, lets OLM on to the next, as OLM's docs describe the iteration.
    await missing
      .getByText(/must hold every right it grants the operator, and lacks/)
      .first()
      .waitFor({ timeout: 15_000 });
    await h.shot(page, 'progress-escalation');
    const installed = page.getByRole('status').filter({ hasText: /^Installed: quillmq\.v/ });
    // quillmq's plan also installs its dependency, whose own rules come next.
    for (let round = 0; round < 6 && (await missing.count()) > 0; round++) {
      const text = await missing
        .getByLabel('Missing rights of service account deployer')
        .textContent({ timeout: 2_000 })
        .catch(() => null);
      if (text) await apply(text);
      await page.waitForFunction(
        (before) =>
          document.querySelector('[aria-label="Missing rights of service account deployer"]')?.textContent !== before,
        text,
        { timeout: 15_000 },
      );
    }
    await installed.waitFor({ timeout: 30_000 });
    await missing.waitFor({ state: 'detached', timeout: 15_000 });
    await h.shot(page, 'progress-installed');
    await page.close();
  });
});
