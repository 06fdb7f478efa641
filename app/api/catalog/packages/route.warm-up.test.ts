// The console server's own warm-up asks for OperatorHub's list before its first person, to have this
// route bundle's copy of the list's code compiled: only a request carrying the mark the server set
// for its warm-up, while that runs, is answered with made-up packages; any other request without a
// session is refused as before, and a person's list never shows the made-up packages.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { markOwnWarmUp, WARM_UP_HEADER } from '@/lib/server/http/warm-up';
import { routeSandbox } from '@/lib/server/testing/route-sandbox';

type Body = { total: number; packages: { name: string; catalog: { name: string; namespace: string } }[] };

describe("GET /api/catalog/packages and the server's own warm-up", () => {
  const sb = routeSandbox();
  let GET: (req: Request) => Promise<Response>;
  before(async () => {
    ({ GET } = await import('./route'));
  });
  after(() => markOwnWarmUp(undefined));

  /** A request without any session or token, as the warm-up's are, with `mark` in the warm-up header. */
  const asked = async (mark?: string) => {
    const headers: Record<string, string> = mark ? { [WARM_UP_HEADER]: mark } : {};
    const res = await GET(new Request('http://127.0.0.1:3000/api/catalog/packages', { headers }));
    return { status: res.status, body: (await res.json()) as Body };
  };

  test("the warm-up's mark gets made-up packages, from no cluster; no mark, a wrong one or an old one gets 401", async () => {
    assert.equal((await asked('guess')).status, 401, 'no warm-up running');
    markOwnWarmUp('the-mark');
    const own = await asked('the-mark');
    assert.equal(own.status, 200);
    assert.ok(own.body.total > 0);
    assert.deepEqual(
      own.body.packages.filter((p) => !p.name.startsWith('warm-up-') || p.catalog.name !== 'warm-up'),
      [],
      'made-up packages only',
    );
    assert.equal((await asked('not-the-mark')).status, 401);
    assert.equal((await asked()).status, 401);
    markOwnWarmUp(undefined);
    assert.equal((await asked('the-mark')).status, 401, 'the warm-up is over');
  });

  test("a person's list during the warm-up is theirs, without made-up packages", async () => {
    markOwnWarmUp('the-mark');
    const { status, body } = await sb.call<Body>(GET, '/api/catalog/packages', { bearer: true });
    assert.equal(status, 200);
    assert.ok(body.packages.some((p) => p.catalog.name === 'olm-console-demo'));
    assert.equal(body.packages.filter((p) => p.name.startsWith('warm-up-')).length, 0);
    // The head bundle's name joins offers on the server only; the browser's list leaves it out.
    assert.equal(body.packages.filter((p) => 'headBundle' in p).length, 0);
  });
});
