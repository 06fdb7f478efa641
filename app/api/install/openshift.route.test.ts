// OpenShift's install options through the plan and apply routes against the sandbox's OpenShift
// flavour, as a console page sends them. What OpenShift writes — ROLEARN in spec.config.env with
// Manual approval, the openshift.io/cluster-monitoring label with Role and RoleBinding
// <ns>-prometheus for openshift-monitoring/prometheus-k8s, the plugin in Console cluster's
// spec.plugins — is from openshift/console's operator-hub-subscribe.tsx; it is read back from the
// cluster with the admin's client, not from the routes' answers.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import { isKubeError } from '@/lib/k8s/errors';
import { retryPolicy } from '@/lib/k8s/retry';
import type { InstallPlanResult } from '@/lib/olm/install/plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { NAMESPACE_TYPE } from '@/lib/server/install';
import { AUTHENTICATION_TYPE, CLOUD_CREDENTIAL_TYPE, CONSOLE_OPERATOR_TYPE } from '@/lib/server/openshift-install';
import { routeSandbox } from '@/lib/server/testing/route-sandbox';

type Handler = (req: Request) => Promise<Response>;
type ErrorBody = {
  error: {
    code: number;
    reason: string;
    message: string;
    details?: { blockers?: { code: string; message: string }[]; rolledBack?: { kind: string }[] };
  };
};
const ROLE = { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'roles', namespaced: true, kind: 'Role' };
const BINDING = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'rolebindings',
  namespaced: true,
  kind: 'RoleBinding',
};
const demo = { namespace: 'openshift-marketplace', name: 'olm-console-demo' };
const ARN = 'arn:aws:iam::123456789012:role/vaultkeeper';

describe('OpenShift install options through /api/install/plan and /api/install', () => {
  const sb = routeSandbox({ flavor: 'openshift' });
  let plan: Handler;
  let apply: Handler;
  let admin: KubeClient;
  before(async () => {
    plan = (await import('./plan/route')).POST;
    apply = (await import('./route')).POST;
    admin = sb.admin;
  });

  const send = <T>(h: Handler, body: unknown, user = 'admin') =>
    sb.call<T & ErrorBody>(h, '/api/install', { method: 'POST', user, body });
  const vaultkeeper = (over: Record<string, unknown> = {}) => ({
    catalog: demo,
    package: 'vaultkeeper',
    channel: 'stable',
    namespace: 'vault',
    installMode: 'OwnNamespace',
    approval: 'Automatic',
    ...over,
  });

  test('not in token mode: nothing offered, and token values are refused with why', async () => {
    const p = await send<InstallPlanResult>(plan, vaultkeeper());
    assert.equal(p.status, 200);
    assert.equal(p.body.openshift?.tokenAuth.offered, false);
    assert.match(p.body.openshift!.tokenAuth.reason, /not Manual/);
    const refused = await send<InstallPlanResult>(apply, vaultkeeper({ tokenAuth: { aws: { roleARN: ARN } } }));
    assert.equal(refused.status, 409);
    assert.match(refused.body.error.message, /cloud token authentication does not apply/);
  });

  test("AWS STS switched on: ROLEARN in the Subscription's spec.config.env, Manual approval", async () => {
    await admin.patch(CLOUD_CREDENTIAL_TYPE, 'cluster', { spec: { credentialsMode: 'Manual' } }, { type: 'merge' });
    await admin.patch(
      AUTHENTICATION_TYPE,
      'cluster',
      { spec: { serviceAccountIssuer: 'https://oidc.sandbox.example.com' } },
      { type: 'merge' },
    );
    const p = await send<InstallPlanResult>(plan, vaultkeeper());
    assert.equal(p.body.openshift?.tokenAuth.offered, true);
    assert.equal(p.body.openshift?.tokenAuth.provider, 'AWS');
    assert.equal(p.body.approval, 'Manual', 'OpenShift makes it Manual even before a value is given');
    const bad = await send(plan, vaultkeeper({ tokenAuth: { aws: { roleARN: 'my-role' } } }));
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /tokenAuth/);
    const a = await send<{ approval: string }>(apply, vaultkeeper({ tokenAuth: { aws: { roleARN: ARN } } }));
    assert.equal(a.status, 201, JSON.stringify(a.body));
    const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'vaultkeeper', 'vault');
    assert.equal(sub.spec.installPlanApproval, 'Manual');
    assert.deepEqual((sub.spec.config as { env?: unknown }).env, [{ name: 'ROLEARN', value: ARN }]);
  });

  test("monitoring and a plugin: the labelled namespace, Prometheus' Role and RoleBinding, the plugin enabled", async () => {
    const body = {
      catalog: demo,
      package: 'routekit',
      channel: 'stable',
      namespace: 'openshift-routekit',
      installMode: 'AllNamespaces',
      approval: 'Automatic',
      clusterMonitoring: true,
      enablePlugins: ['routekit-console'],
    };
    const p = await send<InstallPlanResult>(plan, body);
    assert.deepEqual(p.body.blockers, []);
    assert.deepEqual(
      p.body.objects.map((o) => `${o.action} ${o.kind}`),
      [
        'create Namespace',
        'create Role',
        'create RoleBinding',
        'create OperatorGroup',
        'create Subscription',
        'patch Console',
      ],
    );
    assert.ok(p.body.warnings.some((w) => w.code === 'untrustedPlugin'));
    const a = await send<{ changed: { kind: string }[] }>(apply, body);
    assert.equal(a.status, 201, JSON.stringify(a.body));
    assert.deepEqual(
      a.body.changed.map((c) => c.kind),
      ['Console'],
    );
    const ns = await admin.get<{ metadata: { labels?: Record<string, string> } }>(NAMESPACE_TYPE, 'openshift-routekit');
    assert.equal(ns.metadata.labels?.['openshift.io/cluster-monitoring'], 'true');
    const role = await admin.get<{ rules: unknown }>(ROLE, 'openshift-routekit-prometheus', 'openshift-routekit');
    assert.deepEqual(role.rules, [
      { apiGroups: [''], resources: ['services', 'endpoints', 'pods'], verbs: ['get', 'list', 'watch'] },
    ]);
    const rb = await admin.get<{ subjects: unknown; roleRef: unknown }>(
      BINDING,
      'openshift-routekit-prometheus',
      'openshift-routekit',
    );
    assert.deepEqual(rb.subjects, [
      { kind: 'ServiceAccount', name: 'prometheus-k8s', namespace: 'openshift-monitoring' },
    ]);
    const console = await admin.get<{ spec: { plugins?: string[] } }>(CONSOLE_OPERATOR_TYPE, 'cluster');
    assert.deepEqual(console.spec.plugins, ['routekit-console']);
  });

  test('a failure before the Console change removes the Role, RoleBinding and namespace, and leaves the Console as it was', async () => {
    await admin.patch(CONSOLE_OPERATOR_TYPE, 'cluster', { spec: { plugins: ['someone-elses'] } }, { type: 'merge' });
    assert.ok(
      sb.faults.apply({
        failCreate: {
          resource: 'subscriptions',
          namespace: 'openshift-routekit-two',
          times: retryPolicy().maxAttempts,
        },
      }).ok,
    );
    const body = {
      catalog: demo,
      package: 'routekit',
      channel: 'stable',
      namespace: 'openshift-routekit-two',
      installMode: 'AllNamespaces',
      approval: 'Automatic',
      clusterMonitoring: true,
      enablePlugins: ['routekit-console'],
    };
    const a = await send(apply, body);
    assert.equal(a.status, 500);
    assert.deepEqual(
      a.body.error.details?.rolledBack?.map((r) => r.kind),
      ['OperatorGroup', 'RoleBinding', 'Role', 'Namespace'],
    );
    const console = await admin.get<{ spec: { plugins?: string[] } }>(CONSOLE_OPERATOR_TYPE, 'cluster');
    assert.deepEqual(console.spec.plugins, ['someone-elses']);
    await assert.rejects(admin.get(ROLE, 'openshift-routekit-two-prometheus', 'openshift-routekit-two'), (e) =>
      isKubeError(e, 404),
    );
  });

  test('monitoring on an openshift-* namespace that already exists: refused with how to label it by hand, nothing written', async () => {
    await admin.create(NAMESPACE_TYPE, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'openshift-routekit-mine' },
    });
    const body = {
      catalog: demo,
      package: 'routekit',
      channel: 'stable',
      namespace: 'openshift-routekit-mine',
      installMode: 'AllNamespaces',
      approval: 'Automatic',
    };
    const p = await send<InstallPlanResult>(plan, body);
    assert.equal(p.body.openshift?.monitoring.offered, false);
    assert.match(p.body.openshift!.monitoring.reason!, /already exists/);
    const refused = await send(apply, { ...body, clusterMonitoring: true });
    assert.equal(refused.status, 409);
    assert.match(
      refused.body.error.message,
      /oc label namespace openshift-routekit-mine openshift\.io\/cluster-monitoring=true/,
    );
    const ns = await admin.get<{ metadata: { labels?: Record<string, string> } }>(
      NAMESPACE_TYPE,
      'openshift-routekit-mine',
    );
    assert.equal(ns.metadata.labels?.['openshift.io/cluster-monitoring'], undefined);
    await assert.rejects(admin.get(ROLE, 'openshift-routekit-mine-prometheus', 'openshift-routekit-mine'), (e) =>
      isKubeError(e, 404),
    );
  });

  test('a person who may not change the Console is told so, and cannot enable a plugin', async () => {
    // alice administers team1 only: she sees the catalog from there.
    const body = {
      catalog: demo,
      package: 'routekit',
      channel: 'stable',
      namespace: 'team1',
      viewerNamespace: 'team1',
      installMode: 'AllNamespaces',
      approval: 'Automatic',
    };
    const p = await send<InstallPlanResult>(plan, body, 'alice');
    assert.equal(p.status, 200, JSON.stringify(p.body));
    assert.equal(p.body.openshift?.plugins.offered, false);
    assert.match(
      p.body.openshift!.plugins.reason!,
      /^(you may not change Console cluster|plugins are enabled in Console cluster .* you may not read)/,
    );
    const refused = await send(plan, { ...body, enablePlugins: ['routekit-console'] }, 'alice');
    assert.match(JSON.stringify(refused.body), /console plugins cannot be enabled/);
  });
});
