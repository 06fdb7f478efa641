// A page whose objects the person may read but not watch: the cluster refuses the watch once, and
// the page says it is not followed live instead of "Reconnecting…" for ever. The person here is
// bob (view everywhere) granted get and list, not watch, on OperatorConditions, as a team might.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { subscribe, waitForCsv } from '../lib/server/testing/cluster';
import { useHarness } from './support/harness';

const CLUSTER_ROLES = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'clusterroles',
  namespaced: false,
  kind: 'ClusterRole',
};
const CLUSTER_ROLE_BINDINGS = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'clusterrolebindings',
  namespaced: false,
  kind: 'ClusterRoleBinding',
};
const NOT_LIVE = /Not followed live: you may read these objects but the cluster does not let you watch some of them/;

describe('A page the person may read but not watch', () => {
  const h = useHarness({
    suite: 'live-limited',
    seed: async (kube) => {
      await subscribe(kube, { namespace: 'pg', package: 'pgpilot', channel: 'stable', targets: ['pg'] });
      await waitForCsv(kube, 'pg', 'pgpilot.v1.4.0');
      await kube.create(CLUSTER_ROLES, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'operatorconditions-reader' },
        rules: [{ apiGroups: ['operators.coreos.com'], resources: ['operatorconditions'], verbs: ['get', 'list'] }],
      });
      await kube.create(CLUSTER_ROLE_BINDINGS, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'bob-operatorconditions-reader' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'operatorconditions-reader' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
      });
    },
  });

  test('bob reads the Conditions tab and is told it is not live; an admin, who may watch, is not', async () => {
    const page = await h.openAs('bob', '/operators/pg/pgpilot.v1.4.0?tab=conditions');
    await page.getByRole('tab', { name: 'Conditions', selected: true }).waitFor();
    await page.getByText(NOT_LIVE).waitFor();
    assert.equal(await page.getByText('Reconnecting to the cluster').count(), 0);
    await h.shot(page, 'conditions-not-live');
    await page.close();

    const adminPage = await h.open('/operators/pg/pgpilot.v1.4.0?tab=conditions');
    await adminPage.getByRole('tab', { name: 'Conditions', selected: true }).waitFor();
    await adminPage.getByLabel('Upgrade verdict').waitFor();
    // Long enough for the stream to be established and a refusal to arrive, were there one.
    await adminPage.waitForTimeout(1500);
    assert.equal(await adminPage.getByText(NOT_LIVE).count(), 0);
    await adminPage.close();
  });
});
