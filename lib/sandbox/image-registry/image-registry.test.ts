// The sandbox's image registry read by the console's own bundle image reader
// (lib/server/bundle-images/bundle-image.ts), and the demo catalog published in images: what a
// registry client and a catalog client see, and OLM v0 and v1 installing a bundle whose objects
// are only in its image.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readRegistryV1Files } from '../../olm/bundle/registry-v1-files';
import { bundleObjects } from '../../olm/fbc/model';
import { loadCatalog } from '../../olm/fbc/load-catalog';
import { readBundleImage } from '../../server/bundle-images/bundle-image';
import { forgetBundlesInMemory } from '../../server/bundle-images/bundle-cache';
import {
  DEFAULT_CACHE_BYTES,
  DEFAULT_LIMITS,
  pullSettings,
  type PullSettings,
} from '../../server/bundle-images/pull-settings';
import { sandboxRegistryEnv } from '../../../scripts/start-options';
import { DEMO_CATALOG_DIR } from '../demo-catalog/location';
import { fetchCatalog } from '../registry/registry-fetch';
import { withSandbox } from '../testing/sandbox-fixture';
import type { KObject } from '../store/types';
import { PULL_SECRET_NAME } from './pull-secret';

type Sb = Awaited<ReturnType<typeof withSandbox>>;
type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

function get(
  sb: Sb,
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, ca: sb.caPem }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const sha = async (b: Buffer) => `sha256:${(await import('node:crypto')).createHash('sha256').update(b).digest('hex')}`;

/** The demo catalog as the project writes it, every bundle with its objects inline. */
const demo = loadCatalog(DEMO_CATALOG_DIR);
const inlineObjects = (pkg: string, bundle: string) =>
  bundleObjects(demo.packages.get(pkg)!.bundles.get(bundle)!) as KObject[];

describe('the sandbox image registry, as the console reads it', () => {
  let sb: Sb;
  let settings: PullSettings;
  let bundles: Map<string, { image?: string; properties: { type: string; value: unknown }[] }>;
  before(async () => {
    sb = await withSandbox({ bundleImages: true, deploymentDelayMs: 0 });
    settings = {
      ca: [sb.caPem],
      privateRegistries: new Set([sb.imageRegistry.registry.host]),
      limits: DEFAULT_LIMITS,
      cacheBytes: DEFAULT_CACHE_BYTES,
    };
    const entry = [...sb.olm.catalogs.entries.values()].find((e) => e.name === 'olm-console-demo')!;
    const served = await fetchCatalog(`127.0.0.1:${entry.registry!.port}`);
    bundles = new Map(
      [...served.packages.values()].flatMap((p) => [...p.bundles.values()].map((b) => [b.name, b] as const)),
    );
  });
  after(() => sb.close());

  const imageOf = (bundle: string) => bundles.get(bundle)!.image!;

  test('the registry gRPC API gives every demo bundle by image only, in the sandbox registry', () => {
    assert.equal(
      bundles.size,
      [...demo.packages.values()].reduce((n, p) => n + p.bundles.size, 0),
    );
    let csvs = 0;
    for (const [name, b] of bundles) {
      assert.ok(b.image?.startsWith(`${sb.imageRegistry.registry.host}/demo/`), `${name}: ${b.image}`);
      assert.match(b.image!, /@sha256:[a-f0-9]{64}$/);
      // What the API gives of a channel head is the CSV opm builds from olm.csv.metadata, with
      // no install strategy; no CRD.
      const objects = bundleObjects(b as never) as KObject[];
      assert.deepEqual(
        objects.filter((o) => o.kind !== 'ClusterServiceVersion').map((o) => o.kind),
        [],
        name,
      );
      const csv = objects.find((o) => o.kind === 'ClusterServiceVersion');
      if (!csv) continue;
      csvs++;
      const install = (csv.spec as { install: { spec: { deployments: unknown } } }).install;
      assert.equal(install.spec.deployments, null, `${name}: no deployments in the catalog`);
    }
    assert.ok(csvs >= demo.packages.size, `the channel heads' CSVs were read (${csvs})`);
  });

  test("catalogd's content gives the same image-only bundles", async () => {
    const r = await get(sb, `${sb.olmV1.contentUrl}/catalogs/olm-console-demo/api/v1/all`);
    assert.equal(r.status, 200);
    const blobs = r.body
      .toString()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { schema: string; name: string; image?: string; properties?: { type: string }[] })
      .filter((b) => b.schema === 'olm.bundle');
    assert.equal(blobs.length, bundles.size);
    for (const b of blobs) {
      assert.equal(b.image, imageOf(b.name));
      assert.ok(!b.properties!.some((p) => p.type === 'olm.bundle.object'), b.name);
    }
  });

  test("the console's reader pulls the whole bundle: the objects the inline catalog carries", async () => {
    forgetBundlesInMemory();
    const image = await readBundleImage(imageOf('pgpilot.v1.5.0'), settings);
    assert.equal(image.digest, imageOf('pgpilot.v1.5.0').split('@')[1]);
    const read = readRegistryV1Files(image.files);
    assert.ok(!('error' in read), JSON.stringify(read));
    assert.equal(read.packageName, 'pgpilot');
    assert.equal(read.annotations['operators.operatorframework.io.bundle.channels.v1'], 'fast');
    const inline = inlineObjects('pgpilot', 'pgpilot.v1.5.0');
    const csv = inline.find((o) => o.kind === 'ClusterServiceVersion')!;
    assert.deepEqual(read.csv, csv);
    // The files are read in name order, so the other objects by name.
    const byName = (objects: KObject[]) =>
      [...objects].sort((a, b) => String(a.metadata.name).localeCompare(String(b.metadata.name)));
    assert.deepEqual(byName(read.others as KObject[]), byName(inline.filter((o) => o !== csv)));
    assert.ok([...image.files.keys()].includes('manifests/pgpilot.clusterserviceversion.yaml'));
  });

  test("npm start's settings, read from the sandbox's kubeconfig, let the console pull", async () => {
    const { env } = sandboxRegistryEnv(readFileSync(sb.kubeconfigPath, 'utf8'), join(sb.dir, 'serving.crt'), {});
    const fromEnv = pullSettings(env as NodeJS.ProcessEnv);
    assert.ok(!('off' in fromEnv), JSON.stringify(fromEnv));
    forgetBundlesInMemory();
    const image = await readBundleImage(imageOf('gatewise.v1.2.0'), fromEnv);
    assert.ok(image.files.has('metadata/annotations.yaml'));
  });

  test('manifests by tag and digest, HEAD, and blobs carry their digests', async () => {
    const ref = imageOf('cachely.v0.9.2');
    const digest = ref.split('@')[1]!;
    const base = `${sb.imageRegistry.registry.origin}/v2/demo/cachely-bundle`;
    const byTag = await get(sb, `${base}/manifests/v0.9.2`);
    assert.equal(byTag.status, 200);
    assert.equal(byTag.headers['content-type'], 'application/vnd.oci.image.manifest.v1+json');
    assert.equal(byTag.headers['docker-content-digest'], digest);
    assert.equal(await sha(byTag.body), digest);
    const head = await get(sb, `${base}/manifests/${digest}`, {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers['docker-content-digest'], digest);
    assert.equal(head.headers['content-length'], String(byTag.body.length));
    assert.equal(head.body.length, 0);
    const manifest = JSON.parse(byTag.body.toString()) as { config: { digest: string }; layers: { digest: string }[] };
    for (const d of [manifest.config.digest, manifest.layers[0]!.digest]) {
      const blob = await get(sb, `${base}/blobs/${d}`);
      assert.equal(blob.status, 200);
      assert.equal(await sha(blob.body), d);
    }
  });

  test('a manifest deleted is gone, and a pull of it fails, until it is put back', async () => {
    const ref = imageOf('logship.v0.5.0');
    const digest = ref.split('@')[1]!;
    const url = `${sb.imageRegistry.registry.origin}/v2/demo/logship-bundle/manifests/${digest}`;
    const manifest = await get(sb, url);
    assert.equal(manifest.status, 200);
    assert.equal((await get(sb, url, {}, 'DELETE')).status, 202);
    const gone = await get(sb, url);
    assert.equal(gone.status, 404);
    assert.equal(
      (JSON.parse(gone.body.toString()) as { errors: { code: string }[] }).errors[0]!.code,
      'MANIFEST_UNKNOWN',
    );
    await assert.rejects(() => readBundleImage(ref, settings), /has no such manifest or blob \(404\)/);
    assert.equal((await get(sb, url, {}, 'DELETE')).status, 404, 'deleted once');
    const type = String(manifest.headers['content-type']);
    const wrong = `sha256:${'0'.repeat(64)}`;
    const refused = await get(sb, url.replace(digest, wrong), { 'content-type': type }, 'PUT', manifest.body);
    assert.equal(refused.status, 400, 'a digest that is not the content');
    const put = await get(sb, url, { 'content-type': type }, 'PUT', manifest.body);
    assert.equal(put.status, 201);
    assert.equal(put.headers['docker-content-digest'], digest);
    const back = await get(sb, url);
    assert.deepEqual([back.status, back.headers['content-type'], back.body.equals(manifest.body)], [200, type, true]);
    assert.ok(await readBundleImage(ref, settings));
  });

  test('an unknown tag, blob or repository is 404 in the distribution error shape', async () => {
    const base = `${sb.imageRegistry.registry.origin}/v2`;
    const cases = [
      [`${base}/demo/cachely-bundle/manifests/v9.9.9`, 'MANIFEST_UNKNOWN'],
      [`${base}/demo/cachely-bundle/blobs/sha256:${'0'.repeat(64)}`, 'BLOB_UNKNOWN'],
      [`${base}/demo/nothing-here/manifests/v1`, 'NAME_UNKNOWN'],
    ] as const;
    for (const [url, code] of cases) {
      const r = await get(sb, url);
      assert.equal(r.status, 404, url);
      const body = JSON.parse(r.body.toString()) as { errors: { code: string; message: string }[] };
      assert.equal(body.errors[0]!.code, code);
    }
    await assert.rejects(
      () => readBundleImage(`${sb.imageRegistry.registry.host}/demo/cachely-bundle:v9.9.9`, settings),
      /has no such manifest or blob \(404\)/,
    );
  });

  test('the protected repository refuses a pull without credentials and serves one with the seeded secret', async () => {
    const ref = imageOf('gpu-forge.v24.3.1-build.2');
    forgetBundlesInMemory();
    await assert.rejects(() => readBundleImage(ref, settings), /no anonymous pull token .* needs credentials/);
    const manifestUrl = `${sb.imageRegistry.registry.origin}/v2/demo/gpu-forge-bundle/manifests/${ref.split('@')[1]}`;
    const challenged = await get(sb, manifestUrl);
    assert.equal(challenged.status, 401);
    const challenge = String(challenged.headers['www-authenticate']);
    const param = (k: string) => new RegExp(`${k}="([^"]*)"`).exec(challenge)?.[1];
    assert.match(challenge, /^Bearer /);
    assert.equal(param('scope'), 'repository:demo/gpu-forge-bundle:pull');
    const tokenUrl = `${param('realm')}?service=${param('service')}&scope=${param('scope')}`;
    assert.equal((await get(sb, tokenUrl)).status, 401);
    const wrong = Buffer.from('olm-console-demo:not-the-password').toString('base64');
    assert.equal((await get(sb, tokenUrl, { Authorization: `Basic ${wrong}` })).status, 401);

    // The credentials as a client finds them: the pull secret the sandbox seeds.
    const secret = sb.api.storeGet(sb.api.resources.find('', 'v1', 'secrets')!, 'olm', PULL_SECRET_NAME) as unknown as {
      type: string;
      data: Record<string, string>;
    };
    assert.equal(secret.type, 'kubernetes.io/dockerconfigjson');
    const config = JSON.parse(Buffer.from(secret.data['.dockerconfigjson']!, 'base64').toString()) as {
      auths: Record<string, { auth: string }>;
    };
    const auth = config.auths[sb.imageRegistry.registry.host]!.auth;
    const token = await get(sb, tokenUrl, { Authorization: `Basic ${auth}` });
    assert.equal(token.status, 200);
    const bearer = (JSON.parse(token.body.toString()) as { token: string }).token;
    const served = await get(sb, manifestUrl, { Authorization: `Bearer ${bearer}` });
    assert.equal(served.status, 200);
    assert.equal(await sha(served.body), ref.split('@')[1]);
    // A token the token service did not issue opens nothing.
    assert.equal((await get(sb, manifestUrl, { Authorization: 'Bearer forged' })).status, 401);
  });

  test('another start makes the same images: every digest the catalog names is the same', async () => {
    const other = await withSandbox({ bundleImages: true, deploymentDelayMs: 0 });
    try {
      const entry = [...other.olm.catalogs.entries.values()].find((e) => e.name === 'olm-console-demo')!;
      const served = await fetchCatalog(`127.0.0.1:${entry.registry!.port}`);
      const again = new Map(
        [...served.packages.values()].flatMap((p) => [...p.bundles.values()].map((b) => [b.name, b.image] as const)),
      );
      assert.notEqual(again.get('pgpilot.v1.5.0'), imageOf('pgpilot.v1.5.0'), 'another registry, another port');
      const digest = (image?: string) => image?.split('@')[1];
      assert.deepEqual(
        new Map([...again].map(([n, i]) => [n, digest(i)])),
        new Map([...bundles].map(([n, b]) => [n, digest(b.image)])),
      );
    } finally {
      await other.close();
    }
  });
});
