// What is left of a half-gone operator, and the cleanup order. Expectations follow OLM's documented
// behaviour (docs/olm/uninstall.md#what-remains: OLM never deletes CRDs, CRs or OperatorGroups; the
// csv-cleanup finalizer; InstallPlans owned by Subscriptions) and Kubernetes' finalizer rules
// (foregroundDeletion and orphan belong to the garbage collector).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ClusterServiceVersion } from '../resources/cluster-service-version';
import type { InstallPlan } from '../resources/install-plan';
import type { OperatorGroup } from '../resources/operator-group';
import type { Subscription } from '../resources/subscription';
import { leftoverCrdNames, whatIsLeft, type LeftoverFacts } from './leftovers';
import { planCleanup } from './leftovers-plan';

const NS = 'flags';
const CRD = 'flags.flagpole.example.com';

function csv(
  name: string,
  extra: {
    replaces?: string;
    deleting?: boolean;
    finalizers?: string[];
    namespace?: string;
    owns?: string;
    copiedFrom?: string;
  } = {},
): ClusterServiceVersion {
  return {
    metadata: {
      name,
      namespace: extra.namespace ?? NS,
      ...(extra.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
      ...(extra.finalizers ? { finalizers: extra.finalizers } : {}),
      ...(extra.copiedFrom ? { labels: { 'olm.copiedFrom': extra.copiedFrom } } : {}),
    },
    spec: {
      displayName: 'Flagpole',
      ...(extra.replaces ? { replaces: extra.replaces } : {}),
      customresourcedefinitions: { owned: [{ name: extra.owns ?? CRD, version: 'v1', kind: 'Flag' }] },
    },
    status: { phase: extra.deleting ? 'Deleting' : 'Succeeded' },
  } as unknown as ClusterServiceVersion;
}

function sub(name: string, installed?: string, uid = 'sub-uid'): Subscription {
  return {
    metadata: { name, namespace: NS, uid },
    spec: { name, source: 'demo', sourceNamespace: 'olm', channel: 'stable' },
    status: { ...(installed ? { installedCSV: installed, currentCSV: installed } : {}), state: 'AtLatestKnown' },
  } as unknown as Subscription;
}

function plan(
  name: string,
  csvs: string[],
  ownerUid?: string,
  crdStep?: { resolving: string; crd: string },
): InstallPlan {
  return {
    metadata: {
      name,
      namespace: NS,
      ...(ownerUid
        ? {
            ownerReferences: [
              { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'Subscription', name: 'flagpole', uid: ownerUid },
            ],
          }
        : {}),
    },
    spec: { clusterServiceVersionNames: csvs, approval: 'Automatic', approved: true },
    status: {
      phase: 'Complete',
      plan: crdStep
        ? [
            {
              resolving: crdStep.resolving,
              status: 'Created',
              resource: {
                group: 'apiextensions.k8s.io',
                version: 'v1',
                kind: 'CustomResourceDefinition',
                name: crdStep.crd,
              },
            },
          ]
        : [],
    },
  } as InstallPlan;
}

const og = (labelled: boolean): OperatorGroup => ({
  metadata: {
    name: 'flags-og',
    namespace: NS,
    ...(labelled ? { labels: { 'olm-console.io/created-by': 'olm-console' } } : {}),
  },
  spec: { targetNamespaces: [NS] },
});

const crd = (instances: LeftoverFacts['crds'][number]['instances']): LeftoverFacts['crds'][number] => ({
  name: CRD,
  crd: { group: 'flagpole.example.com', kind: 'Flag', plural: 'flags', version: 'v1', namespaced: true },
  instances,
});

function facts(over: Partial<LeftoverFacts>): LeftoverFacts {
  return {
    namespace: NS,
    anchor: { csv: 'flagpole.v1.2.0' },
    subscriptions: [],
    csvs: [],
    installPlans: [],
    operatorGroups: [],
    crds: [],
    clusterCsvs: [],
    denied: {},
    ...over,
  };
}

const part = (l: ReturnType<typeof whatIsLeft>, id: string) => l.parts.find((p) => p.id === id);

describe('whatIsLeft', () => {
  test('a CSV without Subscription: it runs but is never upgraded; its plan, the console-made group, the CRD and its instances are left', () => {
    const c = csv('flagpole.v1.2.0');
    const l = whatIsLeft(
      facts({
        csvs: [c, csv('flagpole.v1.2.0', { namespace: 'elsewhere', copiedFrom: NS })],
        installPlans: [plan('install-abc', ['flagpole.v1.2.0']), plan('install-other', ['cachely.v1'])],
        operatorGroups: [og(true)],
        crds: [
          crd([
            { metadata: { name: 'dark-mode', namespace: NS } },
            { metadata: { name: 'stray', namespace: 'elsewhere' } },
          ]),
        ],
        clusterCsvs: [c],
      }),
    );
    assert.deepEqual(
      l.parts.map((p) => p.id),
      [
        'ClusterServiceVersion:flagpole.v1.2.0',
        'InstallPlan:install-abc',
        'OperatorGroup:flags-og',
        `CustomResourceDefinition:${CRD}`,
        `Instances:${CRD}`,
      ],
    );
    assert.match(
      part(l, 'ClusterServiceVersion:flagpole.v1.2.0')!.why[0]!,
      /No Subscription names it any more: OLM keeps the operator running \(Succeeded\) but never upgrades it/,
    );
    assert.equal(part(l, `Instances:${CRD}`)!.state, '2 instances: 1 in elsewhere, 1 in flags');
    assert.deepEqual(part(l, `CustomResourceDefinition:${CRD}`)!.requires, [`Instances:${CRD}`]);
    assert.equal(l.displayName, 'Flagpole');
    assert.equal(l.empty, false);
  });

  test('a Subscription whose installed CSV is gone: OLM does not install it again', () => {
    const l = whatIsLeft(
      facts({ anchor: { subscription: 'flagpole' }, subscriptions: [sub('flagpole', 'flagpole.v1.2.0')] }),
    );
    assert.match(
      part(l, 'Subscription:flagpole')!.why[0]!,
      /still names flagpole\.v1\.2\.0 as installed, which is gone: OLM does not install it again/,
    );
    assert.equal(l.package, 'flagpole');
  });

  test("a CSV stuck Deleting on OLM's csv-cleanup finalizer says what holds it and cannot be chosen", () => {
    const c = csv('flagpole.v1.2.0', { deleting: true, finalizers: ['operators.coreos.com/csv-cleanup'] });
    const l = whatIsLeft(facts({ csvs: [c], clusterCsvs: [c] }));
    const p = part(l, 'ClusterServiceVersion:flagpole.v1.2.0')!;
    assert.equal(p.refused, 'already being deleted');
    assert.match(
      p.why.join(' '),
      /finalizer operators\.coreos\.com\/csv-cleanup is held until OLM's olm-operator has deleted the ClusterRoles and ClusterRoleBindings labelled olm\.owner=flagpole\.v1\.2\.0/,
    );
  });

  test("instances held by a finalizer: removable once the operator is gone; the garbage collector's finalizers are never offered", () => {
    const stuck = {
      metadata: {
        name: 'dark-mode',
        namespace: NS,
        deletionTimestamp: '2026-01-01T00:00:00Z',
        finalizers: ['flagpole.example.com/cleanup', 'foregroundDeletion'],
      },
    };
    const gcOnly = {
      metadata: {
        name: 'going',
        namespace: NS,
        deletionTimestamp: '2026-01-01T00:00:00Z',
        finalizers: ['foregroundDeletion'],
      },
    };
    const gone = whatIsLeft(
      facts({
        anchor: { subscription: 'flagpole' },
        subscriptions: [sub('flagpole', 'flagpole.v1.2.0')],
        crds: [crd([stuck, gcOnly])],
      }),
    );
    const fin = part(gone, `Finalizers:${CRD}`)!;
    assert.equal(fin.refused, undefined);
    assert.deepEqual(
      fin.instances!.items.map((i) => i.name),
      ['dark-mode'],
    );
    assert.match(
      fin.why[0]!,
      /flags\/dark-mode is being deleted since .* held by finalizer flagpole\.example\.com\/cleanup, which the operator removes — and the operator is gone/,
    );
    const p = planCleanup(gone, [`Finalizers:${CRD}`]);
    assert.deepEqual(p.blockers, []);
    assert.deepEqual(
      p.steps.map((s) => [s.action, s.name, s.finalizers]),
      [['remove-finalizers', 'dark-mode', ['flagpole.example.com/cleanup']]],
      'already deleting: no second delete; GC finalizers kept',
    );
  });

  test('while this operator runs, removing finalizers takes its CSV with it; another running owner refuses it', () => {
    const held = { metadata: { name: 'dark-mode', namespace: NS, finalizers: ['flagpole.example.com/cleanup'] } };
    const c = csv('flagpole.v1.2.0');
    const l = whatIsLeft(facts({ csvs: [c], crds: [crd([held])], clusterCsvs: [c] }));
    assert.deepEqual(part(l, `Finalizers:${CRD}`)!.requires, [
      `Instances:${CRD}`,
      'ClusterServiceVersion:flagpole.v1.2.0',
    ]);
    const other = csv('flagpole.v1.2.0', { namespace: 'team2' });
    const shared = whatIsLeft(facts({ csvs: [c], crds: [crd([held])], clusterCsvs: [c, other] }));
    assert.match(
      part(shared, `Finalizers:${CRD}`)!.refused!,
      /another operator that owns flags\.flagpole\.example\.com still runs \(team2\/flagpole\.v1\.2\.0\)/,
    );
    assert.match(
      part(shared, `CustomResourceDefinition:${CRD}`)!.refused!,
      /another operator uses it: team2\/flagpole\.v1\.2\.0 owns it/,
    );
  });

  test("a plan shared with another operator, a group another operator uses, and the person's rights refuse parts", () => {
    const l = whatIsLeft(
      facts({
        csvs: [csv('flagpole.v1.2.0'), { ...csv('cachely.v1', { owns: 'caches.cachely.example.com' }) }],
        installPlans: [plan('install-both', ['flagpole.v1.2.0', 'cachely.v1'])],
        operatorGroups: [og(true)],
        denied: { 'ClusterServiceVersion:flagpole.v1.2.0': 'RBAC: access denied' },
      }),
    );
    assert.match(part(l, 'InstallPlan:install-both')!.refused!, /also installs cachely\.v1, another operator in flags/);
    assert.match(part(l, 'OperatorGroup:flags-og')!.refused!, /other operators in flags use it \(CSV cachely\.v1\)/);
    assert.equal(part(l, 'ClusterServiceVersion:flagpole.v1.2.0')!.refused, 'you may not do this: RBAC: access denied');
  });

  test('a group the console did not make is not offered; a replaced CSV belongs to the same operator', () => {
    const l = whatIsLeft(
      facts({
        csvs: [csv('flagpole.v1.2.0', { replaces: 'flagpole.v1.1.0' }), csv('flagpole.v1.1.0')],
        operatorGroups: [og(false)],
      }),
    );
    assert.deepEqual(l.csvNames, ['flagpole.v1.1.0', 'flagpole.v1.2.0']);
    assert.equal(
      l.parts.some((p) => p.kind === 'OperatorGroup'),
      false,
    );
  });

  test('CRDs come from the CSV, or from the InstallPlan steps when the CSV is gone', () => {
    assert.deepEqual(
      leftoverCrdNames({
        anchor: { subscription: 'flagpole' },
        subscriptions: [sub('flagpole', 'flagpole.v1.2.0')],
        csvs: [],
        installPlans: [plan('install-abc', ['flagpole.v1.2.0'], 'sub-uid', { resolving: 'flagpole.v1.2.0', crd: CRD })],
      }),
      [CRD],
    );
  });

  test('nothing left', () => {
    const l = whatIsLeft(facts({}));
    assert.equal(l.empty, true);
  });
});

describe('planCleanup', () => {
  const full = () => {
    const c = csv('flagpole.v1.2.0');
    return whatIsLeft(
      facts({
        anchor: { subscription: 'flagpole' },
        subscriptions: [sub('flagpole', 'flagpole.v1.2.0')],
        csvs: [c],
        installPlans: [plan('install-abc', ['flagpole.v1.2.0'], 'sub-uid')],
        operatorGroups: [og(true)],
        crds: [
          crd([
            { metadata: { name: 'dark-mode', namespace: NS, finalizers: ['flagpole.example.com/cleanup'] } },
            { metadata: { name: 'stray', namespace: 'elsewhere' } },
          ]),
        ],
        clusterCsvs: [c],
      }),
    );
  };

  test('instances, Subscription, CSV, InstallPlans, finalizers, CRD, OperatorGroup — in that order', () => {
    const p = planCleanup(full(), [
      'OperatorGroup:flags-og',
      `CustomResourceDefinition:${CRD}`,
      'InstallPlan:install-abc',
      'Subscription:flagpole',
      `Finalizers:${CRD}`,
    ]);
    assert.deepEqual(p.blockers, []);
    assert.deepEqual(
      p.steps.map((s) => `${s.action} ${s.kind} ${s.name}`),
      [
        'delete Flag stray',
        'delete Flag dark-mode',
        'delete Subscription flagpole',
        'delete ClusterServiceVersion flagpole.v1.2.0',
        'delete InstallPlan install-abc',
        'remove-finalizers Flag dark-mode',
        `delete CustomResourceDefinition ${CRD}`,
        'delete OperatorGroup flags-og',
      ],
    );
    assert.deepEqual(p.added.map((a) => a.part).sort(), ['ClusterServiceVersion:flagpole.v1.2.0', `Instances:${CRD}`]);
  });

  test('a refused or unknown part blocks the whole plan; nothing is planned', () => {
    const l = full();
    const p = planCleanup(
      {
        ...l,
        parts: l.parts.map((x) =>
          x.kind === 'CustomResourceDefinition' ? { ...x, refused: 'another operator uses it: team2/x owns it' } : x,
        ),
      },
      [`CustomResourceDefinition:${CRD}`, 'InstallPlan:gone'],
    );
    assert.deepEqual(p.steps, []);
    assert.deepEqual(p.blockers, [
      `CustomResourceDefinition ${CRD} cannot be cleaned up: another operator uses it: team2/x owns it`,
      'InstallPlan gone is not left (any more): read what is left again',
    ]);
    assert.deepEqual(planCleanup(l, []).blockers, ['choose at least one part to clean up']);
  });

  test('the CSV alone: the Subscription left is noted; instances alone with a finalizer are noted as held', () => {
    const l = full();
    assert.match(
      planCleanup(l, ['ClusterServiceVersion:flagpole.v1.2.0']).notes.join(' '),
      /Subscription flagpole stays: OLM does not install the CSV again/,
    );
    assert.match(
      planCleanup(l, [`Instances:${CRD}`]).notes.join(' '),
      /stay until whoever owns it removes it: flags\/dark-mode/,
    );
  });
});

describe('halfGone', () => {
  test('a CSV being deleted, a CSV no Subscription names, a Subscription whose installed CSV is gone; not a copy, not an install under way', async () => {
    const { halfGone } = await import('./leftovers');
    assert.equal(
      halfGone(csv('a', { deleting: true, finalizers: ['operators.coreos.com/csv-cleanup'] }), sub('a', 'a')),
      'its CSV is being deleted, held by operators.coreos.com/csv-cleanup',
    );
    assert.equal(halfGone(csv('a'), undefined), 'no Subscription names its CSV');
    assert.equal(halfGone(undefined, sub('a', 'a.v1')), 'its installed CSV a.v1 is gone');
    assert.equal(halfGone(csv('a', { copiedFrom: 'x' }), undefined), undefined);
    assert.equal(halfGone(undefined, sub('a')), undefined);
    assert.equal(halfGone(csv('a'), sub('a', 'a')), undefined);
  });
});
