// A package's rollout against three sandbox clusters (lib/sandbox/fleet.ts): each cluster's own
// installs of it, the InstallPlan waiting there, its channel's head and the path from its version,
// walked over the demo catalog's edges (lib/sandbox/demo-catalog/catalog/*/catalog.yaml) as each
// cluster's registry or catalogd serves them; a cluster whose catalog is gone says so on its own
// row while the home cluster, with a catalog of the same name, keeps its path; a cluster that
// stops answering is its own row.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { FleetRolloutResponse, RolloutInstall } from '@/lib/api/fleet-rollout';
import { CATALOG_SOURCE_TYPE } from '@/lib/olm/resources/catalog-source';
import type { ErrorBody } from '@/lib/server/testing/route-sandbox';
import { fleetSandbox } from '@/lib/server/testing/fleet-sandbox';

type Get = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

describe("a package's rollout across three sandbox clusters", () => {
  const sb = fleetSandbox(3);
  let get: Get;
  before(async () => {
    get = (await import('./route')).GET as unknown as Get;
  });

  async function rollout<T = FleetRolloutResponse>(pkg: string, user = 'admin', query = '') {
    const res = await get(sb.request(`/api/fleet/operators/${pkg}${query}`, { user }), {
      params: Promise.resolve({ package: pkg }),
    });
    return { status: res.status, body: (await res.json()) as T };
  }

  function installsOf(body: FleetRolloutResponse, cluster: string): RolloutInstall[] {
    const c = body.clusters.find((x) => x.name === cluster);
    assert.ok(c?.ok, `${cluster}: ${JSON.stringify(c)}`);
    return c.value.installs;
  }

  test('certwarden: the waiting plans on the production clusters, and each path over the catalog edges', async () => {
    const { status, body } = await rollout('certwarden');
    assert.equal(status, 200);
    assert.deepEqual(
      body.clusters.map((c) => c.name),
      ['prod-east', 'prod-west', 'staging'],
    );
    for (const cluster of ['prod-east', 'prod-west']) {
      const [sub, ...rest] = installsOf(body, cluster);
      assert.equal(rest.length, 0);
      assert.equal(sub!.olm, 'v0');
      assert.equal(sub!.version, '1.0.0');
      assert.equal(sub!.channel, 'stable');
      assert.equal(sub!.catalog, 'olm/olm-console-demo');
      assert.deepEqual(sub!.waiting, {
        installPlan: sub!.waiting!.installPlan,
        from: 'certwarden.v1.0.0',
        to: ['certwarden.v1.1.0'],
      });
      // stable: certwarden.v1.1.0 replaces certwarden.v1.0.0, and is the head.
      assert.deepEqual(sub!.head, { name: 'certwarden.v1.1.0', version: '1.1.0' });
      assert.deepEqual(
        sub!.path?.steps.map((s) => [s.from, s.to, s.via]),
        [['certwarden.v1.0.0', 'certwarden.v1.1.0', ['replaces']]],
      );
      assert.equal(sub!.path?.reachesHead, true);
    }
    const [staging] = installsOf(body, 'staging');
    assert.equal(staging!.version, '1.1.0');
    assert.equal(staging!.waiting, undefined);
    assert.deepEqual(staging!.path, { steps: [], reachesHead: true });
  });

  test('pgpilot: a skipRange step on prod-west, and an OLM v1 extension pinned at its version on staging', async () => {
    const { body } = await rollout('pgpilot');
    const [west] = installsOf(body, 'prod-west');
    assert.equal(west!.pathUnknown, undefined);
    assert.equal(west!.version, '1.2.0');
    // stable: pgpilot.v1.4.0 is the head, and its skipRange >=1.0.0 <1.4.0 holds 1.2.0.
    assert.deepEqual(west!.head, { name: 'pgpilot.v1.4.0', version: '1.4.0' });
    assert.deepEqual(
      west!.path?.steps.map((s) => [s.to, s.via]),
      [['pgpilot.v1.4.0', ['skipRange']]],
    );
    const [ext] = installsOf(body, 'staging');
    assert.equal(ext!.olm, 'v1');
    assert.equal(ext!.version, '1.3.0');
    assert.equal(ext!.versionConstraint, '1.3.0');
    assert.equal(ext!.pathUnknown, undefined);
    assert.equal(ext!.catalog, 'olm-console-demo');
    // Pinned to 1.3.0: the only version inside the constraint is the one installed.
    assert.deepEqual(ext!.head, { name: 'pgpilot.v1.3.0', version: '1.3.0' });
    assert.deepEqual(ext!.path, { steps: [], reachesHead: true });
  });

  test('a package name that is not one, or an unknown query parameter, is refused', async () => {
    const bad = await rollout<ErrorBody>('no/such');
    assert.equal(bad.status, 400);
    const query = await rollout<ErrorBody>('certwarden', 'admin', '?cluster=staging');
    assert.equal(query.status, 400);
    assert.match(query.body.error.message, /cluster/);
  });

  test("a namespace admin sees only what each cluster lets her: no one else's Subscriptions", async () => {
    const { status, body } = await rollout('certwarden', 'alice');
    assert.equal(status, 200);
    for (const c of body.clusters) {
      assert.ok(c.ok, JSON.stringify(c));
      assert.deepEqual(c.value.installs, []);
      assert.ok(
        c.value.notes.some((n) => /alice/.test(n)),
        JSON.stringify(c.value.notes),
      );
    }
  });

  test("a cluster whose catalog is gone says so on its row; the home cluster's same-named catalog stays its own", async () => {
    await sb.admin('staging').delete(CATALOG_SOURCE_TYPE, 'olm-console-demo', { namespace: 'olm' });
    // bob has asked nothing yet, so no cached answer stands in.
    const { body } = await rollout('certwarden', 'bob');
    const [staging] = installsOf(body, 'staging');
    assert.equal(staging!.path, undefined);
    assert.match(staging!.pathUnknown ?? '', /catalog olm\/olm-console-demo has no package certwarden/);
    const [east] = installsOf(body, 'prod-east');
    assert.equal(east!.path?.reachesHead, true);
  });

  test('a cluster that stops answering is its own row with the reason; the others still answer', async () => {
    await sb.fleet.clusters[1]!.sandbox.stop();
    const { status, body } = await rollout('pgpilot', 'bob');
    assert.equal(status, 200);
    const west = body.clusters.find((c) => c.name === 'prod-west')!;
    assert.ok(!west.ok);
    assert.equal(west.error.reason, 'ServiceUnavailable');
    assert.ok(body.clusters.find((c) => c.name === 'prod-east')!.ok);
  });
});
