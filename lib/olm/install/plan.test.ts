import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InstallMode } from '../resources/cluster-service-version';
import type { OperatorGroup } from '../resources/operator-group';
import type { Subscription } from '../resources/subscription';
import { planInstall, type InstallFacts } from './plan';

const allModes: InstallMode[] = ['AllNamespaces', 'OwnNamespace', 'SingleNamespace', 'MultiNamespace'].map((type) => ({
  type: type as InstallMode['type'],
  supported: true,
}));

function facts(over: Partial<InstallFacts> = {}, req: Partial<InstallFacts['request']> = {}): InstallFacts {
  return {
    request: {
      catalog: { namespace: 'olm', name: 'demo' },
      package: 'gatewise',
      channel: 'stable',
      namespace: 'gw',
      installMode: 'OwnNamespace',
      approval: 'Automatic',
      ...req,
    },
    version: {
      csvName: 'gatewise.v1.0.0',
      isHead: true,
      installModes: allModes,
      providedApis: ['Gateway.v1.net.example.com'],
      nonStandalone: false,
      deprecations: [],
    },
    catalog: {},
    namespaceExists: true,
    operatorGroups: [],
    subscriptions: [],
    denied: {},
    ...over,
  };
}

const sub = (name: string, pkg: string, approval: 'Automatic' | 'Manual'): Subscription => ({
  metadata: { name, namespace: 'gw' },
  spec: { name: pkg, source: 'demo', sourceNamespace: 'olm', channel: 'stable', installPlanApproval: approval },
});

test("a fresh namespace gets a group targeting itself, labelled as the console's", () => {
  const p = planInstall(facts({ namespaceExists: false }));
  assert.deepEqual(
    p.objects.map((o) => `${o.action} ${o.kind} ${o.name}`),
    ['create Namespace gw', 'create OperatorGroup gw-operators', 'create Subscription gatewise'],
  );
  const og = p.objects[1]!.object as OperatorGroup;
  assert.deepEqual(og.spec, { targetNamespaces: ['gw'] });
  assert.equal(og.metadata?.labels?.['olm-console.io/created-by'], 'olm-console');
  assert.deepEqual(p.blockers, []);
});

test('an overlapping group that already provides the same API: InterOperatorGroupOwnerConflict ahead', () => {
  const other: OperatorGroup = {
    metadata: {
      name: 'global',
      namespace: 'operators',
      annotations: { 'olm.providedAPIs': 'Gateway.v1.net.example.com' },
    },
    spec: {},
    status: { namespaces: [''] },
  };
  const unrelated: OperatorGroup = {
    metadata: { name: 'x', namespace: 'x', annotations: { 'olm.providedAPIs': 'Gateway.v1.net.example.com' } },
    spec: { targetNamespaces: ['x'] },
    status: { namespaces: ['x'] },
  };
  const p = planInstall(facts({ clusterGroups: [other, unrelated] }));
  const w = p.warnings.filter((n) => n.code === 'providedApiConflict');
  assert.equal(w.length, 1);
  assert.match(w[0]!.message, /OperatorGroup global in operators .* InterOperatorGroupOwnerConflict/);
});

test('approval is shared in a namespace, both ways', () => {
  const toManual = planInstall(facts({ subscriptions: [sub('a', 'a', 'Automatic')] }, { approval: 'Manual' }));
  assert.ok(toManual.warnings.some((w) => w.code === 'manualAffectsOthers' && /\(a\)/.test(w.message)));
  const toAuto = planInstall(facts({ subscriptions: [sub('m', 'm', 'Manual')] }));
  assert.ok(toAuto.warnings.some((w) => w.code === 'sharedApprovalManual'));
});

test('a Subscription name held by another package blocks; the same one is reused', () => {
  const taken = planInstall(facts({ subscriptions: [sub('gatewise', 'routekit', 'Automatic')] }));
  assert.deepEqual(
    taken.blockers.map((b) => b.code),
    ['subscriptionNameTaken'],
  );
  const same = planInstall(
    facts({
      subscriptions: [sub('gatewise', 'gatewise', 'Automatic')],
      operatorGroups: [{ metadata: { name: 'g', namespace: 'gw' }, spec: { targetNamespaces: ['gw'] } }],
    }),
  );
  assert.equal(same.alreadyInstalled, true);
  assert.deepEqual(
    same.objects.map((o) => o.action),
    ['reuse', 'reuse', 'reuse'],
  );
});

test('community catalogs, deprecations and non-standalone packages are said', () => {
  const p = planInstall(
    facts({
      catalog: { displayName: 'Community Operators' },
      version: {
        ...facts().version,
        nonStandalone: true,
        deprecations: ['package gatewise is deprecated: use routekit'],
      },
    }),
  );
  assert.deepEqual(p.warnings.map((w) => w.code).sort(), ['communityCatalog', 'deprecated', 'nonStandalone']);
});

test('a namespace the person may neither read nor create is assumed to exist', () => {
  const p = planInstall(facts({ namespaceExists: 'unknown', denied: { createNamespace: 'no' } }));
  assert.equal(p.objects[0]!.action, 'reuse');
  assert.deepEqual(p.blockers, []);
  assert.ok(p.warnings.some((w) => w.code === 'namespaceUnknown'));
});

test('MultiNamespace needs two namespaces; SingleNamespace another one', () => {
  assert.match(
    planInstall(facts({}, { installMode: 'MultiNamespace', targetNamespaces: ['a'] })).blockers[0]!.message,
    /at least two/,
  );
  assert.match(
    planInstall(facts({}, { installMode: 'SingleNamespace', targetNamespaces: ['gw'] })).blockers[0]!.message,
    /is OwnNamespace/,
  );
  const multi = planInstall(facts({}, { installMode: 'MultiNamespace', targetNamespaces: ['b', 'a'] }));
  assert.deepEqual((multi.objects[1]!.object as OperatorGroup).spec?.targetNamespaces, ['a', 'b']);
});

test('dependencies are said: OLM installs them with their own Subscriptions', () => {
  const p = planInstall(
    facts({
      version: {
        ...facts().version,
        requiredPackages: [{ packageName: 'certwarden', versionRange: '>=1.0.0 <2.0.0' }],
        requiredApis: ['Certificate.v1.certwarden.example.com'],
      },
    }),
  );
  const w = p.warnings.find((n) => n.code === 'dependencies')!;
  assert.match(
    w.message,
    /package certwarden >=1\.0\.0 <2\.0\.0, an operator providing Certificate\.v1\.certwarden\.example\.com/,
  );
});

test('the pod configuration goes into the Subscription; the same install with another configuration is not the same', () => {
  const config = {
    nodeSelector: { 'node-role.kubernetes.io/infra': '' },
    env: [{ name: 'LOG_LEVEL', value: 'debug' }],
  };
  const p = planInstall(facts({}, { config }));
  assert.deepEqual(
    (p.objects.find((o) => o.kind === 'Subscription')!.object as unknown as Subscription).spec.config,
    config,
  );
  const existing: Subscription = {
    ...sub('gatewise', 'gatewise', 'Automatic'),
    spec: {
      ...sub('gatewise', 'gatewise', 'Automatic').spec,
      config: { env: [{ value: 'debug', name: 'LOG_LEVEL' }], nodeSelector: { 'node-role.kubernetes.io/infra': '' } },
    },
  };
  assert.equal(
    planInstall(facts({ subscriptions: [existing] }, { config })).alreadyInstalled,
    true,
    'key order aside, the same',
  );
  const other = planInstall(facts({ subscriptions: [existing] }, { config: { nodeSelector: { zone: 'a' } } }));
  assert.equal(other.alreadyInstalled, false);
  assert.match(other.blockers[0]!.message, /with another pod configuration/);
});

const bundleCsv = {
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'ClusterServiceVersion',
  metadata: { name: 'gatewise.v1.0.0' },
  spec: {
    install: {
      strategy: 'deployment',
      spec: {
        permissions: [{ serviceAccountName: 'gw', rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }],
      },
    },
  },
} as never;

test('a new group named with a service account: the account before the group, the group names it', () => {
  const p = planInstall(
    facts(
      { serviceAccounts: [], bundle: { csv: bundleCsv, objects: [] } },
      { serviceAccount: { name: 'installer', grant: false } },
    ),
  );
  assert.deepEqual(
    p.objects.map((o) => `${o.action} ${o.kind} ${o.name}`),
    [
      'reuse Namespace gw',
      'create ServiceAccount installer',
      'create OperatorGroup gw-operators',
      'create Subscription gatewise',
    ],
  );
  assert.equal((p.objects[2]!.object as OperatorGroup).spec?.serviceAccountName, 'installer');
  assert.deepEqual(
    [p.scoped?.serviceAccount, p.scoped?.groupIsNew, p.scoped?.granted, p.scoped?.accountExists],
    ['installer', true, false, false],
  );
  // Not granted: the Role is there to hand over, and the plan says the InstallPlan will wait.
  assert.ok(p.scoped?.rbac.objects.some((o) => o.kind === 'Role'));
  assert.match(
    p.warnings.find((w) => w.code === 'scopedInstall')?.message ?? '',
    /installer's rights.*InstallPlan waits/,
  );
});

test('granting creates the Role and binding before the group; refused without the right to', () => {
  const p = planInstall(
    facts(
      { serviceAccounts: ['installer'], bundle: { csv: bundleCsv, objects: [] } },
      { serviceAccount: { name: 'installer', grant: true } },
    ),
  );
  assert.deepEqual(
    p.objects.map((o) => `${o.action} ${o.kind}`),
    [
      'reuse Namespace',
      'reuse ServiceAccount',
      'create Role',
      'create RoleBinding',
      'create OperatorGroup',
      'create Subscription',
    ],
  );
  const denied = planInstall(
    facts(
      {
        serviceAccounts: ['installer'],
        bundle: { csv: bundleCsv, objects: [] },
        denied: { grantRbac: 'RBAC: no create on roles' },
      },
      { serviceAccount: { name: 'installer', grant: true } },
    ),
  );
  assert.match(
    denied.blockers.map((b) => b.message).join(),
    /may not grant service account installer its rights: RBAC: no create on roles/,
  );
});

test("an existing group's account is used, and another one cannot be asked for", () => {
  const group: OperatorGroup = {
    metadata: { name: 'scoped', namespace: 'gw' },
    spec: { targetNamespaces: ['gw'], serviceAccountName: 'deployer' },
  };
  const p = planInstall(facts({ operatorGroups: [group], serviceAccounts: ['deployer'] }));
  assert.deepEqual(
    [p.scoped?.serviceAccount, p.scoped?.groupIsNew, p.scoped?.accountExists],
    ['deployer', false, true],
  );
  assert.match(p.scoped?.rbac.unknownRules ?? '', /not read/);
  const other = planInstall(
    facts(
      { operatorGroups: [group], serviceAccounts: ['deployer'] },
      { serviceAccount: { name: 'installer', grant: false } },
    ),
  );
  assert.deepEqual(
    other.blockers.map((b) => b.code),
    ['serviceAccountMismatch'],
  );
  const plain = planInstall(
    facts(
      { operatorGroups: [{ metadata: { name: 'g', namespace: 'gw' }, spec: { targetNamespaces: ['gw'] } }] },
      { serviceAccount: { name: 'installer', grant: false } },
    ),
  );
  assert.match(plain.blockers[0]?.message ?? '', /names no service account/);
});

test('a missing account the person may not create: a blocker for a new group, a warning for an existing one', () => {
  const denied = { createServiceAccount: 'no create on serviceaccounts' };
  const mine = planInstall(
    facts({ serviceAccounts: [], denied }, { serviceAccount: { name: 'installer', grant: false } }),
  );
  assert.match(mine.blockers.map((b) => b.message).join(), /installer does not exist .* may not create it/);
  const theirs = planInstall(
    facts({
      operatorGroups: [
        {
          metadata: { name: 's', namespace: 'gw' },
          spec: { targetNamespaces: ['gw'], serviceAccountName: 'installer' },
        },
      ],
      serviceAccounts: [],
      denied,
    }),
  );
  assert.deepEqual(theirs.blockers, []);
  assert.ok(theirs.warnings.some((w) => /installs nothing here until it exists/.test(w.message)));
});

test('dependencies: their rules are in the grant when they could be resolved, said missing when not', () => {
  const version = { ...facts().version, requiredPackages: [{ packageName: 'tenant-core', versionRange: '>=0.1.0' }] };
  const dep = {
    csv: {
      ...(bundleCsv as object),
      metadata: { name: 'tenant-core.v0.3.0' },
      spec: {
        install: {
          strategy: 'deployment',
          spec: {
            permissions: [
              {
                serviceAccountName: 't',
                rules: [{ apiGroups: ['tenancy.example.com'], resources: ['tenants'], verbs: ['*'] }],
              },
            ],
          },
        },
      },
    },
    objects: [],
  } as never;
  const resolved = planInstall(
    facts(
      {
        version,
        serviceAccounts: [],
        bundle: { csv: bundleCsv, objects: [] },
        dependencyBundles: { names: ['tenant-core.v0.3.0'], contents: [dep] },
      },
      { serviceAccount: { name: 'installer', grant: true } },
    ),
  );
  assert.equal(resolved.scoped?.dependencies?.included, true);
  const role = resolved.scoped?.rbac.objects.find((o) => o.kind === 'Role') as { rules: { apiGroups?: string[] }[] };
  assert.ok(
    role.rules.some((r) => r.apiGroups?.includes('tenancy.example.com')),
    'the dependency’s own rule is granted',
  );
  const unknown = planInstall(
    facts(
      { version, serviceAccounts: [], bundle: { csv: bundleCsv, objects: [] } },
      { serviceAccount: { name: 'installer', grant: true } },
    ),
  );
  assert.equal(unknown.scoped?.dependencies?.included, false);
  assert.match(unknown.scoped?.dependencies?.message ?? '', /with rules not in this Role/);
});

// OpenShift's install options in the plan: expectations from openshift/console's
// operator-hub-subscribe.tsx (env names, Manual approval, label, Role/RoleBinding, Console patch).
const osCluster = (mode: string, issuer: string): NonNullable<InstallFacts['openshiftCluster']> => ({
  infrastructure: { state: 'read', object: { status: { platformStatus: { type: 'AWS' } } } },
  authentication: { state: 'read', object: { spec: { serviceAccountIssuer: issuer } } },
  cloudCredential: { state: 'read', object: { spec: { credentialsMode: mode } } },
  console: { state: 'read', object: { spec: { plugins: ['kept'] } } },
});
const osVersion = {
  csvName: 'gpu.v1',
  isHead: true,
  installModes: allModes,
  providedApis: [],
  nonStandalone: false,
  deprecations: [],
  openshiftOptions: { tokenAuth: ['AWS' as const], plugins: ['gpu-console'], clusterMonitoring: true },
};

test('OpenShift in AWS STS mode: ROLEARN in spec.config.env beside the pod configuration, and Manual approval', () => {
  const p = planInstall(
    facts(
      { version: osVersion, openshiftCluster: osCluster('Manual', 'https://oidc.example.com') },
      {
        config: { env: [{ name: 'LOG', value: 'debug' }] },
        openshift: { tokenAuth: { provider: 'AWS', values: { roleARN: 'arn:aws:iam::123456789012:role/gpu' } } },
      },
    ),
  );
  assert.deepEqual(p.blockers, []);
  assert.equal(p.approval, 'Manual');
  const s = p.objects.find((o) => o.kind === 'Subscription')!.object as unknown as Subscription;
  assert.equal(s.spec.installPlanApproval, 'Manual');
  assert.deepEqual((s.spec.config as { env: unknown }).env, [
    { name: 'LOG', value: 'debug' },
    { name: 'ROLEARN', value: 'arn:aws:iam::123456789012:role/gpu' },
  ]);
  assert.ok(p.warnings.some((w) => w.code === 'tokenAuthForcesManual'));
  assert.equal(p.openshift?.tokenAuth.offered, true);
});

test('token values on a cluster not in token mode are refused with why', () => {
  const p = planInstall(
    facts(
      { version: osVersion, openshiftCluster: osCluster('', '') },
      { openshift: { tokenAuth: { provider: 'AWS', values: { roleARN: 'arn:aws:iam::123456789012:role/gpu' } } } },
    ),
  );
  assert.match(p.blockers[0]!.message, /cloud token authentication does not apply: .*not Manual/);
  assert.equal(p.approval, 'Automatic');
});

test("monitoring and a plugin: the labelled namespace, Prometheus' Role and RoleBinding after it, the Console changed last", () => {
  const p = planInstall(
    facts(
      { version: osVersion, namespaceExists: false, openshiftCluster: osCluster('', '') },
      { namespace: 'openshift-gpu', openshift: { clusterMonitoring: true, enablePlugins: ['gpu-console'] } },
    ),
  );
  assert.deepEqual(p.blockers, []);
  assert.deepEqual(
    p.objects.map((o) => `${o.action} ${o.kind} ${o.name}`),
    [
      'create Namespace openshift-gpu',
      'create Role openshift-gpu-prometheus',
      'create RoleBinding openshift-gpu-prometheus',
      'create OperatorGroup openshift-gpu-operators',
      'create Subscription gatewise',
      'patch Console cluster',
    ],
  );
  assert.deepEqual((p.objects[0]!.object as { metadata: { labels: unknown } }).metadata.labels, {
    'openshift.io/cluster-monitoring': 'true',
  });
  const console = p.objects.at(-1)!;
  assert.deepEqual((console.object as { spec: unknown }).spec, { plugins: ['kept', 'gpu-console'] });
  assert.deepEqual(console.adds, ['gpu-console']);
  assert.ok(
    p.warnings.some((w) => w.code === 'untrustedPlugin'),
    'demo is not redhat-operators',
  );
});

test('monitoring for an existing namespace, a plugin the CSV does not declare, options off OpenShift: blocked', () => {
  const p = planInstall(
    facts(
      { version: osVersion, openshiftCluster: osCluster('', '') },
      { namespace: 'openshift-gpu', openshift: { clusterMonitoring: true, enablePlugins: ['other'] } },
    ),
  );
  assert.deepEqual(
    p.blockers.map((b) => b.code),
    ['optionNotApplicable', 'optionNotApplicable'],
  );
  assert.match(p.blockers.map((b) => b.message).join('\n'), /no console plugin named other[\s\S]*already exists/);
  const up = planInstall(facts({ version: osVersion }, { openshift: { clusterMonitoring: true } }));
  assert.match(up.blockers[0]!.message, /this cluster is not OpenShift/);
  assert.equal(up.openshift, undefined);
});

test('monitoring asked where the CSV was not read: refused as not known, not as "does not ask"', () => {
  const p = planInstall(
    facts(
      {
        version: { ...osVersion, openshiftOptions: undefined },
        namespaceExists: false,
        openshiftCluster: osCluster('', ''),
      },
      { namespace: 'openshift-gpu', openshift: { clusterMonitoring: true } },
    ),
  );
  assert.match(
    p.blockers[0]!.message,
    /cluster monitoring cannot be enabled: whether this version asks for cluster monitoring is not known/,
  );
  assert.ok(!p.objects.some((o) => o.kind === 'Role'));
  const existing = planInstall(
    facts(
      { version: osVersion, openshiftCluster: osCluster('', '') },
      { namespace: 'openshift-gpu', openshift: { clusterMonitoring: true } },
    ),
  );
  assert.match(
    existing.blockers[0]!.message,
    /label it by hand \(oc label namespace openshift-gpu openshift\.io\/cluster-monitoring=true\)/,
  );
});
