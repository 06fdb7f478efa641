// `tsx scripts/oidc-provider.ts --dir DIR [--port N] [--id-token-ttl S]`: the real cluster's identity
// provider (`npm run cluster -- --oidc`), the `oidc-provider` package on loopback HTTPS with a CA of
// its own, seed users with passwords, and one client for the console. Prints `oidc issuer: URL`.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { exportJWK, generateKeyPair } from 'jose';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { oidcCertificates, OIDC_CLIENT_ID, oidcSeed, type OidcSeedUser } from './oidc-seed';

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    port: { type: 'string', default: '0' },
    'id-token-ttl': { type: 'string', default: '300' },
  },
});
if (!values.dir) throw new Error('usage: scripts/oidc-provider.ts --dir DIR [--port N] [--id-token-ttl SECONDS]');
const dir = resolve(values.dir);
const idTokenTtl = Number(values['id-token-ttl']);
if (!Number.isInteger(idTokenTtl) || idTokenTtl < 10) {
  throw new Error(`--id-token-ttl must be a whole number of seconds, at least 10, got "${values['id-token-ttl']}"`);
}

oidcCertificates(dir);
const seed = oidcSeed(dir);
const users = new Map<string, OidcSeedUser>(seed.users.map((u) => [u.name, u]));

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body><h1>${title}</h1>${body}</body></html>`;
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
function loginForm(uid: string, error?: string): string {
  return page(
    'Sign in to the test identity provider',
    `${error ? `<p role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/interaction/${escape(uid)}/login">
<label>Username <input name="login" autocomplete="username" autofocus></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button></form>`,
  );
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > 10_000) throw new Error('form too large');
  }
  return new URLSearchParams(text);
}

async function main(): Promise<void> {
  // oidc-provider is an ES module; this project's scripts are CommonJS.
  const { default: Provider } = await import('oidc-provider');
  const tls = { key: readFileSync(join(dir, 'oidc-server.key')), cert: readFileSync(join(dir, 'oidc-server.crt')) };
  const server = createServer(tls);
  await new Promise<void>((res) => server.listen(Number(values.port), '127.0.0.1', res));
  const issuer = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // A signing key per run: kube-apiserver and the console fetch the key set from the issuer.
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' };

  const eightHours = 8 * 3600;
  const configuration: Configuration = {
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        client_secret: seed.clientSecret,
        // A native client's loopback redirect URIs match on any port (RFC 8252 §7.3): consoles
        // started on free ports use the same registration.
        application_type: 'native',
        redirect_uris: ['http://127.0.0.1/api/auth/callback', 'http://localhost/api/auth/callback'],
        post_logout_redirect_uris: ['http://127.0.0.1/login', 'http://localhost/login'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    async findAccount(_ctx, id) {
      const u = users.get(id);
      if (!u) return undefined;
      const claims = { sub: id, email: `${id}@example.com`, email_verified: true, name: id, groups: u.groups };
      return { accountId: id, claims: () => claims };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    scopes: ['openid', 'offline_access', 'email', 'profile', 'groups'],
    // The ID token is what kube-apiserver reads: it carries the scopes' claims (groups above all).
    conformIdTokenClaims: false,
    ttl: {
      IdToken: idTokenTtl,
      AccessToken: idTokenTtl,
      RefreshToken: eightHours,
      Session: eightHours,
      Grant: eightHours,
      Interaction: 600,
    },
    jwks: { keys: [jwk as never] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      // The console sends id_token_hint: the sign-out needs no question (the form submits itself).
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx: KoaContextWithOIDC, form: string) {
          ctx.body =
            `<!doctype html><title>Signing out</title><body>${form}` +
            '<input type="hidden" form="op.logoutForm" name="logout" value="yes">' +
            '<script>document.forms[0].submit()</script></body>';
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Every grant of this first-party client may be refreshed (no offline_access consent screen).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Every refresh spends the refresh token and issues a new one, as many providers do; a spent
    // one used again ends the grant. The console must refresh once per session at a time.
    rotateRefreshToken: true,
  };
  const provider = new Provider(issuer, configuration);
  const oidcHandler = provider.callback();

  /** The login screen: a username and a password checked against the seed users. */
  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string, action?: string): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    // A first-party client: signing in is the consent. (oidc-provider asks native clients for
    // consent every time; the grant covers the scopes the console asked for.)
    if (details.prompt.name === 'consent') {
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
      if (!grant) throw new Error('the grant of this sign-in is gone');
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
      return;
    }
    if (req.method === 'GET' && !action) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(loginForm(uid));
      return;
    }
    if (req.method === 'POST' && action === 'login') {
      const form = await formBody(req);
      const user = users.get(form.get('login') ?? '');
      if (!user || user.password !== form.get('password')) {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(loginForm(uid, 'Wrong username or password.'));
        return;
      }
      const result = { login: { accountId: user.name } };
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
      return;
    }
    res.writeHead(405).end();
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const m = /^\/interaction\/([\w-]+)(?:\/(\w+))?$/.exec((req.url ?? '').split('?')[0]!);
    if (!m) return void oidcHandler(req, res);
    interaction(req, res, m[1]!, m[2]).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(400, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(page('Sign-in failed', `<p>${escape((err as Error).message)}</p>`));
    });
  });

  if (!existsSync(join(dir, 'oidc-ca.crt'))) throw new Error('the provider CA is missing');
  console.log(`oidc issuer: ${issuer}`);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => server.close(() => process.exit(0)));
}

main().catch((err: unknown) => {
  console.error(`oidc-provider: ${(err as Error).message}`);
  process.exit(1);
});
