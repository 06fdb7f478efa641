import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InstallMode } from '../resources/cluster-service-version';
import type { OperatorGroup } from '../resources/operator-group';
import type { Subscription } from '../resources/subscription';
import { planInstall, type InstallFacts } from './plan';

const allModes: InstallMode[] = ['AllNamespaces', 'OwnNamespace', 'SingleNamespace', 'MultiNamespace'].map((type) => ({ type: type as InstallMode['type'], supported: true }));

function facts(over: Partial<InstallFacts> = {}, req: Partial<InstallFacts['request']> = {}): InstallFacts {
  return {
    request: { catalog: { namespace: 'olm', name: 'demo' }, package: 'gatewise', channel: 'stable', namespace: 'gw', installMode: 'OwnNamespace', approval: 'Automatic', ...req },
    version: { csvName: 'gatewise.v1.0.0', isHead: true, installModes: allModes, providedApis: ['Gateway.v1.net.example.com'], nonStandalone: false, deprecations: [] },
    catalog: {},
    namespaceExists: true,
    operatorGroups: [],
    subscriptions: [],
    denied: {},
    ...over,
  };
}

const sub = (name: string, pkg: string, approval: 'Automatic' | 'Manual'): Subscription => ({ metadata: { name, namespace: 'gw' }, spec: { name: pkg, source: 'demo', sourceNamespace: 'olm', channel: 'stable', installPlanApproval: approval } });

test('a fresh namespace gets a group targeting itself, labelled as the console\'s', () => {
  const p = planInstall(facts({ namespaceExists: false }));
  assert.deepEqual(p.objects.map((o) => `${o.action} ${o.kind} ${o.name}`), ['create Namespace gw', 'create OperatorGroup gw-operators', 'create Subscription gatewise']);
  const og = p.objects[1]!.object as OperatorGroup;
  assert.deepEqual(og.spec, { targetNamespaces: ['gw'] });
  assert.equal(og.metadata?.labels?.['olm-console.io/created-by'], 'olm-console');
  assert.deepEqual(p.blockers, []);
});

test('an overlapping group that already provides the same API: InterOperatorGroupOwnerConflict ahead', () => {
  const other: OperatorGroup = { metadata: { name: 'global', namespace: 'operators', annotations: { 'olm.providedAPIs': 'Gateway.v1.net.example.com' } }, spec: {}, status: { namespaces: [''] } };
  const unrelated: OperatorGroup = { metadata: { name: 'x', namespace: 'x', annotations: { 'olm.providedAPIs': 'Gateway.v1.net.example.com' } }, spec: { targetNamespaces: ['x'] }, status: { namespaces: ['x'] } };
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
  assert.deepEqual(taken.blockers.map((b) => b.code), ['subscriptionNameTaken']);
  const same = planInstall(facts({ subscriptions: [sub('gatewise', 'gatewise', 'Automatic')], operatorGroups: [{ metadata: { name: 'g', namespace: 'gw' }, spec: { targetNamespaces: ['gw'] } }] }));
  assert.equal(same.alreadyInstalled, true);
  assert.deepEqual(same.objects.map((o) => o.action), ['reuse', 'reuse', 'reuse']);
});

test('community catalogs, deprecations and non-standalone packages are said', () => {
  const p = planInstall(facts({ catalog: { displayName: 'Community Operators' }, version: { ...facts().version, nonStandalone: true, deprecations: ['package gatewise is deprecated: use routekit'] } }));
  assert.deepEqual(p.warnings.map((w) => w.code).sort(), ['communityCatalog', 'deprecated', 'nonStandalone']);
});

test('a namespace the person may neither read nor create is assumed to exist', () => {
  const p = planInstall(facts({ namespaceExists: 'unknown', denied: { createNamespace: 'no' } }));
  assert.equal(p.objects[0]!.action, 'reuse');
  assert.deepEqual(p.blockers, []);
  assert.ok(p.warnings.some((w) => w.code === 'namespaceUnknown'));
});

test('MultiNamespace needs two namespaces; SingleNamespace another one', () => {
  assert.match(planInstall(facts({}, { installMode: 'MultiNamespace', targetNamespaces: ['a'] })).blockers[0]!.message, /at least two/);
  assert.match(planInstall(facts({}, { installMode: 'SingleNamespace', targetNamespaces: ['gw'] })).blockers[0]!.message, /is OwnNamespace/);
  const multi = planInstall(facts({}, { installMode: 'MultiNamespace', targetNamespaces: ['b', 'a'] }));
  assert.deepEqual((multi.objects[1]!.object as OperatorGroup).spec?.targetNamespaces, ['a', 'b']);
});

test('dependencies are said: OLM installs them with their own Subscriptions', () => {
  const p = planInstall(facts({ version: { ...facts().version, requiredPackages: [{ packageName: 'certwarden', versionRange: '>=1.0.0 <2.0.0' }], requiredApis: ['Certificate.v1.certwarden.example.com'] } }));
  const w = p.warnings.find((n) => n.code === 'dependencies')!;
  assert.match(w.message, /package certwarden >=1\.0\.0 <2\.0\.0, an operator providing Certificate\.v1\.certwarden\.example\.com/);
});

test('the pod configuration goes into the Subscription; the same install with another configuration is not the same', () => {
  const config = { nodeSelector: { 'node-role.kubernetes.io/infra': '' }, env: [{ name: 'LOG_LEVEL', value: 'debug' }] };
  const p = planInstall(facts({}, { config }));
  assert.deepEqual((p.objects.find((o) => o.kind === 'Subscription')!.object as unknown as Subscription).spec.config, config);
  const existing: Subscription = { ...sub('gatewise', 'gatewise', 'Automatic'), spec: { ...sub('gatewise', 'gatewise', 'Automatic').spec, config: { env: [{ value: 'debug', name: 'LOG_LEVEL' }], nodeSelector: { 'node-role.kubernetes.io/infra': '' } } } };
  assert.equal(planInstall(facts({ subscriptions: [existing] }, { config })).alreadyInstalled, true, 'key order aside, the same');
  const other = planInstall(facts({ subscriptions: [existing] }, { config: { nodeSelector: { zone: 'a' } } }));
  assert.equal(other.alreadyInstalled, false);
  assert.match(other.blockers[0]!.message, /with another pod configuration/);
});
