// Sign-in with an identity provider, in Debian's Chromium, against the real cluster started with
// `--oidc` (kube-apiserver trusting a real OIDC provider, scripts/oidc-provider.ts, whose ID
// tokens live 60 s), serving the demo catalog: alice signs in at the provider, walks OperatorHub and
// Installed Operators and installs into team1 through her group, keeps
// working past her token's expiry, logs out of the console and the provider; made-up and
// mismatched callbacks are refused with words. Skipped when cluster/build.sh has not built the programs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { join } from 'node:path';
import { OPERATOR_GROUP_TYPE } from '../lib/olm/resources/operator-group';
import { catalogSourceName } from '../lib/sandbox/olm/catalog-sources';
import { clientAs } from '../lib/server/testing/cluster';
import { accessibilityProblems } from './support/a11y';
import { launchBrowser } from './support/browser';
import { startConsole, type RunningConsole } from './support/console-server';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from './support/real-cluster';

const skip = clusterProgramsMissing();
const ID_TOKEN_SECONDS = 60;
// The demo catalog, served by real opm in OLM's global namespace, for alice's walk through the pages.
const DEMO = join(import.meta.dirname, '..', 'lib', 'sandbox', 'demo-catalog', 'catalog');
const CATALOG = catalogSourceName(DEMO);

/** `oidc console flags: --kubeconfig K --oidc-issuer U …` as the environment `npm start` would give the server. */
function consoleEnv(output: string): Record<string, string> {
  const line = /^oidc console flags: (.+)$/m.exec(output)?.[1];
  assert.ok(line, `the cluster printed no "oidc console flags:" line:\n${output}`);
  const words = line.split(' ');
  const flag = (name: string) => words[words.indexOf(name) + 1]!;
  return {
    OLM_CONSOLE_KUBECONFIG: flag('--kubeconfig'),
    OLM_CONSOLE_OIDC_ISSUER: flag('--oidc-issuer'),
    OLM_CONSOLE_OIDC_CLIENT_ID: flag('--oidc-client-id'),
    OLM_CONSOLE_OIDC_CLIENT_SECRET_FILE: flag('--oidc-client-secret-file'),
    OLM_CONSOLE_OIDC_CA_FILE: flag('--oidc-ca-file'),
  };
}

interface SessionBody {
  loggedIn: boolean;
  username: string | null;
  groups: string[] | null;
  auth: string | null;
  csrfToken: string;
}
type Permissions = { permissions: { action: string; allowed: boolean }[] };
type Seen = { seen: string[] };

if (skip) test('sign-in with an identity provider on the real cluster', (t) => t.skip(skip));
else
  describe('sign-in with an identity provider on the real cluster', () => {
    let cluster: RealCluster;
    let app: RunningConsole;
    let browser: Browser;
    let issuer: string;
    let passwords: Record<string, string>;
    let context: BrowserContext;
    let page: Page;

    before(async () => {
      cluster = await startRealCluster([DEMO], 300_000, ['--oidc', '--oidc-id-token-ttl', String(ID_TOKEN_SECONDS)]);
      const env = consoleEnv(cluster.output());
      issuer = env.OLM_CONSOLE_OIDC_ISSUER!;
      const usersFile = /^oidc users: (.+)$/m.exec(cluster.output())![1]!;
      const users = JSON.parse(readFileSync(usersFile, 'utf8')) as { name: string; password: string }[];
      passwords = Object.fromEntries(users.map((u) => [u.name, u.password]));
      app = await startConsole(env);
      browser = await launchBrowser();
      // The provider's certificate is from the cluster's own CA, which this browser does not know.
      context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 800 } });
      page = await context.newPage();
    });
    after(async () => {
      await browser?.close();
      await app?.stop();
      await cluster?.stop();
    });

    const api = <T>(path: string, init?: { method?: string; headers?: Record<string, string> }) =>
      page.evaluate(
        async ([p, i]) => {
          const r = await fetch(p, i);
          return { status: r.status, body: (await r.json().catch(() => null)) as unknown };
        },
        [path, init ?? {}] as const,
      ) as Promise<{ status: number; body: T }>;

    /** The console's page as it is now holds what every page state must: axe at both widths, no sideways scroll. */
    const accessible = async (p: Page, what: string) => assert.deepEqual(await accessibilityProblems(p), [], what);

    const signInAtProvider = async (user: string, password: string) => {
      await page.getByLabel('Username').fill(user);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };

    test("the console's sign-in answers with a redirect to the provider's authorization endpoint", async () => {
      const r = await fetch(`${app.url}/api/auth/login?next=/operators`, { redirect: 'manual' });
      assert.equal(r.status, 302);
      const to = new URL(r.headers.get('location')!);
      assert.equal(`${to.origin}${to.pathname}`, `${issuer}/auth`);
      assert.equal(to.searchParams.get('code_challenge_method'), 'S256');
      assert.ok(to.searchParams.get('state') && to.searchParams.get('nonce'));
      assert.match(r.headers.get('set-cookie') ?? '', /olm_console_signin=.*HttpOnly; SameSite=Lax/);
    });

    test('alice signs in at the provider from the login page and lands on the page she asked for', async () => {
      await page.goto(`${app.url}/login?next=${encodeURIComponent('/operatorhub?keyword=db')}`);
      await accessible(page, 'the login page');
      await page.getByRole('link', { name: 'Sign in with the identity provider' }).click();
      await page.waitForURL((u) => u.origin === issuer);
      await signInAtProvider('alice', 'not her password');
      await page.getByText('Wrong username or password.').waitFor();
      await signInAtProvider('alice', passwords.alice!);
      await page.waitForURL(`${app.url}/operatorhub?keyword=db`);
      const { body } = await api<SessionBody>('/api/session');
      assert.equal(body.loggedIn, true);
      assert.equal(body.auth, 'oidc');
      assert.equal(body.username, 'oidc:alice', 'the name the API server gives her');
      assert.ok(body.groups?.includes('oidc:team1-admins'), `groups: ${JSON.stringify(body.groups)}`);
    });

    test('she acts in team1 through her group and is refused in team2', async () => {
      const team1 = await api<Permissions>('/api/me/permissions?namespace=team1');
      assert.equal(team1.status, 200);
      assert.equal(team1.body.permissions.find((p) => p.action === 'install')?.allowed, true);
      const team2 = await api<Permissions>('/api/me/permissions?namespace=team2');
      assert.equal(team2.body.permissions.find((p) => p.action === 'install')?.allowed, false);
    });

    test('her pages: the global catalog, Installed Operators on team1, herself in the header; she installs', async () => {
      // What a cluster administrator prepares for a tenant: team1's OperatorGroup, which her role may
      // not create.
      const metadata = { name: 'team1', namespace: 'team1' };
      const group = { apiVersion: 'operators.coreos.com/v1', kind: 'OperatorGroup', metadata };
      await clientAs(cluster, 'admin').create(
        OPERATOR_GROUP_TYPE,
        { ...group, spec: { targetNamespaces: ['team1'] } },
        { namespace: 'team1' },
      );
      // She may not read the global catalogs cluster-wide: the hub asks where she works, and shows
      // them there through OLM's package API.
      await page.goto(`${app.url}/operatorhub`);
      const none = page
        .getByRole('note')
        .filter({ hasText: /^No catalog is readable for you in the cluster's global/ });
      await none.getByLabel('Namespace').waitFor();
      await accessible(page, 'the hub asking where she works');
      await none.getByLabel('Namespace').fill('team1');
      await none.getByRole('button', { name: 'Show its catalogs' }).click();
      await page.waitForURL(/\/operatorhub\?namespace=team1$/);
      await page.getByRole('link', { name: /^PgPilot by Harbor Lane Data/ }).waitFor({ timeout: 60_000 });
      await page
        .getByRole('link', { name: /^Cachely/ })
        .first()
        .waitFor();
      const header = page.getByRole('banner');
      await header.getByText('oidc:alice', { exact: true }).waitFor();
      await header.getByRole('button', { name: 'Log out' }).waitFor();

      // Named once, her namespace is where Installed Operators opens, with no address typed.
      await page.goto(`${app.url}/operators`);
      await page.waitForURL(/\/operators\?namespace=team1$/);

      await page.goto(`${app.url}/operatorhub/olm/${CATALOG}/cachely/install?namespace=team1`);
      await page.getByRole('heading', { name: 'What the install will do' }).waitFor();
      // All namespaces is not hers to choose (the access reviews say so once they answer): the plan
      // installs into team1, where her group may create Subscriptions.
      await page.getByText(/^Not yours to choose: it installs into operators/).waitFor();
      await page.getByRole('list', { name: 'Objects' }).getByText('Subscription team1/cachely').waitFor();
      assert.equal(await page.getByLabel('Installed namespace').inputValue(), 'team1');
      await page.getByRole('button', { name: 'Install', exact: true }).click();
      await page.waitForURL(/\/installs\/team1\/cachely$/);
      // Real OLM resolves, installs and runs it (kwok makes its Deployment available).
      await page
        .getByRole('status')
        .filter({ hasText: /^Installed: cachely\.v/ })
        .waitFor({ timeout: 180_000 });
      await accessible(page, 'her install, done');
      await page.goto(`${app.url}/operators`);
      await page.waitForURL(/\/operators\?namespace=team1$/);
      await page.getByRole('link', { name: 'Cachely' }).waitFor({ timeout: 30_000 });
      // Her group's OperatorGroup goes again: the refresh test below makes one of its own there.
      await clientAs(cluster, 'admin').delete(OPERATOR_GROUP_TYPE, 'team1', { namespace: 'team1' });
    });

    test('her 60-second ID token is refreshed while she works, and her live updates carry on', async () => {
      const before = (await context.cookies()).find((c) => c.name === 'olm_console_session')!.value;
      // A stream of team1's OperatorGroups, as a page keeps one open: it reconnects as the token
      // nears expiry, and the reconnect is refreshed.
      await page.evaluate(() => {
        const w = window as unknown as { seen: string[] };
        w.seen = [];
        const es = new EventSource('/api/events?w=og:operatorgroups:team1');
        es.onopen = () => w.seen.push('open');
        for (const type of ['snapshot', 'change', 'session', 'error']) {
          es.addEventListener(type, (e) => w.seen.push(`${type} ${(e as MessageEvent).data ?? ''}`));
        }
      });
      // Past the first token's expiry (the refresh happens in its last 20 s).
      await page.waitForTimeout((ID_TOKEN_SECONDS + 5) * 1000);
      const name = `after-refresh-${Date.now()}`;
      const metadata = { name, namespace: 'team1' };
      const group = { apiVersion: 'operators.coreos.com/v1', kind: 'OperatorGroup', metadata, spec: {} };
      await clientAs(cluster, 'admin').create(OPERATOR_GROUP_TYPE, group, { namespace: 'team1' });
      const changed = (n: string) =>
        (window as unknown as Seen).seen.some((e) => e.startsWith('change') && e.includes(n));
      await page.waitForFunction(changed, name, { timeout: 20_000 });
      const seen = await page.evaluate(() => (window as unknown as Seen).seen);
      const opens = seen.filter((e) => e === 'open').length;
      assert.ok(opens >= 2, `the stream reconnected: ${seen.map((e) => e.slice(0, 40)).join(' | ')}`);
      assert.ok(!seen.some((e) => e.startsWith('session') || e.startsWith('error {')), seen.join('\n').slice(0, 2000));
      const { status, body } = await api<SessionBody>('/api/session');
      assert.equal(status, 200);
      assert.equal(body.loggedIn, true, 'still signed in after the first ID token expired');
      assert.equal(body.username, 'oidc:alice');
      const after = (await context.cookies()).find((c) => c.name === 'olm_console_session')!.value;
      assert.notEqual(after, before, 'the session cookie carries the new token');
      const team1 = await api<Permissions>('/api/me/permissions?namespace=team1');
      assert.equal(team1.body.permissions.find((p) => p.action === 'install')?.allowed, true);
    });

    test("logging out ends the provider's session too: signing in again asks for the password", async () => {
      // As a person does it: the header's Log out, through the provider's end-session page. The
      // list is opened where it settles (alice named team1 above, so /operators would move there
      // on its own, and a click during that move can be lost).
      await page.goto(`${app.url}/operators?namespace=team1`);
      await page.getByRole('link', { name: 'Cachely' }).waitFor({ timeout: 30_000 });
      const ended = page.waitForRequest(
        (r) => r.url().startsWith(`${issuer}/session/end`) && /id_token_hint=/.test(r.url()),
      );
      await page.getByRole('button', { name: 'Log out' }).click();
      await ended;
      await page.waitForURL(`${app.url}/login`);
      assert.equal((await api<SessionBody>('/api/session')).body.loggedIn, false);
      await page.goto(`${app.url}/api/auth/login?next=/operators`);
      await page.waitForURL((u) => u.origin === issuer);
      await page.getByLabel('Password').waitFor();
    });

    test('an answer for another sign-in (wrong state) is refused with words, and "Sign in again" works', async () => {
      // The previous test left a sign-in in progress at the provider: a callback with another state.
      const iss = encodeURIComponent(issuer);
      await page.goto(`${app.url}/api/auth/callback?code=made-up&state=not-this-sign-in&iss=${iss}`);
      await page
        .getByRole('alert')
        .getByText(/wrong state/)
        .waitFor();
      await accessible(page, 'a refused sign-in');
      await page.getByRole('link', { name: 'Sign in again' }).click();
      await page.waitForURL((u) => u.origin === issuer);
      await signInAtProvider('bob', passwords.bob!);
      // Back to where the interrupted sign-in was going.
      await page.waitForURL(`${app.url}/operators`);
      assert.equal((await api<SessionBody>('/api/session')).body.username, 'oidc:bob');
    });

    test('a callback no sign-in of this browser started (forged, replayed, expired) is refused with words', async () => {
      const other = await browser.newContext({ ignoreHTTPSErrors: true });
      const tab = await other.newPage();
      const r = await tab.goto(`${app.url}/api/auth/callback?code=made-up&state=made-up`);
      assert.equal(r?.status(), 400);
      await tab
        .getByRole('alert')
        .getByText(/No sign-in was in progress in this browser/)
        .waitFor();
      await accessible(tab, 'a callback nobody started');
      await other.close();
    });
  });
