// OpenShift's default sources on the Catalogs page, in Debian's Chromium against a production
// build and the sandbox's OpenShift flavour (its catalogs named as OpenShift's defaults, an
// operator installed from one): an admin reviews disabling redhat-operators (the CatalogSource
// that goes, the Subscription that depends on it), applies it and sees the CatalogSource go, then
// enables it and sees it come back READY; a viewer who may read OperatorHub but not update it (as
// OpenShift's cluster-reader) sees the switches disabled with the cluster's reason. Checked with the
// Kubernetes API.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { isKubeError } from '../lib/k8s/errors';
import { OPERATOR_HUB_TYPE, type OperatorHub } from '../lib/olm/catalog/operator-hub-config';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../lib/olm/resources/catalog-source';
import { OPERATOR_GROUP_TYPE } from '../lib/olm/resources/operator-group';
import { SUBSCRIPTION_TYPE } from '../lib/olm/resources/subscription';
import { writeFixtureCatalog } from '../lib/sandbox/testing/fbc-fixture';
import { ensureNamespace, waitFor } from '../lib/server/testing/cluster';
import { useHarness } from './support/harness';

const NS = 'openshift-marketplace';
const CLUSTER_ROLE_TYPE = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'clusterroles',
  namespaced: false,
  kind: 'ClusterRole',
};
const CLUSTER_ROLE_BINDING_TYPE = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'clusterrolebindings',
  namespaced: false,
  kind: 'ClusterRoleBinding',
};

describe('Default sources (OpenShift OperatorHub config)', () => {
  const root = mkdtempSync(join(tmpdir(), 'olm-console-default-sources-e2e-'));
  writeFixtureCatalog(join(root, 'redhat-operators'), [{ name: 'red', bundles: [{ version: '1.0.0' }] }]);
  writeFixtureCatalog(join(root, 'community-operators'), [{ name: 'comm', bundles: [{ version: '1.0.0' }] }]);
  const h = useHarness({
    suite: 'default-sources',
    sandbox: { flavor: 'openshift', catalogs: [join(root, 'redhat-operators'), join(root, 'community-operators')] },
    seed: async (kube) => {
      // bob may read OperatorHub (as OpenShift's cluster-reader may), not change it.
      await kube.create(CLUSTER_ROLE_TYPE, {
        metadata: { name: 'operatorhub-reader' },
        rules: [{ apiGroups: ['config.openshift.io'], resources: ['operatorhubs'], verbs: ['get', 'list', 'watch'] }],
      });
      await kube.create(CLUSTER_ROLE_BINDING_TYPE, {
        metadata: { name: 'bob-operatorhub-reader' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'operatorhub-reader' },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }],
      });
      await ensureNamespace(kube, 'red');
      await kube.create(
        OPERATOR_GROUP_TYPE,
        { metadata: { name: 'red', namespace: 'red' }, spec: { targetNamespaces: ['red'] } },
        { namespace: 'red' },
      );
      await kube.create(
        SUBSCRIPTION_TYPE,
        {
          metadata: { name: 'red', namespace: 'red' },
          spec: { name: 'red', source: 'redhat-operators', sourceNamespace: NS, channel: 'stable' },
        },
        { namespace: 'red' },
      );
      await waitFor('OperatorHub status', async () =>
        (await kube.get<OperatorHub>(OPERATOR_HUB_TYPE, 'cluster')).status?.sources?.length === 2 ? true : undefined,
      );
    },
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const redhat = async () => {
    try {
      return await h.kube.get<CatalogSource>(CATALOG_SOURCE_TYPE, 'redhat-operators', NS);
    } catch (err) {
      if (isKubeError(err, 404)) return undefined;
      throw err;
    }
  };

  test('an admin disables redhat-operators after the review names what goes; the CatalogSource goes, then comes back when enabled', async () => {
    const page = await h.open('/catalogsources');
    const section = page.getByRole('region', { name: 'Default sources' });
    const row = section.getByRole('listitem', { name: 'Default source redhat-operators' });
    await row.getByText('Success').waitFor();
    await row.getByText('1 installs from it: red/red').waitFor();
    await page
      .getByRole('listitem', { name: 'Catalog source openshift-marketplace/redhat-operators' })
      .getByText('READY')
      .waitFor({ timeout: 15_000 });
    await h.shot(page, 'section');

    await row.getByRole('switch', { name: 'redhat-operators' }).click();
    const review = row.getByRole('region', { name: 'Review: Disable redhat-operators' });
    await review
      .getByText(
        /deletes CatalogSource openshift-marketplace\/redhat-operators.*1 installed operator subscribes to it and will report CatalogSourcesUnhealthy/,
      )
      .waitFor();
    await review.getByRole('list', { name: 'Subscriptions from redhat-operators' }).getByText('red/red').waitFor();
    assert.match(
      (await review.getByLabel('OperatorHub change', { exact: true }).textContent()) ?? '',
      /sources:\s*- name: redhat-operators\s*disabled: true/,
    );
    await h.shot(page, 'disable-review');
    await review.getByRole('button', { name: 'Disable redhat-operators' }).click();
    await page.getByRole('status').filter({ hasText: 'Applied as you: disable redhat-operators' }).waitFor();
    await waitFor('redhat-operators deleted', async () => ((await redhat()) ? undefined : true));
    await page
      .getByRole('listitem', { name: 'Catalog source openshift-marketplace/redhat-operators' })
      .waitFor({ state: 'detached', timeout: 15_000 });
    await row.getByText('Disabled by its own entry in spec.sources').waitFor();
    await row.getByText(/Success.*disabled/).waitFor({ timeout: 15_000 });
    assert.equal(await row.getByRole('switch', { name: 'redhat-operators' }).getAttribute('aria-checked'), 'false');
    await h.shot(page, 'disabled');

    await row.getByRole('switch', { name: 'redhat-operators' }).click();
    const back = row.getByRole('region', { name: 'Review: Enable redhat-operators' });
    await back.getByText(/creates CatalogSource openshift-marketplace\/redhat-operators again/).waitFor();
    await back.getByRole('button', { name: 'Enable redhat-operators' }).click();
    await page.getByRole('status').filter({ hasText: 'Applied as you: enable redhat-operators' }).waitFor();
    await page
      .getByRole('listitem', { name: 'Catalog source openshift-marketplace/redhat-operators' })
      .getByText('READY')
      .waitFor({ timeout: 15_000 });
    assert.equal((await redhat())?.metadata?.annotations?.['operatorframework.io/managed-by'], 'marketplace-operator');
    await h.shot(page, 'enabled-again');
    await page.close();
  });

  test('a reader sees the switches disabled with the right they lack', async () => {
    const page = await h.openAs('bob', '/catalogsources');
    const section = page.getByRole('region', { name: 'Default sources' });
    await section.getByText(/You may not change the default sources: .*update\b.*\boperatorhubs/).waitFor();
    await section.getByRole('listitem', { name: 'Default source redhat-operators' }).getByText('Success').waitFor();
    assert.equal(await section.getByRole('switch', { name: 'All default sources' }).isDisabled(), true);
    for (const name of ['community-operators', 'redhat-operators']) {
      assert.equal(
        await section
          .getByRole('listitem', { name: `Default source ${name}` })
          .getByRole('switch', { name })
          .isDisabled(),
        true,
        name,
      );
    }
    await h.shot(page, 'viewer');
    await page.close();
  });
});
