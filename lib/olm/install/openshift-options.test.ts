// Expectations are OpenShift's, read in openshift/console
// (frontend/packages/operator-lifecycle-manager/src/components/operator-hub/operator-hub-subscribe.tsx,
// operator-hub-utils.ts, src/utils.ts) and openshift/api (CloudCredential's credentialsMode enum).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  csvOpenShiftOptions,
  missingTokenValues,
  openShiftOptions,
  pluginsAfter,
  prometheusRbac,
  tokenAuthEnv,
  tokenAuthMode,
  type OpenShiftClusterFacts,
} from './openshift-options';

const read = <T>(object: T) => ({ state: 'read' as const, object });

function cluster(platform: string, mode: string, issuer: string, plugins: string[] = []): OpenShiftClusterFacts {
  return {
    infrastructure: read({ status: { platform, platformStatus: { type: platform } } }),
    authentication: read({ spec: { serviceAccountIssuer: issuer } }),
    cloudCredential: read({ spec: { credentialsMode: mode } }),
    console: read({ metadata: { resourceVersion: '5' }, spec: { plugins } }),
  };
}

test('token mode: Manual credentials, an issuer and a cloud platform, for each of the three clouds', () => {
  for (const p of ['AWS', 'Azure', 'GCP'] as const)
    assert.equal(tokenAuthMode(cluster(p, 'Manual', 'https://oidc.example.com')).provider, p);
  assert.equal(tokenAuthMode(cluster('AWS', 'Mint', 'https://oidc.example.com')).provider, undefined);
  assert.equal(tokenAuthMode(cluster('AWS', '', 'https://oidc.example.com')).provider, undefined);
  assert.match(tokenAuthMode(cluster('AWS', 'Manual', '')).text, /no service account issuer/);
  assert.match(tokenAuthMode(cluster('BareMetal', 'Manual', 'https://x')).text, /platform is BareMetal/);
  // The deprecated status.platform alone still says the platform (OpenShift's console reads it).
  const old = { ...cluster('AWS', 'Manual', 'https://x'), infrastructure: read({ status: { platform: 'AWS' } }) };
  assert.equal(tokenAuthMode(old).provider, 'AWS');
});

test('token mode unknown when an object cannot be read, and it says which and why', () => {
  const c = {
    ...cluster('AWS', 'Manual', 'https://x'),
    cloudCredential: { state: 'forbidden' as const, reason: 'cloudcredentials is forbidden' },
  };
  const m = tokenAuthMode(c);
  assert.equal(m.provider, undefined);
  assert.match(m.text, /you may not read CloudCredential cluster \(cloudcredentials is forbidden\)/);
});

test('the CSV declares support per cloud, plugins as a JSON list, monitoring as "true"', () => {
  const o = csvOpenShiftOptions({
    'features.operators.openshift.io/token-auth-aws': 'true',
    'features.operators.openshift.io/token-auth-azure': 'false',
    'console.openshift.io/plugins': '["a-plugin", "b-plugin"]',
    'operatorframework.io/cluster-monitoring': 'true',
  });
  assert.deepEqual(o, { tokenAuth: ['AWS'], plugins: ['a-plugin', 'b-plugin'], clusterMonitoring: true });
  assert.deepEqual(csvOpenShiftOptions({ 'console.openshift.io/plugins': '{"a":1}' }).plugins, []);
  assert.deepEqual(csvOpenShiftOptions({ 'console.openshift.io/plugins': 'not json' }).plugins, []);
  assert.equal(csvOpenShiftOptions({ 'operatorframework.io/cluster-monitoring': 'True ' }).clusterMonitoring, false);
});

test("the variables OpenShift's console writes, in its order, empty ones left out", () => {
  assert.deepEqual(tokenAuthEnv('AWS', { roleARN: 'arn:aws:iam::123456789012:role/x' }), [
    { name: 'ROLEARN', value: 'arn:aws:iam::123456789012:role/x' },
  ]);
  assert.deepEqual(
    tokenAuthEnv('Azure', { clientID: 'c', tenantID: 't', subscriptionID: 's', resourceGroup: '' }).map((e) => e.name),
    ['CLIENTID', 'TENANTID', 'SUBSCRIPTIONID'],
  );
  assert.deepEqual(
    tokenAuthEnv('GCP', { projectNumber: '1', poolID: 'p', providerID: 'q', serviceAccountEmail: 'e@x' }).map(
      (e) => e.name,
    ),
    ['PROJECT_NUMBER', 'POOL_ID', 'PROVIDER_ID', 'SERVICE_ACCOUNT_EMAIL'],
  );
  assert.deepEqual(missingTokenValues('Azure', { clientID: 'c' }), ['Azure tenant ID', 'Azure subscription ID']);
});

test('what is offered, and why not', () => {
  const csv = { tokenAuth: ['AWS' as const], plugins: ['gpu-forge-console'], clusterMonitoring: true };
  const on = openShiftOptions({
    csv,
    cluster: cluster('AWS', 'Manual', 'https://x'),
    catalogName: 'redhat-operators',
    namespace: 'openshift-gpu',
    createsNamespace: true,
  });
  assert.equal(on.tokenAuth.offered, true);
  assert.deepEqual(
    on.tokenAuth.fields.map((f) => f.env),
    ['ROLEARN'],
  );
  assert.deepEqual({ offered: on.plugins.offered, trusted: on.plugins.trusted }, { offered: true, trusted: true });
  assert.equal(on.monitoring.offered, true);

  const azure = openShiftOptions({
    csv,
    cluster: cluster('Azure', 'Manual', 'https://x'),
    catalogName: 'demo',
    namespace: 'gpu',
    createsNamespace: true,
  });
  assert.match(azure.tokenAuth.reason, /does not declare features\.operators\.openshift\.io\/token-auth-azure/);
  assert.equal(azure.plugins.trusted, false, 'only redhat-operators is trusted');
  assert.match(azure.monitoring.reason!, /starts with openshift-/);

  const existing = openShiftOptions({
    csv,
    cluster: { ...cluster('AWS', '', ''), pluginsDenied: 'not allowed' },
    catalogName: 'demo',
    namespace: 'openshift-gpu',
    createsNamespace: false,
  });
  assert.match(existing.monitoring.reason!, /already exists/);
  assert.match(existing.plugins.reason!, /you may not change Console cluster: not allowed/);
  const noConsole = openShiftOptions({
    csv,
    cluster: { ...cluster('AWS', '', ''), console: { state: 'absent' } },
    catalogName: 'demo',
    namespace: 'x',
    createsNamespace: true,
  });
  assert.match(noConsole.plugins.reason!, /Console cluster does not exist/);
});

test('plugins are added once, what is enabled kept', () => {
  assert.deepEqual(pluginsAfter(['other'], ['p', 'other', 'p']), ['other', 'p']);
});

test("Prometheus' Role and RoleBinding, named and scoped as OpenShift's console makes them", () => {
  const r = prometheusRbac('openshift-gpu');
  assert.equal(r.name, 'openshift-gpu-prometheus');
  assert.deepEqual((r.role as { rules: unknown }).rules, [
    { apiGroups: [''], resources: ['services', 'endpoints', 'pods'], verbs: ['get', 'list', 'watch'] },
  ]);
  assert.deepEqual((r.binding as { subjects: unknown }).subjects, [
    { kind: 'ServiceAccount', name: 'prometheus-k8s', namespace: 'openshift-monitoring' },
  ]);
  assert.deepEqual((r.binding as { roleRef: unknown }).roleRef, {
    apiGroup: 'rbac.authorization.k8s.io',
    kind: 'Role',
    name: 'openshift-gpu-prometheus',
  });
});
