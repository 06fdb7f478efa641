// What a login with a malformed token answers: a 400 naming the token, before the cluster is
// asked (a header cannot carry control characters, and sending one threw inside the client).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { routeSandbox } from '@/lib/server/testing/route-sandbox';

type Handler = (req: Request) => Promise<Response>;
const origin = 'http://console.local';

describe('POST /api/session with a token that is no bearer token', () => {
  routeSandbox({ demo: false });
  let session: { POST: Handler };
  before(async () => {
    process.env.OLM_CONSOLE_PUBLIC_URL = origin;
    session = await import('./route');
  });

  const login = (token: string) =>
    session.POST(
      new Request(`${origin}/api/session`, {
        method: 'POST',
        headers: { origin, host: 'console.local', 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      }),
    );

  test('a newline, NUL, space or non-ASCII character inside the token is a 400 that names the token', async () => {
    for (const token of ['abc\ndef', 'abc\u0000def', 'abc def', 'abc\u00e9def', 'abc\u007fdef']) {
      const res = await login(token);
      assert.equal(res.status, 400, JSON.stringify(token));
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const { error } = (await res.json()) as { error: { reason: string; message: string } };
      assert.equal(error.reason, 'BadRequest');
      assert.match(error.message, /^token: must be printable ASCII/);
    }
  });

  test("a token the cluster does not know is still the cluster's 401", async () => {
    assert.equal((await login('eyJhbGciOiJSUzI1NiJ9.e30.c2ln')).status, 401);
  });
});
