// A package's details through the route handler, against the sandbox's demo catalog: channels,
// versions, a chosen version's CSV facts, and the 404s and 400s a person can act on.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { PackageDetails } from '@/lib/catalog/package-details';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

describe('GET /api/catalog/packages/<ns>/<catalog>/<package>', () => {
  const sb = routeSandbox();
  let GET: Handler;
  before(async () => {
    ({ GET } = await import('./route'));
  });

  const get = (pkg: string, query = '', user = 'admin', catalog = 'olm-console-demo') =>
    sb.call<PackageDetails & ErrorBody>(GET, `/api/catalog/packages/olm/${catalog}/${pkg}${query}`, {
      user,
      bearer: true,
      params: { namespace: 'olm', catalog, package: pkg },
    });

  test('the default channel head, described from its full CSV', async () => {
    const { status, body } = await get('pgpilot');
    assert.equal(status, 200);
    assert.equal(body.source, 'registry');
    assert.equal(body.edgesKnown, true);
    assert.equal(body.defaultChannel, 'stable');
    assert.deepEqual(
      body.channels.map((c) => [c.name, c.isDefault, c.headVersion]),
      [
        ['candidate', false, '2.0.0-rc.1'],
        ['fast', false, '1.5.0'],
        ['stable', true, '1.4.0'],
      ],
    );
    const stable = body.channels.find((c) => c.name === 'stable')!;
    assert.deepEqual(
      stable.versions.map((v) => v.version),
      ['1.4.0', '1.3.0', '1.2.0', '1.1.0', '1.0.0'],
    );
    const s = body.selected;
    assert.equal(s.channel, 'stable');
    assert.equal(s.csvName, 'pgpilot.v1.4.0');
    assert.equal(s.isHead, true);
    assert.equal(s.replaces, 'pgpilot.v1.3.0');
    assert.equal(s.skipRange, '>=1.0.0 <1.4.0');
    const csv = s.csv!;
    assert.equal(csv.suggestedNamespace, 'pgpilot-system');
    assert.equal(csv.initializationResource?.kind, 'PostgresCluster');
    assert.ok(csv.description.length > 100, 'the long description comes from the full CSV');
    assert.ok(csv.providedApis.some((a) => a.kind === 'PostgresCluster'));
    assert.deepEqual(
      csv.installModes.filter((m) => m.supported).map((m) => m.type),
      ['AllNamespaces', 'OwnNamespace', 'SingleNamespace', 'MultiNamespace'],
    );
    assert.ok(csv.examples.length > 0, 'alm-examples are parsed');
    assert.ok(csv.links.every((l) => /^https?:/.test(l.url)));
  });

  test('an arm64-only operator against the amd64 sandbox node: the platforms say it cannot run', async () => {
    const admin = await get('metricsmith');
    assert.equal(admin.status, 200);
    assert.deepEqual(admin.body.selected.csv?.arch, ['arm64']);
    assert.deepEqual(admin.body.platforms, [{ os: 'linux', arch: 'amd64' }]);
    const bob = await get('metricsmith', '', 'bob');
    assert.equal(bob.status, 200);
    assert.equal(bob.body.platforms, undefined, 'a person who may not list nodes is not told a guess');
  });

  test('another channel and an older version, by version or CSV name', async () => {
    const byVersion = await get('pgpilot', '?channel=fast&version=1.2.0');
    assert.equal(byVersion.status, 200);
    assert.equal(byVersion.body.selected.csvName, 'pgpilot.v1.2.0');
    assert.equal(byVersion.body.selected.isHead, false);
    assert.equal(byVersion.body.selected.csv?.version, '1.2.0');
    const byName = await get('pgpilot', '?channel=candidate&version=pgpilot.v2.0.0-rc.1');
    assert.equal(byName.body.selected.version, '2.0.0-rc.1');
  });

  test('package dependencies and the uninstall message of a version', async () => {
    const { body } = await get('vaultkeeper');
    assert.deepEqual(body.selected.requiredPackages, [{ packageName: 'certwarden', versionRange: '>=1.0.0 <2.0.0' }]);
    assert.ok(body.selected.csv?.uninstallMessage);
    assert.equal(body.selected.csv?.suggestedNamespaceTemplate?.name, 'vaultkeeper-system');
  });

  test('deprecations of package, channel and bundle', async () => {
    const { body } = await get('flagpole', '?channel=legacy');
    assert.ok(body.deprecation, 'package deprecation');
    assert.ok(body.channels.find((c) => c.name === 'legacy')?.deprecation, 'channel deprecation');
    const old = body.channels.flatMap((c) => c.versions).find((v) => v.version === '1.0.0');
    assert.ok(old?.deprecation, 'bundle deprecation');
  });

  test('unknown package, channel or version: 404 saying what exists', async () => {
    const pkg = await get('nope');
    assert.equal(pkg.status, 404);
    assert.match(pkg.body.error.message, /package nope is not in catalog olm\/olm-console-demo/);
    const ch = await get('pgpilot', '?channel=beta');
    assert.equal(ch.status, 404);
    assert.match(ch.body.error.message, /no channel beta; its channels are candidate, fast, stable/);
    const v = await get('pgpilot', '?version=9.9.9');
    assert.equal(v.status, 404);
    assert.match(v.body.error.message, /no version 9\.9\.9; it has 1\.4\.0, 1\.3\.0/);
    const cat = await get('pgpilot', '', 'admin', 'other-catalog');
    assert.equal(cat.status, 404);
  });

  test('bad names are 400s naming the parameter', async () => {
    const res = await GET(sb.request('/x', { bearer: true }), {
      params: Promise.resolve({ namespace: 'Bad_NS', catalog: 'c', package: 'p' }),
    });
    assert.equal(res.status, 400);
    assert.match(((await res.json()) as ErrorBody).error.message, /^namespace: /);
    const q = await get('pgpilot', `?channel=${'x'.repeat(300)}`);
    assert.equal(q.status, 400);
    assert.match(q.body.error.message, /^channel: /);
  });

  test("a namespace-only user sees a global catalog's package through PackageManifests in their namespace", async () => {
    const denied = await get('pgpilot', '', 'alice');
    assert.equal(denied.status, 404, 'alice cannot read the olm namespace');
    const { status, body } = await get('pgpilot', '?namespace=team1', 'alice');
    assert.equal(status, 200);
    assert.equal(body.selected.csvName, 'pgpilot.v1.4.0');
    // The shared index read the registry for the admin already: alice gets its edges too.
    assert.equal(body.source, 'registry');
  });

  test('without a token: 401', async () => {
    const res = await GET(new Request('http://console.local/x'), {
      params: Promise.resolve({ namespace: 'olm', catalog: 'olm-console-demo', package: 'pgpilot' }),
    });
    assert.equal(res.status, 401);
  });
});
