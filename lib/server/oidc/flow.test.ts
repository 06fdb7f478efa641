import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as client from 'openid-client';
import { cookieFits, MAX_COOKIE_BYTES, newSession, sealSession, SessionKey, sessionCookieHeader } from '../session';
import type { Session } from '../session';
import { signInProblem } from './errors';
import { beginSignIn, finishSignIn, refreshTokens, type OidcTokens } from './flow';
import { oidcConfiguration } from './provider';
import { refreshSession } from './refresh';
import { signInOverHttp, startProvider, type ProviderProcess } from './testing/provider-process';

const ORIGIN = 'http://127.0.0.1:3000';
const SCOPES = 'openid offline_access email profile groups';

/** A session as the callback opens it. */
function signedIn(t: OidcTokens, ttl: number): Session {
  const tokens = { refreshToken: t.refreshToken, tokenExpiresAt: t.expiresAt };
  return { ...newSession(ttl, t.idToken, 'oidc:alice'), auth: 'oidc', ...tokens };
}

describe('the code flow against the real test provider', () => {
  let provider: ProviderProcess;
  before(async () => {
    provider = await startProvider(60);
    Object.assign(process.env, provider.env);
  });
  after(() => provider?.stop());

  const signIn = async (user = 'alice') => {
    const { url, state } = await beginSignIn(ORIGIN, '/operators', SCOPES);
    const callback = await signInOverHttp(provider, url, user, provider.passwords[user]!);
    return { callback, state };
  };
  const problemOf = (p: Promise<unknown>) => p.then(() => 'none', signInProblem);

  test('a sign-in asks for PKCE S256, state and nonce, and brings an ID token, refresh token and expiry', async () => {
    const { url, state } = await beginSignIn(ORIGIN, '/operators', SCOPES);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(url.searchParams.get('state'), state.state);
    assert.equal(url.searchParams.get('nonce'), state.nonce);
    assert.equal(url.searchParams.get('redirect_uri'), `${ORIGIN}/api/auth/callback`);
    const callback = await signInOverHttp(provider, url, 'alice', provider.passwords.alice!);
    assert.equal(`${callback.origin}${callback.pathname}`, `${ORIGIN}/api/auth/callback`);
    const tokens = await finishSignIn(callback, state);
    assert.equal(tokens.idToken.split('.').length, 3);
    assert.ok(tokens.refreshToken);
    const now = Date.now() / 1000;
    assert.ok(tokens.expiresAt > now + 50 && tokens.expiresAt <= now + 61, `expires in ${tokens.expiresAt - now} s`);
  });

  test("the session cookie holding the provider's tokens fits a browser's 4 KB, over TLS too", async () => {
    const { callback, state } = await signIn();
    const t = await finishSignIn(callback, state);
    const session = signedIn(t, 8 * 3600);
    const seal = (s: Session) => sealSession(s, SessionKey.random());
    const header = sessionCookieHeader(seal(session), { secure: true, maxAgeSeconds: 8 * 3600 });
    assert.ok(cookieFits(header), `${Buffer.byteLength(header)} bytes`);
    const bytes = Buffer.byteLength(header);
    assert.ok(bytes < MAX_COOKIE_BYTES / 2, `${bytes} bytes: room for a token with many more groups`);
    const bloated = { ...session, token: `${t.idToken}${'x'.repeat(3000)}` };
    assert.equal(cookieFits(sessionCookieHeader(seal(bloated), { secure: true, maxAgeSeconds: 1 })), false);
  });

  test("another sign-in's answer is refused as the wrong state, its nonce as the wrong nonce", async () => {
    const { callback, state } = await signIn();
    assert.equal(await problemOf(finishSignIn(callback, { ...state, state: 'another-sign-in' })), 'state');
    const second = await signIn();
    assert.equal(await problemOf(finishSignIn(second.callback, { ...second.state, nonce: 'another-nonce' })), 'nonce');
  });

  test("an ID token already expired by the console's clock is refused as expired", async () => {
    const { callback, state } = await signIn();
    const base = await oidcConfiguration();
    // openid-client as finishSignIn uses it, its clock moved two minutes on (past the token's
    // 60 s and the 30 s tolerance): the real check of the real token's exp.
    const metadata = { client_secret: provider.clientSecret, [client.clockSkew]: 120 };
    const auth = client.ClientSecretBasic(provider.clientSecret);
    const skewed = new client.Configuration(base.serverMetadata(), provider.clientId, metadata, auth);
    skewed[client.customFetch] = base[client.customFetch]!;
    const checks = {
      pkceCodeVerifier: state.verifier,
      expectedState: state.state,
      expectedNonce: state.nonce,
      idTokenExpected: true,
    };
    assert.equal(await problemOf(client.authorizationCodeGrant(skewed, callback, checks)), 'expired');
  });

  test('a code is good once: the replay is refused', async () => {
    const { callback, state } = await signIn();
    await finishSignIn(callback, state);
    assert.equal(await problemOf(finishSignIn(callback, state)), 'code');
  });

  test("a verifier that is not the sign-in's own (PKCE) is refused", async () => {
    const { callback, state } = await signIn();
    assert.equal(await problemOf(finishSignIn(callback, { ...state, verifier: 'x'.repeat(43) })), 'code');
  });

  test('requests of one session refresh once between them, and get the same new tokens', async () => {
    const { callback, state } = await signIn();
    const t = await finishSignIn(callback, state);
    const session = signedIn(t, 3600);
    let calls = 0;
    const counted = (rt: string) => (calls++, refreshTokens(rt));
    const [a, b] = await Promise.all([refreshSession(session, counted), refreshSession(session, counted)]);
    // A request a moment later, still with the old cookie, gets the same answer too.
    const c = await refreshSession(session, counted);
    assert.equal(calls, 1);
    assert.ok(a && b && c);
    assert.equal(a.token, b.token);
    assert.equal(c.token, a.token);
    assert.notEqual(a.refreshToken, t.refreshToken, 'the provider rotated the refresh token');
    assert.equal(a.sid, session.sid, 'the same session, with new tokens');
  });

  test('a spent refresh token used again ends the grant: why refreshes go one at a time', async () => {
    const { callback, state } = await signIn();
    const t = await finishSignIn(callback, state);
    const fresh = await refreshTokens(t.refreshToken!);
    await assert.rejects(refreshTokens(t.refreshToken!));
    await assert.rejects(refreshTokens(fresh.refreshToken!), 'the provider ended the whole grant');
  });

  test('a refused refresh gives no session: the person signs in again', async () => {
    const session = signedIn({ idToken: 'x', refreshToken: 'made-up', expiresAt: 0 }, 3600);
    assert.equal(await refreshSession(session), undefined);
  });
});
