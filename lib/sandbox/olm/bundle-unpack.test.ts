// OLM v0 unpacking a bundle the catalog gives by image only, as a client sees it: the
// Subscription's BundleUnpacking condition, the unpack ConfigMap and Job in the catalog's namespace
// named by the image's hash with OLM's labels and owners, the plan written only after, with its
// bundleLookups; and a pull that cannot succeed (the protected demo repository, through a copy of
// the demo CatalogSource that lists no pull secret) ending in BundleUnpackFailed with OLM's words after the
// OperatorGroup's timeout. Expectations come from OLM v0.38.0's bundle_unpacker.go and
// catalog/operator.go, operator-registry's configmap_writer.go and the real cluster's runs
// (scripts/cluster-unpack.cluster.test.ts).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { withSandbox } from '../testing/sandbox-fixture';
import type { KObject } from '../store/types';

type Cond = { type: string; status: string; reason?: string; message?: string };
const OLM = 'operators.coreos.com';

describe('OLM v0 unpacking an image-only bundle', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  const seen: Cond[][] = [];
  /** Each unpack Job's pod's `pull` waiting reasons, each change in order. */
  const pulls = new Map<string, string[]>();
  const res = (group: string, version: string, plural: string) => sb.api.resources.find(group, version, plural)!;
  const until = async <T>(what: string, fn: () => T | undefined, ms = 10_000): Promise<T> => {
    for (let end = Date.now() + ms; Date.now() < end;) {
      await sb.olm.settled();
      const v = fn();
      if (v !== undefined) return v;
      await new Promise((r) => setTimeout(r, 25));
    }
    return assert.fail(`timed out waiting for ${what}`);
  };
  // The demo catalog served again, without the pull secret the demo CatalogSource lists.
  const NO_SECRET = 'demo-without-pull-secret';
  const subscribe = (
    ns: string,
    pkg: string,
    ogAnnotations: Record<string, string> = {},
    source = 'olm-console-demo',
  ) => {
    sb.api.createObject(res('', 'v1', 'namespaces'), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    sb.api.createObject(res(OLM, 'v1', 'operatorgroups'), {
      apiVersion: `${OLM}/v1`,
      kind: 'OperatorGroup',
      metadata: { name: ns, namespace: ns, annotations: ogAnnotations },
      spec: {},
    });
    sb.api.createObject(res(OLM, 'v1alpha1', 'subscriptions'), {
      apiVersion: `${OLM}/v1alpha1`,
      kind: 'Subscription',
      metadata: { name: pkg, namespace: ns },
      spec: { name: pkg, channel: 'stable', source, sourceNamespace: 'olm' },
    });
  };
  const eventsOf = (name: string) =>
    sb.api
      .storeList(res('', 'v1', 'events'), 'olm')
      .map(
        (e) =>
          e as unknown as {
            involvedObject: { kind: string; name: string };
            type: string;
            reason: string;
            message: string;
          },
      )
      .filter((e) => e.involvedObject.name === name)
      .map((e) => `${e.involvedObject.kind} ${e.type} ${e.reason}: ${e.message}`)
      .sort();
  const sub = (ns: string, name: string) => sb.api.storeGet(res(OLM, 'v1alpha1', 'subscriptions'), ns, name);
  const conditions = (o: KObject | undefined) => (o?.status as { conditions?: Cond[] } | undefined)?.conditions ?? [];
  const plans = (ns: string) => sb.api.storeList(res(OLM, 'v1alpha1', 'installplans'), ns);
  // OLM's name for the unpack objects: sha256 of the image reference, hex, its last digit dropped.
  const hashOf = (image: string) => createHash('sha256').update(image).digest('hex').slice(0, 63);
  // The gpu-forge unpack Job's name: the hash of the image its pod pulls.
  const imageHashOfForge = () => {
    const job = sb.api
      .storeList(res('batch', 'v1', 'jobs'), 'olm')
      .find((j) => JSON.stringify(j.spec).includes('gpu-forge-bundle@sha256:'));
    return job?.metadata.labels?.['operatorframework.io/bundle-unpack-ref'] ?? '';
  };
  const imageOf = (pkg: string) => {
    const csv = sb.api
      .storeList(res('', 'v1', 'configmaps'), 'olm')
      .find((c) => c.metadata.annotations?.['operators.operatorframework.io.bundle.package.v1'] === pkg);
    return csv?.metadata.annotations?.['olm.sourceImage'];
  };

  before(async () => {
    sb = await withSandbox({ bundleImages: true, deploymentDelayMs: 0 });
    const demo = sb.api.storeGet(res(OLM, 'v1alpha1', 'catalogsources'), 'olm', 'olm-console-demo')!;
    const spec = { ...(demo.spec as { secrets?: string[] }) };
    delete spec.secrets;
    sb.api.createObject(res(OLM, 'v1alpha1', 'catalogsources'), {
      apiVersion: demo.apiVersion,
      kind: demo.kind,
      metadata: { name: NO_SECRET, namespace: 'olm', annotations: demo.metadata.annotations },
      spec,
    });
    const previous = sb.api.hooks.onChange;
    sb.api.hooks.onChange = (r, e) => {
      previous?.(r, e);
      if (r.resource === 'subscriptions' && e.object.metadata.namespace === 'certs') seen.push(conditions(e.object));
      if (r.resource === 'pods' && e.object.metadata.namespace === 'olm') {
        const pull = (
          e.object.status as { initContainerStatuses?: { name: string; state?: { waiting?: { reason?: string } } }[] }
        )?.initContainerStatuses?.find((c) => c.name === 'pull')?.state?.waiting?.reason;
        const job = e.object.metadata.labels?.['job-name'] ?? '';
        const states = pulls.get(job) ?? [];
        if (pull && /ImagePull/.test(pull) && pull !== states[states.length - 1]) pulls.set(job, [...states, pull]);
      }
    };
  });
  after(() => sb.close());

  test('the Subscription shows BundleUnpacking until the image is unpacked, then the plan has it', async () => {
    subscribe('certs', 'certwarden');
    const plan = await until('an InstallPlan', () => plans('certs')[0]);
    assert.ok(
      seen.some((cs) =>
        cs.some((c) => c.type === 'BundleUnpacking' && c.status === 'True' && c.reason === 'UnpackingInProgress'),
      ),
      'BundleUnpacking=True (UnpackingInProgress) before the plan',
    );
    const after = await until('the Subscription pointing at the plan', () => {
      const s = sub('certs', 'certwarden');
      return (s?.status as { installPlanRef?: unknown } | undefined)?.installPlanRef ? s : undefined;
    });
    assert.deepEqual(
      conditions(after).filter((c) => c.type.startsWith('BundleUnpack')),
      [],
      'no unpack condition once planned',
    );
    const lookups = (plan.status as { bundleLookups?: Record<string, unknown>[] }).bundleLookups ?? [];
    assert.equal(lookups.length, 1);
    const csvName = (plan.spec as { clusterServiceVersionNames: string[] }).clusterServiceVersionNames[0];
    assert.equal(lookups[0]!.identifier, csvName);
    assert.deepEqual(lookups[0]!.catalogSourceRef, { namespace: 'olm', name: 'olm-console-demo' });
    assert.equal(lookups[0]!.conditions, undefined, 'conditions removed once unpacked');
    assert.match(String(lookups[0]!.properties), /^\{"properties":\[/);
    const image = String(lookups[0]!.path);
    assert.match(image, /@sha256:[0-9a-f]{64}$/);
    assert.equal(imageOf('certwarden'), image);
  });

  test('the unpack ConfigMap and Job are named by the image hash, labelled and owned as OLM does', () => {
    const image = imageOf('certwarden')!;
    const name = hashOf(image);
    const cm = sb.api.storeGet(res('', 'v1', 'configmaps'), 'olm', name)!;
    assert.ok(cm, `ConfigMap olm/${name}`);
    assert.deepEqual(cm.metadata.labels, { 'olm.managed': 'true' });
    assert.deepEqual(
      cm.metadata.ownerReferences?.map((o) => [o.kind, o.name, o.controller]),
      [['CatalogSource', 'olm-console-demo', false]],
    );
    const annotations = cm.metadata.annotations ?? {};
    assert.equal(annotations['olm.contentEncoding'], 'gzip+base64');
    assert.equal(annotations['operators.operatorframework.io.bundle.mediatype.v1'], 'registry+v1');
    const files = Object.entries((cm.binaryData as Record<string, string>) ?? {}).map(([k, v]): [string, string] => [
      k,
      gunzipSync(Buffer.from(Buffer.from(v, 'base64').toString('latin1'), 'base64')).toString('utf8'),
    ]);
    assert.ok(
      files.some(([k, text]) => k.endsWith('.clusterserviceversion.yaml') && /kind: ClusterServiceVersion/.test(text!)),
      'the CSV file, gzip+base64',
    );
    assert.ok(!files.some(([k]) => k === 'annotations.yaml'), 'annotations.yaml goes to annotations, not a key');
    const job = sb.api.storeGet(res('batch', 'v1', 'jobs'), 'olm', name)!;
    assert.deepEqual(job.metadata.labels, { 'olm.managed': 'true', 'operatorframework.io/bundle-unpack-ref': name });
    assert.deepEqual(
      job.metadata.ownerReferences?.map((o) => [o.kind, o.name]),
      [['ConfigMap', name]],
    );
    const spec = job.spec as { activeDeadlineSeconds?: number; backoffLimit?: number };
    assert.equal(spec.activeDeadlineSeconds, 600);
    assert.equal(spec.backoffLimit, 3);
    assert.ok(
      ((job.status as { conditions?: Cond[] }).conditions ?? []).some((c) => c.type === 'Complete'),
      'the Job completed',
    );
    const pods = sb.api.storeList(res('', 'v1', 'pods'), 'olm').filter((p) => p.metadata.labels?.['job-name'] === name);
    assert.deepEqual(
      pods.map((p) => (p.status as { phase?: string }).phase),
      ['Succeeded'],
    );
  });

  test('a pull without the pull secret stays pending, then fails with the Job deadline in OLM words', async () => {
    subscribe('forge', 'gpu-forge', { 'operatorframework.io/bundle-unpack-timeout': '2s' }, NO_SECRET);
    const pending = await until('the unpack pod waiting on its pull', () =>
      sb.api.storeList(res('', 'v1', 'pods'), 'olm').find((p) => {
        const statuses = (
          p.status as { initContainerStatuses?: { name: string; state?: { waiting?: { reason?: string } } }[] }
        ).initContainerStatuses;
        return statuses?.some(
          (s) => s.name === 'pull' && /ErrImagePull|ImagePullBackOff/.test(s.state?.waiting?.reason ?? ''),
        )
          ? p
          : undefined;
      }),
    );
    assert.equal((pending.status as { phase?: string }).phase, 'Pending');
    const failed = await until(
      'BundleUnpackFailed',
      () => conditions(sub('forge', 'gpu-forge')).find((c) => c.type === 'BundleUnpackFailed'),
      20_000,
    );
    assert.deepEqual(
      { status: failed.status, reason: failed.reason, message: failed.message },
      {
        status: 'True',
        reason: 'BundleUnpackFailed',
        message:
          'bundle unpacking failed. Reason: DeadlineExceeded, and Message: ' +
          'Job was active longer than specified deadline',
      },
    );
    assert.equal(conditions(sub('forge', 'gpu-forge')).find((c) => c.type === 'BundleUnpacking')?.status, 'True');
    assert.deepEqual(plans('forge'), [], 'no InstallPlan');
    const job = sb.api
      .storeList(res('batch', 'v1', 'jobs'), 'olm')
      .find((j) => j.metadata.name === pending.metadata.labels?.['job-name'])!;
    assert.equal((job.spec as { activeDeadlineSeconds?: number }).activeDeadlineSeconds, 2);
    // The kubelet pulls as soon as the pod is placed, then backs off (the real cluster's run).
    assert.deepEqual(pulls.get(job.metadata.name ?? ''), ['ErrImagePull', 'ImagePullBackOff']);
    // What kube-controller-manager records of it: the pod made, then the deadline and the pod deleted.
    const podName = pending.metadata.name ?? '';
    assert.deepEqual(
      eventsOf(job.metadata.name ?? ''),
      [
        `Job Normal SuccessfulCreate: Created pod: ${podName}`,
        `Job Normal SuccessfulDelete: Deleted pod: ${podName}`,
        'Job Warning DeadlineExceeded: Job was active longer than specified deadline',
      ].sort(),
    );
    assert.deepEqual(eventsOf(podName), [
      `Pod Normal Scheduled: Successfully assigned olm/${podName} to sandbox-node-1`,
    ]);
  });

  test('with a minimum retry interval a failed Job gets a successor under a generated name when OLM looks again', async () => {
    // The same timeout as the group above: two groups with different ones would each delete the
    // other's Job as not the one it wants (ensureJob), as OLM's own passes would.
    subscribe(
      'forge-retry',
      'gpu-forge',
      {
        'operatorframework.io/bundle-unpack-timeout': '2s',
        'operatorframework.io/bundle-unpack-min-retry-interval': '1s',
      },
      NO_SECRET,
    );
    const names = () =>
      sb.api
        .storeList(res('batch', 'v1', 'jobs'), 'olm')
        .filter((j) => j.metadata.labels?.['operatorframework.io/bundle-unpack-ref'] === imageHashOfForge())
        .map((j) => j.metadata.name ?? '')
        .sort();
    // Longer than the first test's wait: when this pass comes more than the interval after the
    // first test's Job failed, OLM makes a successor first and fails it in turn (a 2 s deadline,
    // then its 5 s requeues). In the whole suite, two files at a time, that took past 10 s; with
    // four busy loops on this machine's two cores, about 40 s.
    await until(
      'BundleUnpackFailed',
      () => conditions(sub('forge-retry', 'gpu-forge')).find((c) => c.type === 'BundleUnpackFailed'),
      60_000,
    );
    // OLM does not requeue a failed unpack (syncResolvingNamespace returns without it): the
    // interval (1 s) passes three times over and no Job is made.
    const before = names();
    const quietUntil = Date.now() + 3_000;
    await until('three seconds of quiet', () => (Date.now() > quietUntil ? true : undefined));
    assert.deepEqual(names(), before);
    // A change to the Subscription has OLM look again: the interval is past, so a new Job.
    const s = sub('forge-retry', 'gpu-forge')!;
    sb.api.updateObject(res(OLM, 'v1alpha1', 'subscriptions'), {
      ...s,
      metadata: { ...s.metadata, annotations: { ...s.metadata.annotations, touched: 'yes' } },
    });
    const after = await until('a second unpack Job', () => (names().length > before.length ? names() : undefined));
    const base = imageHashOfForge();
    assert.ok(after.includes(base), `one Job named ${base}: ${after}`);
    assert.ok(
      // apimachinery's SimpleNameGenerator: the base cut to 58 characters, then five generated ones.
      after.some((n) => new RegExp(`^${base.slice(0, 58)}[bcdfghjklmnpqrstvwxz2456789]{5}$`).test(n)),
      `a successor named ${base.slice(0, 58)} and five generated characters: ${after}`,
    );
  });

  test('the demo CatalogSource lists the pull secret: gpu-forge unpacks, is planned and installs', async () => {
    // The Subscriptions through the copy without the secret go: the Job of an image is one per
    // namespace, and their OperatorGroups' other timeout would have it deleted pass after pass.
    for (const ns of ['forge', 'forge-retry'])
      sb.api.deleteObject(res(OLM, 'v1alpha1', 'subscriptions'), ns, 'gpu-forge');
    subscribe('forge2', 'gpu-forge');
    // The failed Jobs without the secret go first, one a pass (OLM requeues every 5 s meanwhile).
    const plan = await until('an InstallPlan', () => plans('forge2')[0], 40_000);
    assert.equal(((plan.status as { bundleLookups?: unknown[] }).bundleLookups ?? []).length, 1);
    const job = sb.api
      .storeList(res('batch', 'v1', 'jobs'), 'olm')
      .find(
        (j) =>
          j.metadata.labels?.['operatorframework.io/bundle-unpack-ref'] === imageHashOfForge() &&
          ((j.status as { conditions?: Cond[] }).conditions ?? []).some((c) => c.type === 'Complete'),
      );
    assert.ok(job, 'a completed unpack Job for the gpu-forge image');
    const pods = sb.api
      .storeList(res('', 'v1', 'pods'), 'olm')
      .filter((p) => p.metadata.labels?.['job-name'] === job.metadata.name);
    assert.deepEqual(
      pods.map((p) => (p.status as { phase?: string }).phase),
      ['Succeeded'],
      'the pod pulled the protected image with the secret',
    );
    // Its version has build metadata (24.3.1+build.2), which no object name may carry: the CSV
    // OLM creates, named as the plan's lookup names the bundle, must be one the API server takes.
    const csv = await until(
      'the gpu-forge CSV Succeeded',
      () =>
        sb.api
          .storeList(res(OLM, 'v1alpha1', 'clusterserviceversions'), 'forge2')
          .find(
            (c) =>
              c.metadata.name?.startsWith('gpu-forge.') &&
              (c.status as { phase?: string } | undefined)?.phase === 'Succeeded',
          ),
      30_000,
    );
    assert.equal((csv.spec as { version?: string }).version, '24.3.1+build.2', 'the version keeps its build metadata');
    const lookups = (plans('forge2')[0]!.status as { bundleLookups?: { identifier: string }[] }).bundleLookups ?? [];
    assert.deepEqual(
      lookups.map((l) => l.identifier),
      [csv.metadata.name],
    );
  });
});
