// A page whose objects the person may read but not watch: the cluster refuses the watch once, and
// the page says it is not followed live instead of "Reconnecting…" for ever. The person here is
// bob (view everywhere) granted get and list, not watch, on OperatorConditions, as a team might.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { KubeClient } from '../lib/k8s/client';
import { withSandbox } from '../lib/sandbox/testing/sandbox-fixture';
import { clientAs, subscribe, waitForCsv } from '../lib/server/testing/cluster';
import { launchBrowser } from './support/browser';
import { startConsole, type RunningConsole } from './support/console-server';
import { loggedInPage } from './support/login';

const CLUSTER_ROLES = { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterroles', namespaced: false, kind: 'ClusterRole' };
const CLUSTER_ROLE_BINDINGS = { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterrolebindings', namespaced: false, kind: 'ClusterRoleBinding' };
const shots = join(import.meta.dirname, '..', 'test-results', 'live-limited');
const NOT_LIVE = /Not followed live: you may read these objects but the cluster does not let you watch some of them/;

describe('A page the person may read but not watch', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let admin: RunningConsole;
  let perUser: RunningConsole;
  let browser: Browser;
  let kube: KubeClient;

  before(async () => {
    sb = await withSandbox({ deploymentDelayMs: 200 });
    kube = clientAs(sb, 'admin');
    await subscribe(kube, { namespace: 'pg', package: 'pgpilot', channel: 'stable', targets: ['pg'] });
    await waitForCsv(kube, 'pg', 'pgpilot.v1.4.0');
    await kube.create(CLUSTER_ROLES, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'operatorconditions-reader' }, rules: [{ apiGroups: ['operators.coreos.com'], resources: ['operatorconditions'], verbs: ['get', 'list'] }] });
    await kube.create(CLUSTER_ROLE_BINDINGS, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'bob-operatorconditions-reader' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'operatorconditions-reader' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }] });
    admin = await startConsole({ OLM_CONSOLE_KUBECONFIG: sb.kubeconfigPath });
    perUser = await startConsole({ OLM_CONSOLE_KUBECONFIG: sb.kubeconfigPath, OLM_CONSOLE_AUTH: 'token' });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await admin?.stop();
    await perUser?.stop();
    await sb?.close();
  });

  test('bob reads the Conditions tab and is told it is not live; an admin, who may watch, is not', async () => {
    const page = await loggedInPage(browser, perUser.url, sb.tokens.bob!);
    await page.goto(`${perUser.url}/operators/pg/pgpilot.v1.4.0?tab=conditions`);
    await page.getByRole('tab', { name: 'Conditions', selected: true }).waitFor();
    await page.getByText(NOT_LIVE).waitFor();
    assert.equal(await page.getByText('Reconnecting to the cluster').count(), 0);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'conditions-not-live.png'), fullPage: true, animations: 'disabled' });
    await page.close();

    const adminPage = await browser.newPage();
    await adminPage.goto(`${admin.url}/operators/pg/pgpilot.v1.4.0?tab=conditions`);
    await adminPage.getByRole('tab', { name: 'Conditions', selected: true }).waitFor();
    await adminPage.getByLabel('Upgrade verdict').waitFor();
    // Long enough for the stream to be established and a refusal to arrive, were there one.
    await adminPage.waitForTimeout(1500);
    assert.equal(await adminPage.getByText(NOT_LIVE).count(), 0);
    await adminPage.close();
  });
});
