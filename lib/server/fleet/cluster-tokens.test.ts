import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newSession, SessionKey, type Session } from '../session';
import {
  clusterTokenCookieHeader,
  clusterTokenCookieName,
  clusterTokens,
  MAX_TOTAL_BYTES,
  sealClusterToken,
  tokenCookieTooBig,
} from './cluster-tokens';

const key = SessionKey.random();

/** A session and the cookies a browser holds for it: one sealed cookie per cluster token. */
function facts(tokens: Record<string, string>, session: Session = newSession(3600, 'login', 'bob'), secure = false) {
  const cookies = new Map<string, string>();
  for (const [cluster, token] of Object.entries(tokens))
    cookies.set(
      clusterTokenCookieName(cluster, secure),
      sealClusterToken({ cluster, token, username: `user-of-${cluster}`, addedAt: 1 }, session, key),
    );
  return { session, cookies };
}

describe('tokens per cluster, in sealed cookies', () => {
  test('each opens for its own cluster in its own session', () => {
    const { session, cookies } = facts({ 'prod/west': 'tw', staging: 'ts' });
    const opened = clusterTokens(cookies, session, key, false);
    assert.deepEqual(
      [...opened].map(([c, t]) => [c, t.token, t.username]),
      [
        ['prod/west', 'tw', 'user-of-prod/west'],
        ['staging', 'ts', 'user-of-staging'],
      ],
    );
  });

  test("another session's, another key's, a renamed or a tampered cookie opens to nothing", () => {
    const { cookies } = facts({ west: 'tw' });
    assert.equal(clusterTokens(cookies, newSession(3600, 'login', 'bob'), key, false).size, 0);
    const { session, cookies: mine } = facts({ west: 'tw' });
    assert.equal(clusterTokens(mine, session, SessionKey.random(), false).size, 0);
    assert.equal(clusterTokens(mine, undefined, key, false).size, 0);
    const renamed = new Map([[clusterTokenCookieName('east', false), [...mine.values()][0]!]]);
    assert.equal(clusterTokens(renamed, session, key, false).size, 0);
    const value = [...mine.values()][0]!;
    const tampered = new Map([
      [[...mine.keys()][0]!, value.slice(0, 20) + (value[20] === 'A' ? 'B' : 'A') + value.slice(21)],
    ]);
    assert.equal(clusterTokens(tampered, session, key, false).size, 0);
  });

  test('the token cannot be read in the cookie', () => {
    const { cookies } = facts({ west: 'sha256~very-secret-token' });
    assert.ok(![...cookies.values()][0]!.includes('secret'));
  });

  test('over TLS the cookie carries the __Host- prefix', () => {
    assert.match(clusterTokenCookieName('west', true), /^__Host-olm_console_ct_[\w-]{16}$/);
    const { session, cookies } = facts({ west: 'tw' }, undefined, true);
    assert.equal(clusterTokens(cookies, session, key, true).size, 1);
  });

  test('tokens are kept while all of them together fit the bound, and refused past it with the way out', () => {
    const jwt = 'x'.repeat(1200); // about a service-account token
    const { session, cookies } = facts({ a: jwt, b: jwt, c: jwt });
    const add = (cluster: string) => {
      const name = clusterTokenCookieName(cluster, false);
      const value = sealClusterToken({ cluster, token: jwt, username: 'u', addedAt: 1 }, session, key);
      return tokenCookieTooBig(
        cookies,
        name,
        value,
        clusterTokenCookieHeader(name, value, { secure: false, maxAgeSeconds: 60 }),
      );
    };
    // Replacing a cluster's token does not count it twice.
    assert.equal(add('a'), undefined);
    const refused = add('d');
    assert.match(refused ?? '', new RegExp(`more than the ${MAX_TOTAL_BYTES}`));
    assert.match(refused ?? '', /remove a token you no longer need, or sign in with an identity provider/);
    const huge = 'y'.repeat(3500);
    const name = clusterTokenCookieName('e', false);
    const value = sealClusterToken({ cluster: 'e', token: huge, username: 'u', addedAt: 1 }, session, key);
    const header = clusterTokenCookieHeader(name, value, { secure: false, maxAgeSeconds: 60 });
    assert.match(tokenCookieTooBig(new Map(), name, value, header) ?? '', /too long to keep in a browser cookie/);
  });
});
