// OLM v0's bundle unpacking on the real cluster (`npm run cluster -- --v0-bundles image --no-olm-v1`):
// the demo catalog served with every bundle given by image only, so real OLM v0.38.0 unpacks each
// in its own Job, whose pod the unpack runner plays (scripts/cluster-unpack.ts). pgpilot 1.2.0 is
// installed under Manual approval and its upgrade to 1.4.0 waits: the plan's steps point at the
// ConfigMap OLM's Job filled, and what the upgrade changes is read from it. flagpole's image is
// then deleted from the registry before anyone subscribes: the pull fails as on a real cluster
// (the pod Pending, its pull container waiting with ErrImagePull or ImagePullBackOff), OLM says the
// Subscription is unpacking, then, once the Job's deadline passes, BundleUnpackFailed in its own
// words, and writes no InstallPlan; the console's refresh of that Subscription then plans to delete
// the unpack Job and ConfigMap OLM made for the image (named by its hash, in the catalog's
// namespace), and with the image pushed back and the refresh applied, OLM installs flagpole.
// Skipped with the reason where the cluster's programs are not built.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from '../e2e/support/real-cluster';
import type { KubeClient } from '../lib/k8s/client';
import { createHash } from 'node:crypto';
import { JOB_TYPE, POD_TYPE } from '../lib/k8s/core-kinds';
import { applyRefresh, refreshView } from '../lib/server/refresh';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../lib/olm/resources/install-plan';
import { OPERATOR_GROUP_TYPE } from '../lib/olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '../lib/olm/resources/subscription';
import { catalogSourceName } from '../lib/sandbox/olm/catalog-sources';
import { clientAs, csvPhase, ensureNamespace, subscribe, waitFor } from '../lib/server/testing/cluster';
import { PGPILOT_UPGRADE_IMAGES, upgradeWaitingForApproval } from '../lib/server/testing/upgrade-waiting';
import { installPlanChanges } from '../lib/server/upgrade-changes/install-plan-changes';
import { UNPACK_POD_LABEL } from './cluster-kwok-stages';

const root = join(import.meta.dirname, '..');
const DEMO_DIR = join(root, 'lib', 'sandbox', 'demo-catalog', 'catalog');
const NS = 'team1';
const FROM = 'pgpilot.v1.2.0';
const TO = 'pgpilot.v1.4.0';
const WAIT = 240_000;

type Condition = { type: string; status: string; reason?: string; message?: string };

/** The image the served (image-only) catalog names for a bundle: opm's rendered JSON stream. */
function servedImage(cluster: RealCluster, bundle: string): string {
  const text = readFileSync(
    join(cluster.dir, 'catalogs-by-image', catalogSourceName(DEMO_DIR), 'catalog.json'),
    'utf8',
  );
  const blobs = text.split(/(?<=^\})\n(?=\{)/m).map((b) => JSON.parse(b) as { name?: string; image?: string });
  const image = blobs.find((b) => b.name === bundle)?.image;
  if (!image) throw new Error(`the served catalog names no image for ${bundle}`);
  return image;
}

/** A registry request for an image's manifest (by digest): its status, body and content type. */
function manifestRequest(
  cluster: RealCluster,
  image: string,
  method: 'GET' | 'PUT' | 'DELETE',
  put?: { body: Buffer; type: string },
): Promise<{ status: number; body: Buffer; type: string }> {
  const [host, rest] = [image.slice(0, image.indexOf('/')), image.slice(image.indexOf('/') + 1)];
  const [repo, digest] = rest.split('@') as [string, string];
  const [hostname, port] = host.split(':') as [string, string];
  const accept = 'application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json';
  return new Promise((res, rej) => {
    const req = request(
      {
        hostname,
        port,
        method,
        path: `/v2/${repo}/manifests/${digest}`,
        ca: cluster.caPem,
        headers: put ? { 'Content-Type': put.type } : { Accept: accept },
      },
      (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () =>
          res({ status: r.statusCode ?? 0, body: Buffer.concat(chunks), type: String(r.headers['content-type']) }),
        );
      },
    );
    req.on('error', rej);
    req.end(put?.body);
  });
}

const skip = clusterProgramsMissing();
if (skip) test('OLM v0 unpacking bundle images on the real cluster', (t) => t.skip(skip));
else
  describe('OLM v0 unpacking bundle images on the real cluster', () => {
    let cluster: RealCluster | undefined;
    let admin: KubeClient;
    const source = catalogSourceName(DEMO_DIR);

    before(async () => {
      cluster = await startRealCluster([DEMO_DIR], WAIT, ['--v0-bundles', 'image', '--no-olm-v1']);
      admin = clientAs(cluster, 'admin');
    });
    after(() => cluster?.stop());

    test('an upgrade waiting for approval says what it changes, read from the ConfigMap OLM unpacked', async () => {
      const plan = await upgradeWaitingForApproval(
        admin,
        { namespace: NS, package: 'pgpilot', channel: 'stable', from: FROM, to: TO, source },
        WAIT,
      );
      const body = await installPlanChanges(admin, NS, plan.metadata!.name!);
      const p = body.parts.find((x) => x.csv === TO);
      assert.ok(p, JSON.stringify(body));
      assert.deepEqual(p.installed, { bundle: FROM, source: 'cluster', gaps: [] });
      assert.deepEqual(p.target, { bundle: TO, source: 'unpack-configmap', gaps: [] }, JSON.stringify(p));
      const c = p.changes;
      assert.ok(c && !('unknown' in c), JSON.stringify(c));
      assert.deepEqual(c.images, PGPILOT_UPGRADE_IMAGES);
      assert.deepEqual([c.rulesAdded, c.rulesDropped, c.crds, c.dropsStoredVersion], [[], [], [], false]);
    });

    test('a bundle image that cannot be pulled fails the unpack in OLM’s own words', async () => {
      const image = servedImage(cluster!, 'flagpole.v1.0.1');
      const manifest = await manifestRequest(cluster!, image, 'GET');
      assert.equal(manifest.status, 200);
      assert.equal((await manifestRequest(cluster!, image, 'DELETE')).status, 202);
      const ns = 'unpack-fails';
      await ensureNamespace(admin, ns);
      // OLM reads the unpack deadline from the namespace's OperatorGroup (bundle_unpacker.go).
      await admin.create(OPERATOR_GROUP_TYPE, {
        metadata: { name: 'og', namespace: ns, annotations: { 'operatorframework.io/bundle-unpack-timeout': '30s' } },
      });
      await subscribe(admin, { namespace: ns, package: 'flagpole', channel: 'stable', source });
      const condition = async (type: string) =>
        (
          (await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'flagpole', ns)).status?.conditions as
            Condition[] | undefined
        )?.find((c) => c.type === type && c.status === 'True');
      // While the pull fails, the unpack pod waits as a kubelet leaves it, and OLM says it is unpacking.
      const pod = await waitFor(
        'the unpack pod waiting on its pull',
        async () =>
          (
            await admin.list<{
              status?: { phase?: string; initContainerStatuses?: { name: string; state?: { waiting?: Condition } }[] };
            }>(POD_TYPE, { namespace: 'olm', labelSelector: UNPACK_POD_LABEL })
          ).items
            .flatMap((p) => (p.status?.phase === 'Pending' ? (p.status.initContainerStatuses ?? []) : []))
            .find((c) => c.name === 'pull' && /ImagePull/.test(c.state?.waiting?.reason ?? ''))?.state?.waiting,
        WAIT,
      );
      assert.match(pod.reason ?? '', /^(ErrImagePull|ImagePullBackOff)$/);
      assert.match(pod.message ?? '', /MANIFEST_UNKNOWN/);
      const unpacking = await waitFor('the Subscription saying it unpacks', () => condition('BundleUnpacking'), WAIT);
      assert.equal(unpacking.reason, 'UnpackingInProgress');
      const failed = await waitFor(
        'the Subscription saying the unpack failed',
        async () =>
          (
            (await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'flagpole', ns)).status?.conditions as
              Condition[] | undefined
          )?.find((c) => c.type === 'BundleUnpackFailed' && c.status === 'True'),
        WAIT,
      );
      assert.deepEqual(
        [failed.reason, failed.message],
        [
          'BundleUnpackFailed',
          'bundle unpacking failed. Reason: DeadlineExceeded, and Message: ' +
            'Job was active longer than specified deadline',
        ],
      );
      assert.deepEqual(
        (await admin.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: ns })).items,
        [],
        'no InstallPlan',
      );
      // The refresh finds the failed Job and its ConfigMap from the catalog's entry and what the
      // cluster shows OLM made: OLM's name is sha256 of the image reference, 63 hex digits.
      const hash = createHash('sha256').update(image).digest('hex').slice(0, 63);
      assert.ok(await admin.get(JOB_TYPE, hash, 'olm'), `OLM's unpack Job olm/${hash}`);
      const { plan } = await refreshView(admin, ns, 'flagpole');
      assert.deepEqual(
        plan.steps.map((s) => `${s.action} ${s.kind} ${s.namespace}/${s.name}`),
        [
          `delete Subscription ${ns}/flagpole`,
          `delete Job olm/${hash}`,
          `delete ConfigMap olm/${hash}`,
          `create Subscription ${ns}/flagpole`,
        ],
      );
      // The image pushed back (its blobs stayed), the refresh applied: OLM unpacks it again and installs.
      assert.equal((await manifestRequest(cluster!, image, 'PUT', manifest)).status, 201);
      const applied = await applyRefresh(admin, ns, 'flagpole');
      assert.ok(
        applied.steps.every((s) => s.outcome === 'done' || s.outcome === 'already gone'),
        JSON.stringify(applied.steps),
      );
      await waitFor(
        'flagpole installed',
        async () => {
          const s = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'flagpole', ns);
          return s.status?.installedCSV && (await csvPhase(admin, ns, s.status.installedCSV)) === 'Succeeded'
            ? true
            : undefined;
        },
        WAIT,
      );
    });
  });
