// A catalog reached only through its pod (the sandbox with catalog-address service, as on a real
// cluster): the console reads its registry through a port-forward opened with the person's
// credentials. That forward serves their session only, and it ends (its local port refuses, the
// credentials it kept are forgotten) when they sign out, when the session is logged out on another
// replica, and when the session or its ID token runs out; a read under way finishes.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { sharedCatalogIndex } from '@/lib/catalog/catalog-index';
import { RegistryClient } from '@/lib/catalog/registry-client';
import { reachable } from '@/lib/catalog/registry-route';
import { listenPortForward } from '@/lib/k8s/port-forward';
import { isKubeError } from '@/lib/k8s/errors';
import { CATALOG_SOURCE_POD_LABEL, CATALOG_SOURCE_TYPE } from '@/lib/olm/resources/catalog-source';
import { POD_TYPE } from '@/lib/k8s/core-kinds';
import { bundleCopy } from '@/lib/server/testing/bundle-copy';
import { collected } from '@/lib/server/testing/collected';
import { clientAs, waitFor } from '@/lib/server/testing/cluster';
import { routeSandbox } from '@/lib/server/testing/route-sandbox';
import { newSession, sealSession, SESSION_COOKIE, type Session } from '@/lib/server/session';
import { needsSharedCatalogs, sharedCatalog } from '@/lib/testing/shared-catalogs';

type Handler = (req: Request) => Promise<Response>;

const origin = 'http://console.local';
// A published catalog whose ListBundles stream is megabytes: a read of it is under way for a while.
const CATALOG = 'okderators';
const PKG = 'cert-manager-operator';
describe("port-forwards made with a person's credentials end with their session", needsSharedCatalogs, () => {
  const sb = routeSandbox({ catalogs: [sharedCatalog(CATALOG)], demo: false, catalogAddress: 'service' });
  let session: { POST: Handler; DELETE: Handler };
  let context: typeof import('@/lib/server/context');
  before(async () => {
    process.env.OLM_CONSOLE_PUBLIC_URL = origin;
    await waitFor('the catalog ready', async () => {
      const cs = await sb.admin.get<{ status?: { connectionState?: { lastObservedState?: string } } }>(
        CATALOG_SOURCE_TYPE,
        CATALOG,
        'olm',
      );
      return cs.status?.connectionState?.lastObservedState === 'READY' ? cs : undefined;
    });
    session = await import('./route');
    context = await import('@/lib/server/context');
  });

  /** Signs in with the user's token through the login route: the cookie and CSRF token a page gets. */
  const signIn = async (user: string) => {
    const res = await session.POST(
      new Request(`${origin}/api/session`, {
        method: 'POST',
        headers: { origin, host: 'console.local', 'content-type': 'application/json' },
        body: JSON.stringify({ token: sb.tokens[user] }),
      }),
    );
    assert.equal(res.status, 200);
    const { csrfToken } = (await res.json()) as { csrfToken: string };
    return { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]!, csrf: csrfToken };
  };
  /** A session made by hand (one about to end), as its cookie. */
  const cookieOf = (s: Session) => ({
    cookie: `${SESSION_COOKIE}=${sealSession(s, context.sessionKey())}`,
    csrf: s.csrf,
  });
  const signOut = ({ cookie, csrf }: { cookie: string; csrf: string }) =>
    session.DELETE(
      new Request(`${origin}/api/session`, {
        method: 'DELETE',
        headers: { cookie, origin, host: 'console.local', 'x-csrf-token': csrf },
      }),
    );
  /** The person's client as a route takes it from their request. */
  const clientOf = ({ cookie }: { cookie: string }) =>
    context.requestClient(new Request(`${origin}/api/catalog/packages`, { headers: { cookie } })).client;
  /** Where the console's registry reads for this person go: the local end of their port-forward. */
  const registryOf = async (who: { cookie: string }) => {
    const found = await sharedCatalogIndex().lookupPackage(
      clientOf(who),
      { namespace: 'olm', catalog: CATALOG, package: PKG },
      [],
    );
    assert.equal(found?.source, 'registry');
    return found.source === 'registry' ? found.address : '';
  };
  /** The same for someone who may port-forward: a local forward's address, never ''. */
  const forwardOf = async (who: { cookie: string }) => {
    // The index answers '' when it found no way to the registry (its route's error is not kept):
    // said here, so that two failed routes are not taken for one forward shared by two sessions.
    const address = await registryOf(who);
    assert.match(address, /^127\.0\.0\.1:\d+$/, 'read through a local forward');
    return address;
  };
  const packagesAt = async (dial: string) => {
    const client = new RegistryClient(dial, 5_000);
    try {
      return await client.listPackages();
    } finally {
      client.close();
    }
  };
  /** The local port refuses connections now: the forward stopped listening. */
  const refusesNow = async (dial: string, why: string) => assert.equal(await reachable(dial), false, why);
  /** The same within `ms`, for what a timer or another replica's record ends. */
  const refused = async (dial: string, why: string, ms = 8_000) =>
    waitFor(why, async () => ((await reachable(dial)) ? undefined : true), ms);

  test('signing out ends the forward: a read under way finishes, the port then refuses', async () => {
    const admin = await signIn('admin');
    const dial = await forwardOf(admin);
    assert.match(dial, /^127\.0\.0\.1:\d+$/, 'read through a port-forward');
    assert.ok((await packagesAt(dial)).includes(PKG));

    // Someone who may not port-forward to the pod is not lent the admin's forward: the index gives
    // them no way to the registry, and their own port-forward is refused with the cluster's reason.
    const bob = await signIn('bob');
    assert.equal(await registryOf(bob), '', "bob's reads never go through the admin's forward");
    const pod = (
      await sb.admin.list<{ metadata: { name: string } }>(POD_TYPE, {
        namespace: 'olm',
        labelSelector: `${CATALOG_SOURCE_POD_LABEL}=${CATALOG}`,
      })
    ).items[0]!.metadata.name;
    await assert.rejects(listenPortForward(clientAs(sb.sandbox, 'bob').kubeConfig, 'olm', pod, 50051), (err) => {
      assert.ok(isKubeError(err, 403), String(err));
      assert.match((err as Error).message, /forbidden.*pods\/portforward|portforward.*forbidden/is);
      return true;
    });

    const reader = new RegistryClient(dial, 30_000);
    const expected = (await reader.listBundles()).length;
    let readDone = false;
    let out: Promise<{ status: number; another: string; readOpen: boolean }> | undefined;
    const bundles = await reader.listBundles((b) => {
      // Signed out while the first messages arrive: the stream is open through the forward. Then,
      // while it still is, another read of the same registry is tried at the same local address.
      out ??= signOut(admin).then(async (res) => {
        const another = await packagesAt(dial).then(
          () => 'read',
          (err: Error) => `refused: ${err.message}`,
        );
        return { status: res.status, another, readOpen: !readDone };
      });
      return b;
    });
    readDone = true;
    reader.close();
    const { status, another, readOpen } = await out!;
    assert.equal(status, 204);
    assert.equal(bundles.length, expected, 'the read under way finished whole');
    assert.match(another, /^refused/, 'nothing new starts through the forward, not even beside a read under way');
    assert.ok(readOpen, 'the other read was tried while the first was still open');
    await refusesNow(dial, "the signed-out person's forward refuses connections");
  });

  test('once signed out, nothing in the console holds the credentials the forward was made with', async () => {
    const who = await signIn('admin');
    let client: ReturnType<typeof clientOf> | undefined = clientOf(who);
    const credentials = new WeakRef(client.kubeConfig);
    const found = await sharedCatalogIndex().lookupPackage(
      client,
      { namespace: 'olm', catalog: CATALOG, package: PKG },
      [],
    );
    client = undefined;
    const dial = found?.source === 'registry' ? found.address : '';
    assert.ok((await packagesAt(dial)).includes(PKG));
    // A connection open through the forward, as a read under way has one: it outlives the sign-out.
    const [host, port] = dial.split(':');
    const open = connect({ host, port: Number(port) });
    await once(open, 'connect');
    try {
      assert.equal(await collected([credentials]), false, 'the forward holds them while the person is signed in');
      assert.equal((await signOut(who)).status, 204);
      assert.ok(await collected([credentials]), 'nothing holds them once the person signed out');
      assert.equal(open.destroyed, false, 'the connection under way was left to finish');
    } finally {
      open.destroy();
    }
  });

  test("a CSV read through a forward is kept under the pod, never under the forward's local port", async () => {
    const index = sharedCatalogIndex();
    const ref = { namespace: 'olm', catalog: CATALOG, package: PKG };
    const who = await signIn('admin');
    const found = await index.lookupPackage(clientOf(who), ref, []);
    assert.equal(found?.source, 'registry');
    const channel = found.pkg.defaultChannel ?? '';
    const head = found.pkg.channels.get(channel)!.entries.at(-1)!.name;
    const csv = await index.fullCsv(found.address, PKG, channel, head, found.cacheKey);
    assert.ok(csv, 'the full CSV, read through the forward');
    assert.equal((await signOut(who)).status, 204);
    // Its local port is free now, and the next forward opened (another person's, to another
    // catalog) may be given it: a read at that address must never be answered with this CSV.
    assert.equal(await index.fullCsv(found.address, PKG, channel, head), undefined);
    // Someone reading the same pod through a forward of their own is.
    const again = await signIn('admin');
    const later = await index.lookupPackage(clientOf(again), ref, []);
    assert.equal(later?.source, 'registry');
    assert.notEqual(later.address, found.address);
    assert.deepEqual(await index.fullCsv(later.address, PKG, channel, head, later.cacheKey), csv);
    assert.equal((await signOut(again)).status, 204);
  });

  test('signing in again, even with the same token, makes a new forward: the old one is gone', async () => {
    const first = await signIn('admin');
    const before = await forwardOf(first);
    assert.ok((await packagesAt(before)).includes(PKG));
    assert.equal((await signOut(first)).status, 204);
    await refusesNow(before, "the first session's forward refuses connections");

    const again = await signIn('admin');
    const after = await forwardOf(again);
    assert.notEqual(after, before, 'a forward of its own');
    assert.ok((await packagesAt(after)).includes(PKG), 'read through the new forward');
    assert.equal((await signOut(again)).status, 204);
  });

  test('two sessions of one token read through forwards of their own; a sign-out drops both here', async () => {
    const one = await signIn('admin');
    const other = cookieOf(newSession(3600, sb.tokens.admin, 'admin'));
    const mine = await forwardOf(one);
    const theirs = await forwardOf(other);
    assert.notEqual(mine, theirs, 'each session reads through a forward of its own');
    assert.equal((await signOut(other)).status, 204);
    await refusesNow(theirs, "the signed-out session's forward refuses connections");
    // The token is the same, so the sign-out drops every forward made with it here: the session
    // still signed in gets a new one on its next read, never the ended one.
    const next = await forwardOf(one);
    assert.notEqual(next, theirs);
    assert.ok((await packagesAt(next)).includes(PKG));
    assert.equal((await signOut(one)).status, 204);
  });

  test('a session past its lifetime, or an ID token past its expiry, ends its forward by itself', async () => {
    const now = Date.now();
    const ending = newSession(3600, sb.tokens.admin, 'admin', now);
    ending.expiresAt = Math.floor(now / 1000) + 3;
    const oidc: Session = {
      ...newSession(3600, sb.tokens.admin, 'admin', now),
      auth: 'oidc',
      tokenExpiresAt: Math.floor(now / 1000) + 3,
    };
    const lived = await forwardOf(cookieOf(ending));
    const tokenLived = await forwardOf(cookieOf(oidc));
    assert.ok(await reachable(lived));
    assert.ok(await reachable(tokenLived));
    await refused(lived, 'the forward of a session past its lifetime refuses connections');
    await refused(tokenLived, 'the forward made with an expired ID token refuses connections');
  });

  test('a logout recorded by another replica ends the forward here within seconds', async () => {
    const { SessionRevocations } = await import('@/lib/server/session-revocation');
    const s = newSession(3600, sb.tokens.admin, 'admin');
    const dial = await forwardOf(cookieOf(s));
    assert.ok(await reachable(dial));
    const otherReplica = new SessionRevocations(context.consoleIdentityClient(), 'default', 8 * 3600_000);
    await otherReplica.revokeSession(s);
    await refused(dial, 'the forward of a session logged out elsewhere refuses connections');
  });

  test("another route bundle's copy of the lease module ends the forwards this one made", async () => {
    type Leases = typeof import('@/lib/k8s/credential-lease');
    const copy = await bundleCopy<Leases>(join(process.cwd(), 'lib/k8s/credential-lease.ts'));
    const who = cookieOf(newSession(3600, sb.tokens.admin, 'admin'));
    const dial = await forwardOf(who);
    assert.ok(await reachable(dial));
    assert.equal(copy.endCredentials(clientOf(who).lease!.names), 1);
    await refusesNow(dial, 'the forward refuses connections');
  });
});
