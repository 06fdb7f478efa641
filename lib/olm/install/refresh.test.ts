// The refresh of a failing Subscription: the documented repair's steps, the bundle unpack Job and
// ConfigMap found as OLM makes them (controller/bundle/bundle_unpacker.go, v0.38.0: the Job
// labelled operatorframework.io/bundle-unpack-ref with its ConfigMap's name, pulling the bundle
// image), and nothing done for a Subscription that is not failing. When unpacking fails OLM
// writes no plan (catalog/operator.go): the bundle is the catalog's, and the Job and ConfigMap go
// only when names (sha256 of the image reference, 63 hex digits; a successor's cut to 58 and five
// generated characters), label, pull image and owners (ConfigMap → Job, CatalogSource → ConfigMap)
// are as OLM's bundle_unpacker.go makes them.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import type { BundleModel, PackageModel } from '../fbc/model';
import type { InstallPlan } from '../resources/install-plan';
import type { Subscription } from '../resources/subscription';
import {
  BUNDLE_UNPACK_REF_LABEL,
  planRefresh,
  resolvedBundleImages,
  type RefreshFacts,
  type UnpackConfigMap,
  type UnpackJob,
} from './refresh';

const sub: Subscription = {
  metadata: { name: 'quay', namespace: 'ops', uid: 'u1' },
  spec: {
    name: 'quay',
    source: 'redhat-operators',
    sourceNamespace: 'openshift-marketplace',
    channel: 'stable',
    installPlanApproval: 'Manual',
    config: { env: [{ name: 'A', value: '1' }] },
  },
  status: {
    currentCSV: 'quay.v3.9.1',
    installedCSV: 'quay.v3.9.0',
    installPlanRef: { name: 'install-x' },
    conditions: [
      {
        type: 'InstallPlanFailed',
        status: 'True',
        reason: 'InstallComponentFailed',
        message: 'bundle unpacking failed. Reason: DeadlineExceeded',
      },
    ],
  },
};
const failed = {
  metadata: { name: 'install-x', namespace: 'ops', ownerReferences: [{ uid: 'u1' }] },
  spec: { clusterServiceVersionNames: ['quay.v3.9.1'], approval: 'Manual', approved: true },
  status: { phase: 'Failed', bundleLookups: [{ path: 'registry.example.com/quay-bundle@sha256:abc' }] },
} as unknown as InstallPlan;
const other = {
  metadata: { name: 'install-y', namespace: 'ops', ownerReferences: [{ uid: 'u2' }] },
  spec: { clusterServiceVersionNames: ['db.v1'], approval: 'Manual', approved: false },
  status: { phase: 'Failed' },
} as unknown as InstallPlan;
const QUAY = 'registry.example.com/quay-bundle@sha256:abc';
const OTHER = 'registry.example.com/other-bundle@sha256:def';
const hashOf = (image: string) => createHash('sha256').update(image).digest('hex').slice(0, 63);
const CATALOG_UID = 'cs-uid';
/** An unpack Job and its ConfigMap as OLM makes them for `image` (or a successor named `name`). */
const unpackOf = (image: string, over: Partial<UnpackJob> = {}, cmOver: Partial<UnpackConfigMap> = {}) => {
  const ref = hashOf(image);
  const job: UnpackJob = {
    namespace: 'openshift-marketplace',
    name: ref,
    labels: { 'olm.managed': 'true', [BUNDLE_UNPACK_REF_LABEL]: ref },
    ownerReferences: [{ kind: 'ConfigMap', name: ref, uid: `cm-${ref}` }],
    images: ['quay.io/operator-framework/olm:latest', image, 'quay.io/operator-framework/opm:latest'],
    pullImage: image,
    failed: true,
    ...over,
  };
  const cm: UnpackConfigMap = {
    name: ref,
    labels: { 'olm.managed': 'true' },
    ownerReferences: [{ kind: 'CatalogSource', name: 'redhat-operators', uid: CATALOG_UID }],
    ...cmOver,
  };
  return { job, cm };
};
const facts = (over: Partial<RefreshFacts> = {}): RefreshFacts => ({
  subscription: sub,
  plans: [failed, other],
  csv: { name: 'quay.v3.9.0', phase: 'Succeeded' },
  resolvedImages: [QUAY],
  unpackJobs: [unpackOf(QUAY).job, { ...unpackOf(OTHER).job, failed: false }],
  unpackConfigMaps: [unpackOf(QUAY).cm, unpackOf(OTHER).cm],
  catalogUid: CATALOG_UID,
  denied: {},
  ...over,
});
const unpackFailedSub: Subscription = {
  ...sub,
  status: {
    conditions: [
      {
        type: 'BundleUnpackFailed',
        status: 'True',
        reason: 'BundleUnpackFailed',
        message:
          'bundle unpacking failed. Reason: DeadlineExceeded, and Message: Job was active longer than specified deadline',
      },
    ],
  },
};
const stepsOf = (f: RefreshFacts) => planRefresh(f).steps.map((s) => `${s.action} ${s.kind} ${s.namespace}/${s.name}`);

test('the repair: the Subscription first, its failed plan, the unpack Job and ConfigMap of that bundle, the CSV, then the same Subscription', () => {
  const p = planRefresh(facts());
  assert.deepEqual(
    p.steps.map((s) => `${s.action} ${s.kind} ${s.namespace}/${s.name}`),
    [
      'delete Subscription ops/quay',
      'delete InstallPlan ops/install-x',
      `delete Job openshift-marketplace/${hashOf(QUAY)}`,
      `delete ConfigMap openshift-marketplace/${hashOf(QUAY)}`,
      'delete ClusterServiceVersion ops/quay.v3.9.0',
      'create Subscription ops/quay',
    ],
  );
  assert.deepEqual(p.subscription.spec, sub.spec);
  assert.match(p.failing[0]!, /^InstallPlanFailed \(InstallComponentFailed\): bundle unpacking failed/);
  assert.deepEqual(p.blockers, []);
  assert.ok(p.notes.some((n) => /Manual: its new InstallPlan waits/.test(n)));
});

test('a failed resolution alone is one OLM tries again by itself; a failed plan or unpack is not', () => {
  assert.equal(planRefresh(facts()).retriedByOlm, false);
  const resolution = planRefresh(
    facts({
      plans: [],
      subscription: {
        ...sub,
        status: {
          ...sub.status,
          conditions: [
            {
              type: 'ResolutionFailed',
              status: 'True',
              reason: 'ConstraintsNotSatisfiable',
              message:
                'constraints not satisfiable: clusterserviceversion tenant-core.v0.2.0 exists and is not referenced',
            },
          ],
        },
      },
    }),
  );
  assert.match(resolution.failing[0]!, /^ResolutionFailed \(ConstraintsNotSatisfiable\)/);
  assert.equal(resolution.retriedByOlm, true);
});

test('not failing: nothing to refresh; Jobs that cannot be listed are left to the person, named', () => {
  const healthy = planRefresh(
    facts({ subscription: { ...sub, status: { ...sub.status, conditions: [] } }, plans: [] }),
  );
  assert.match(healthy.blockers[0]!, /is not failing/);
  const hidden = planRefresh(facts({ unpackJobs: 'you may not list Jobs in openshift-marketplace' }));
  assert.ok(
    hidden.notes.some((n) =>
      /delete the Job and ConfigMap of registry\.example\.com\/quay-bundle@sha256:abc in openshift-marketplace by hand/.test(
        n,
      ),
    ),
  );
});

test('a failed unpack leaves no plan: the Job and ConfigMap of the bundle the catalog resolves to go', () => {
  const retry = unpackOf(QUAY, { name: `${hashOf(QUAY).slice(0, 58)}x7kq2` }).job;
  const steps = stepsOf(
    facts({ subscription: unpackFailedSub, plans: [], csv: undefined, unpackJobs: [unpackOf(QUAY).job, retry] }),
  );
  assert.deepEqual(steps, [
    'delete Subscription ops/quay',
    `delete Job openshift-marketplace/${hashOf(QUAY)}`,
    `delete ConfigMap openshift-marketplace/${hashOf(QUAY)}`,
    `delete Job openshift-marketplace/${retry.name}`,
    'create Subscription ops/quay',
  ]);
  const unknown = planRefresh(
    facts({ subscription: unpackFailedSub, plans: [], csv: undefined, resolvedImages: 'the catalog is not read' }),
  );
  assert.ok(
    unknown.notes.some((n) => /the bundle that failed to unpack is not known \(the catalog is not read\)/.test(n)),
  );
  assert.ok(!unknown.steps.some((s) => s.kind === 'Job'));
});

test("a Job or ConfigMap the catalog merely names is kept: owners, label, pull image and name must be OLM's", () => {
  const base = { subscription: unpackFailedSub, plans: [], csv: undefined, resolvedImages: [QUAY] };
  const kept = (job: UnpackJob, cm: UnpackConfigMap) =>
    assert.deepEqual(
      stepsOf(facts({ ...base, unpackJobs: [job], unpackConfigMaps: [cm] })),
      ['delete Subscription ops/quay', 'create Subscription ops/quay'],
      JSON.stringify({ job, cm }),
    );
  const { job, cm } = unpackOf(QUAY);
  kept(job, { ...cm, ownerReferences: [{ kind: 'CatalogSource', name: 'redhat-operators', uid: 'another' }] });
  kept(job, { ...cm, labels: {} });
  kept({ ...job, ownerReferences: [] }, cm);
  kept({ ...job, pullImage: OTHER }, cm);
  kept({ ...job, name: 'unpack-quay' }, cm);
  kept({ ...job, name: `${hashOf(QUAY).slice(0, 58)}AAAAA` }, cm);
  kept(job, { ...cm, name: 'elsewhere' });
  // The same for a failed plan's lookup: the plan names an image, the cluster must show the rest.
  assert.ok(!stepsOf(facts({ unpackJobs: [{ ...job, ownerReferences: [] }] })).some((s) => s.startsWith('delete Job')));
});

/** A package whose channel `stable` is v1 ← v2 ← v3 (v3 skips v1), each bundle by image. */
const pkgOf = (): PackageModel =>
  ({
    name: 'quay',
    defaultChannel: 'stable',
    channels: new Map([
      [
        'stable',
        {
          name: 'stable',
          package: 'quay',
          entries: [
            { name: 'quay.v1' },
            { name: 'quay.v2', replaces: 'quay.v1' },
            { name: 'quay.v3', replaces: 'quay.v2', skips: ['quay.v1'] },
          ],
        },
      ],
    ]),
    bundles: new Map(
      ['quay.v1', 'quay.v2', 'quay.v3'].map((n) => [n, { name: n, package: 'quay', image: `reg/${n}` } as BundleModel]),
    ),
    others: [],
  }) as unknown as PackageModel;

test("the bundle a failed unpack was for: the starting CSV, the installed CSV's successors, else the head", () => {
  const subOf = (spec: Partial<Subscription['spec']>, installedCSV?: string): Subscription => ({
    metadata: { name: 'quay', namespace: 'ops' },
    spec: { name: 'quay', source: 'c', sourceNamespace: 'olm', ...spec },
    ...(installedCSV ? { status: { installedCSV } } : {}),
  });
  assert.deepEqual(resolvedBundleImages(subOf({ channel: 'stable' }), pkgOf()), ['reg/quay.v3']);
  assert.deepEqual(resolvedBundleImages(subOf({}), pkgOf()), ['reg/quay.v3'], 'the default channel');
  assert.deepEqual(resolvedBundleImages(subOf({ channel: 'stable', startingCSV: 'quay.v1' }), pkgOf()), [
    'reg/quay.v1',
  ]);
  // Installed v1: the entries replacing or skipping it (OLM's successors), not the starting CSV.
  assert.deepEqual(resolvedBundleImages(subOf({ channel: 'stable', startingCSV: 'quay.v1' }, 'quay.v1'), pkgOf()), [
    'reg/quay.v2',
    'reg/quay.v3',
  ]);
  assert.match(String(resolvedBundleImages(subOf({ channel: 'fast' }), pkgOf())), /has no channel fast/);
});
