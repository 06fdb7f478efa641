// Bundle images read as a person: the pull secrets that apply (the CatalogSource's spec.secrets,
// the console's OLM_CONSOLE_PULL_SECRET) read with that person's client on the sandbox, whose seed
// users are alice (admin of team1, who may get its secrets) and bob (view everywhere, who may get
// no secret); images served by registries of the test's own that want credentials. And the cache
// rule: a bundle read with a secret is handed from the cache only to someone who may get that same
// secret now, as the kubelet's KubeletEnsureSecretPulledImages checks a later pod's secret.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { KubeClient } from '../../k8s/client';
import { SECRET_TYPE } from '../../k8s/core-kinds';
import { CATALOG_SOURCE_TYPE } from '../../olm/resources/catalog-source';
import { withSandbox } from '../../sandbox/testing/sandbox-fixture';
import { clientAs } from '../testing/cluster';
import { gzipLayer, imageOf, startTestRegistry, type TestImage, type TestRegistry } from '../testing/oci-images';
import { forgetBundlesInMemory } from './bundle-cache';
import { bundleManifests, type BundleManifests } from './bundle-manifests';
import type { PullAccess } from './pull-access';
import { DEFAULT_CACHE_BYTES, DEFAULT_LIMITS, type PullSettings } from './pull-settings';

const CSV = (name: string) =>
  JSON.stringify({ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'ClusterServiceVersion', metadata: { name } });
const USER = { username: 'puller', password: 'pa:ss word', identityToken: 'refresh-me' };

let sb: Awaited<ReturnType<typeof withSandbox>>;
let admin: KubeClient;
let alice: KubeClient;
let bob: KubeClient;
let dir: string;
let cacheDir: string;
let privateReg: TestRegistry;
let publicReg: TestRegistry;
let basicReg: TestRegistry;
let privateImage: TestImage;
let publicImage: TestImage;
let basicImage: TestImage;

const settings = (over: Partial<PullSettings> = {}): PullSettings => ({
  ca: [privateReg.caPem, publicReg.caPem, basicReg.caPem],
  privateRegistries: new Set([privateReg.host, publicReg.host, basicReg.host]),
  limits: DEFAULT_LIMITS,
  cacheDir,
  cacheBytes: DEFAULT_CACHE_BYTES,
  ...over,
});

const fromCatalog = (client: KubeClient, name = 'private'): PullAccess => ({
  client,
  catalog: { kind: 'CatalogSource', namespace: 'team1', name },
});

const read = (reg: TestRegistry, repo: string, image: TestImage, access?: PullAccess, s = settings()) =>
  bundleManifests({ name: `${repo}.v1`, image: `${reg.host}/${repo}@${image.digest}` }, s, access);

const csvName = (m: BundleManifests): string => ('csv' in m ? String(m.csv.metadata?.name) : m.unknown);

const dockerConfig = (auths: Record<string, unknown>) => ({
  '.dockerconfigjson': Buffer.from(JSON.stringify({ auths })).toString('base64'),
});

async function putSecret(namespace: string, name: string, type: string, data: Record<string, string>) {
  await admin.delete(SECRET_TYPE, name, { namespace }).catch(() => undefined);
  const made = await admin.create(SECRET_TYPE, { metadata: { name, namespace }, type, data });
  return made as unknown as { metadata: { uid: string } };
}

const records = () =>
  existsSync(cacheDir)
    ? readdirSync(cacheDir)
        .filter((n) => n.endsWith('.json'))
        .map((n) => (JSON.parse(readFileSync(join(cacheDir, n), 'utf8')) as { readWith: unknown }).readWith)
    : [];

async function bundle(repo: string, reg: TestRegistry): Promise<TestImage> {
  const image = imageOf([
    await gzipLayer([
      { name: 'manifests/csv.yaml', content: CSV(`${repo}.v1`) },
      { name: 'metadata/annotations.yaml', content: 'annotations: {}\n' },
    ]),
  ]);
  reg.add(repo, image);
  return image;
}

before(async () => {
  sb = await withSandbox({ demo: false });
  dir = mkdtempSync(join(sb.dir, 'images-'));
  for (const d of ['private', 'public', 'basic']) mkdirSync(join(dir, d));
  privateReg = await startTestRegistry(join(dir, 'private'), { token: 'anonymous', credentials: USER });
  publicReg = await startTestRegistry(join(dir, 'public'), { token: 'anonymous' });
  basicReg = await startTestRegistry(join(dir, 'basic'), { credentials: USER, basic: true });
  privateImage = await bundle('bundles/private', privateReg);
  publicImage = await bundle('bundles/public', publicReg);
  basicImage = await bundle('bundles/basic', basicReg);
  admin = clientAs(sb, 'admin');
  alice = clientAs(sb, 'alice');
  bob = clientAs(sb, 'bob');
  const auth = Buffer.from(`${USER.username}:${USER.password}`).toString('base64');
  await putSecret(
    'team1',
    'pull',
    'kubernetes.io/dockerconfigjson',
    dockerConfig({ [privateReg.host]: { auth }, [`https://${basicReg.host}/`]: { auth } }),
  );
  for (const [name, secrets] of [
    ['private', ['pull']],
    ['opaque', ['not-a-pull-secret']],
    ['two-secrets', ['wrong', 'pull']],
  ] as const)
    await admin.create(CATALOG_SOURCE_TYPE, {
      metadata: { name, namespace: 'team1' },
      spec: { sourceType: 'grpc', address: '127.0.0.1:1', secrets },
    });
});
after(async () => {
  await Promise.all([privateReg?.close(), publicReg?.close(), basicReg?.close()]);
  await sb?.close();
});
beforeEach(() => {
  cacheDir = mkdtempSync(join(dir, 'cache-'));
  forgetBundlesInMemory();
  for (const r of [privateReg, publicReg, basicReg]) r.requests.length = 0;
});

describe("the catalog's pull secrets, read as the person", () => {
  test('alice pulls with the secret her CatalogSource names; bob, who may not get it, is told so', async () => {
    assert.equal(
      csvName(await read(privateReg, 'bundles/private', privateImage, fromCatalog(alice))),
      'bundles/private.v1',
    );
    assert.ok(privateReg.requests.includes('GET /token'));

    const bobs = await read(privateReg, 'bundles/private', privateImage, fromCatalog(bob));
    assert.match(
      csvName(bobs) ?? '',
      /gives no anonymous pull token for bundles\/private \(401\): the image needs credentials, and the pull secrets that may hold its credentials were not read: you may not get secret team1\/pull \(403 Forbidden\)/,
    );
  });

  test('each secret with credentials for the registry is tried in turn, as the kubelet does', async () => {
    await putSecret(
      'team1',
      'wrong',
      'kubernetes.io/dockerconfigjson',
      dockerConfig({ [privateReg.host]: { username: USER.username, password: 'not the password' } }),
    );
    const m = await read(privateReg, 'bundles/private', privateImage, fromCatalog(alice, 'two-secrets'));
    assert.equal(csvName(m), 'bundles/private.v1');
    assert.equal(privateReg.requests.filter((r) => r === 'GET /token').length, 2);
  });

  test('credentials in username and password, sent to a registry that asks for Basic', async () => {
    assert.equal(csvName(await read(basicReg, 'bundles/basic', basicImage, fromCatalog(alice))), 'bundles/basic.v1');
    const anonymous = await read(basicReg, 'bundles/basic', basicImage);
    assert.match(csvName(anonymous) ?? '', /asks for credentials \(Basic\), and no pull secret was read/);
  });

  test('a secret that is not a docker config is named with why it cannot be used', async () => {
    await putSecret('team1', 'not-a-pull-secret', 'Opaque', { token: Buffer.from('x').toString('base64') });
    const m = await read(privateReg, 'bundles/private', privateImage, fromCatalog(admin, 'opaque'));
    assert.match(
      csvName(m) ?? '',
      /secret team1\/not-a-pull-secret cannot be used: it is of type Opaque, not kubernetes\.io\/dockerconfigjson/,
    );
  });

  test("the console's pull secret (an identity token) is read as the person too", async () => {
    await putSecret(
      'olm',
      'global-pull',
      'kubernetes.io/dockerconfigjson',
      dockerConfig({ [privateReg.host]: { identitytoken: USER.identityToken } }),
    );
    const s = settings({ pullSecret: { namespace: 'olm', name: 'global-pull' } });
    const alices = await read(privateReg, 'bundles/private', privateImage, { client: alice }, s);
    assert.match(csvName(alices) ?? '', /you may not get secret olm\/global-pull \(403 Forbidden\)/);
    const admins = await read(privateReg, 'bundles/private', privateImage, { client: admin }, s);
    assert.equal(csvName(admins), 'bundles/private.v1');
    assert.ok(privateReg.requests.includes('POST /token'), privateReg.requests.join('\n'));
  });
});

describe('the cache hands a bundle only to someone who could pull it', () => {
  test('read with a secret: not served to bob, nor to a caller with no person; served to alice', async () => {
    const { metadata } = await admin.get<{ metadata: { uid: string } }>(SECRET_TYPE, 'pull', 'team1');
    assert.equal(
      csvName(await read(privateReg, 'bundles/private', privateImage, fromCatalog(alice))),
      'bundles/private.v1',
    );
    assert.deepEqual(records(), [
      { anonymous: false, secrets: [{ namespace: 'team1', name: 'pull', uid: metadata.uid }] },
    ]);

    for (const access of [fromCatalog(bob), undefined]) {
      forgetBundlesInMemory();
      privateReg.requests.length = 0;
      const m = await read(privateReg, 'bundles/private', privateImage, access);
      assert.ok('unknown' in m, `served from the cache: ${JSON.stringify(m).slice(0, 200)}`);
      assert.ok(privateReg.requests.length > 0);
    }

    forgetBundlesInMemory();
    privateReg.requests.length = 0;
    assert.equal(
      csvName(await read(privateReg, 'bundles/private', privateImage, fromCatalog(alice))),
      'bundles/private.v1',
    );
    assert.deepEqual(privateReg.requests, []);
  });

  test('a secret made again (another uid) opens the cache only after the registry answers', async () => {
    assert.equal(
      csvName(await read(privateReg, 'bundles/private', privateImage, fromCatalog(alice))),
      'bundles/private.v1',
    );
    const auth = Buffer.from(`${USER.username}:${USER.password}`).toString('base64');
    const again = await putSecret(
      'team1',
      'pull',
      'kubernetes.io/dockerconfigjson',
      dockerConfig({ [privateReg.host]: { auth } }),
    );
    forgetBundlesInMemory();
    privateReg.requests.length = 0;
    assert.equal(
      csvName(await read(privateReg, 'bundles/private', privateImage, fromCatalog(alice))),
      'bundles/private.v1',
    );
    const asked = privateReg.requests.filter((r) => r.startsWith('GET /v2/'));
    assert.ok(
      asked.some((r) => r.includes('/manifests/')),
      asked.join('\n'),
    );
    assert.ok(!asked.some((r) => r.includes('/blobs/')), asked.join('\n'));
    const [record] = records() as { secrets: { uid: string }[] }[];
    assert.deepEqual(record?.secrets.map((s) => s.uid).at(-1), again.metadata.uid);
  });

  test('read anonymously: served to anyone, without asking the registry', async () => {
    assert.equal(csvName(await read(publicReg, 'bundles/public', publicImage)), 'bundles/public.v1');
    assert.deepEqual(records(), [{ anonymous: true, secrets: [] }]);
    forgetBundlesInMemory();
    publicReg.requests.length = 0;
    assert.equal(csvName(await read(publicReg, 'bundles/public', publicImage, fromCatalog(bob))), 'bundles/public.v1');
    assert.deepEqual(publicReg.requests, []);
  });
});
