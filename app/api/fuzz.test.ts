// Property-based fuzzing of every API route (fast-check): generated bodies, query strings and
// path segments, sent as a console page would (session cookie, CSRF token, same origin) by the
// most privileged user, so that only the route's own checks stand between the input and the
// cluster. For every case: no 5xx; every 4xx names the problem; and a refused write changes
// nothing in the cluster (objects and resourceVersions compared before and after); a body with a
// field no route knows is refused, never acted on with the field dropped.
// The HTTP server's checks in front of the routes are keyed on the path the router routes: any
// spelling of a route's path (dot segments, doubled slashes, percent-encoding) is refused or is
// that route's path to every check. Anonymous sessions logging out write nothing, however many;
// however many event streams one session opens, at most the limit are served.
// FUZZ_RUNS sets the cases per route and method (default 30); the total is printed.
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { KubeClient } from '@/lib/k8s/client';
import { rbacType, SERVICE_ACCOUNT_TYPE } from '@/lib/k8s/core-kinds';
import { CLUSTER_EXTENSION_TYPE } from '@/lib/server/olm-v1/resources';
import { CONSOLE_ORIGIN, loggedInSession } from '@/lib/server/testing/console-request';
import { checkBody, isLoginAttempt } from '@/lib/server/security/request-guard';
import { canonicalPath } from '@/lib/server/security/request-path';
import { subscribe, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler, type TestSandbox } from '@/lib/server/testing/route-sandbox';

const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const apiDir = import.meta.dirname;

interface Route {
  /** `/api/operators/[namespace]/[name]` */
  pattern: string;
  params: string[];
  methods: Record<string, Handler>;
}

function routeFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) routeFiles(p, out);
    else if (name === 'route.ts') out.push(p);
  }
  return out;
}

// Real names mixed with generated ones, so inputs also reach the checks past name validation.
const REAL = ['olm', 'team1', 'olm-console-demo', 'pgpilot', 'default', 'pgpilot.v1.4.0'];
const segment = fc.oneof(
  fc.constantFrom(...REAL),
  fc.string({ maxLength: 80 }),
  fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,70}$/),
  fc.constantFrom('..', '%2F', 'a/b', '', ' ', 'A', '\u0000', 'x'.repeat(300), '💥', '${x}', '<script>'),
);
const jsonValue = fc.jsonValue({ maxDepth: 4 });
const body = fc.oneof(
  jsonValue,
  fc.dictionary(fc.string({ maxLength: 20 }), jsonValue, { maxKeys: 6 }),
  // Near-valid shapes of the console's own bodies with one thing off.
  fc.record(
    {
      deleteOperands: fc.oneof(fc.boolean(), jsonValue),
      deleteOperatorGroup: fc.oneof(fc.boolean(), jsonValue),
      extra: fc.option(jsonValue, { nil: undefined }),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      channel: fc.oneof(fc.string(), jsonValue),
      approval: fc.oneof(fc.constantFrom('Automatic', 'Manual', 'manual'), jsonValue),
      seen: jsonValue,
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      catalog: fc.record({ namespace: segment, name: segment }),
      package: segment,
      channel: segment,
      installMode: fc.oneof(
        fc.constantFrom('AllNamespaces', 'OwnNamespace', 'SingleNamespace', 'MultiNamespace'),
        fc.string(),
      ),
      targetNamespaces: fc.array(segment, { maxLength: 3 }),
      namespace: segment,
      approval: fc.constantFrom('Automatic', 'Manual', 'x'),
      version: fc.option(fc.string(), { nil: undefined }),
    },
    { requiredKeys: [] },
  ),
  fc.record({ resourceVersion: fc.oneof(fc.string(), jsonValue) }, { requiredKeys: [] }),
  fc.record({ token: fc.oneof(fc.string({ maxLength: 40 }), jsonValue) }, { requiredKeys: [] }),
  fc.record({ csv: segment, object: jsonValue }, { requiredKeys: [] }),
  // A ClusterExtension's uninstall: names of every kind's rules (mixed case, colons), offered or not.
  fc.record(
    {
      seen: fc.oneof(fc.nat(3), jsonValue),
      confirm: fc.oneof(fc.constant('fuzzed'), fc.string({ maxLength: 20 })),
      alsoDelete: fc.array(
        fc.record(
          {
            kind: fc.oneof(
              fc.constantFrom('ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'),
              fc.string({ maxLength: 12 }),
            ),
            name: fc.oneof(
              segment,
              fc.constantFrom('fuzzed', 'fuzzed-installer', 'Team:Shared-Reader', 'pgpilot-controller', 'view'),
            ),
            namespace: fc.option(fc.oneof(fc.constant('team1'), segment), { nil: undefined }),
          },
          { requiredKeys: [] },
        ),
        { maxLength: 3 },
      ),
    },
    { requiredKeys: [] },
  ),
);
const rawBody = fc.oneof(
  body.map((b) => JSON.stringify(b)),
  fc.string({ maxLength: 200 }),
  fc.constantFrom('{', '[1,', 'null', '""', '{"a":1}{"b":2}', '\u0000'),
);
const query = fc.array(
  fc.tuple(
    fc.oneof(
      fc.constantFrom(
        'namespace',
        'q',
        'channel',
        'from',
        'version',
        'w',
        'sort',
        'catalog',
        'limit',
        'continue',
        'v',
        'installState',
      ),
      fc.string({ maxLength: 12 }),
    ),
    fc.oneof(segment, fc.string({ maxLength: 40 })),
  ),
  { maxLength: 4 },
);

const RBAC_GROUP = 'rbac.authorization.k8s.io';

interface Snapshot {
  [key: string]: string;
}

const WATCHED = [
  { group: '', version: 'v1', plural: 'namespaces', namespaced: false, kind: 'Namespace' },
  { group: '', version: 'v1', plural: 'configmaps', namespaced: true, kind: 'ConfigMap' },
  {
    group: 'operators.coreos.com',
    version: 'v1alpha1',
    plural: 'subscriptions',
    namespaced: true,
    kind: 'Subscription',
  },
  { group: 'operators.coreos.com', version: 'v1alpha1', plural: 'installplans', namespaced: true, kind: 'InstallPlan' },
  {
    group: 'operators.coreos.com',
    version: 'v1alpha1',
    plural: 'clusterserviceversions',
    namespaced: true,
    kind: 'ClusterServiceVersion',
  },
  { group: 'operators.coreos.com', version: 'v1', plural: 'operatorgroups', namespaced: true, kind: 'OperatorGroup' },
  {
    group: 'operators.coreos.com',
    version: 'v1alpha1',
    plural: 'catalogsources',
    namespaced: true,
    kind: 'CatalogSource',
  },
  CLUSTER_EXTENSION_TYPE,
  SERVICE_ACCOUNT_TYPE,
  rbacType('ClusterRole'),
  rbacType('ClusterRoleBinding'),
  rbacType('Role'),
  rbacType('RoleBinding'),
];

async function snapshot(admin: KubeClient): Promise<Snapshot> {
  const out: Snapshot = {};
  for (const t of WATCHED) {
    const list = await admin.list<{
      metadata?: { namespace?: string; name?: string; resourceVersion?: string; generation?: number };
    }>(t);
    // Status written by OLM's controllers is not the request's doing; spec changes bump generation.
    // Kinds without status or generation (ConfigMaps, accounts, RBAC) count any write.
    const byVersion = ['configmaps', 'namespaces', 'serviceaccounts'].includes(t.plural) || t.group === RBAC_GROUP;
    for (const o of list.items)
      out[`${t.plural}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`] = String(
        byVersion ? o.metadata?.resourceVersion : o.metadata?.generation,
      );
  }
  return out;
}

/**
 * Waits until what an accepted write set going has ended: the controllers' queues drained, the
 * garbage collector's sweep (every 300 ms on a timer) run, and two snapshots alike. Otherwise an
 * uninstall's dependents, collected a moment later, count against the next case's refusal.
 */
async function quiet(sb: TestSandbox, admin: KubeClient): Promise<void> {
  let last = '';
  for (let i = 0; i < 20; i++) {
    await sb.olm.settled();
    await sb.olmV1.settled();
    sb.api.sweep();
    const now = JSON.stringify(await snapshot(admin));
    if (now === last) return;
    last = now;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the sandbox did not settle after an accepted write');
}

function diff(a: Snapshot, b: Snapshot): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => a[k] !== b[k]).map((k) => `${k}: ${a[k] ?? 'absent'} → ${b[k] ?? 'absent'}`);
}

describe('fuzzing every API route', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let admin: KubeClient;
  const routes: Route[] = [];
  let cases = 0;
  /** Names that exist, per route parameter, so that half the cases get past "not found". */
  let real: (pattern: string) => Record<string, string>;

  before(async () => {
    admin = sb.admin;
    // Something installed, so names that exist are among the targets.
    await subscribe(admin, { namespace: 'team1', package: 'pgpilot', channel: 'stable', targets: ['team1'] });
    await waitForCsv(admin, 'team1', 'pgpilot.v1.4.0');
    // A ClusterExtension (of a package no catalog has), so the v1 routes' checks past "not found" are reached.
    await admin.create(CLUSTER_EXTENSION_TYPE, {
      metadata: { name: 'fuzzed' },
      spec: {
        namespace: 'team1',
        serviceAccount: { name: 'pgpilot-controller' },
        source: { sourceType: 'Catalog', catalog: { packageName: 'no-such-package' } },
      },
    });
    const plan =
      (
        await admin.list<{ metadata?: { name?: string } }>(
          {
            group: 'operators.coreos.com',
            version: 'v1alpha1',
            plural: 'installplans',
            namespaced: true,
            kind: 'InstallPlan',
          },
          { namespace: 'team1' },
        )
      ).items[0]?.metadata?.name ?? 'none';
    real = (pattern): Record<string, string> =>
      pattern.startsWith('/api/catalog/')
        ? { namespace: 'olm', catalog: 'olm-console-demo', package: 'pgpilot' }
        : pattern.startsWith('/api/installplans/')
          ? { namespace: 'team1', name: plan }
          : pattern.startsWith('/api/subscriptions/')
            ? { namespace: 'team1', name: 'pgpilot' }
            : pattern.startsWith('/api/olm-v1/clusterextensions/')
              ? { name: 'fuzzed' }
              : { namespace: 'team1', name: 'pgpilot.v1.4.0' };
    for (const file of routeFiles(apiDir)) {
      const dir = relative(apiDir, file).split(sep).slice(0, -1);
      const mod = (await import(file)) as Record<string, unknown>;
      const methods: Record<string, Handler> = {};
      for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
        if (typeof mod[m] === 'function') methods[m] = mod[m] as Handler;
      routes.push({
        pattern: `/api/${dir.join('/')}`,
        params: dir.filter((d) => d.startsWith('[')).map((d) => d.slice(1, -1)),
        methods,
      });
    }
  });
  after(() => {
    console.log(
      `fuzz: ${cases} cases over ${routes.reduce((n, r) => n + Object.keys(r.methods).length, 0)} route methods (${RUNS} per property)`,
    );
  });

  test('the routes were found', () => {
    assert.ok(routes.length >= 20, `found ${routes.length} routes`);
  });

  test('no input makes a route fail (5xx), every refusal names its problem, and refused writes change nothing', async () => {
    for (const route of routes) {
      for (const [method, handler] of Object.entries(route.methods)) {
        const write = method !== 'GET';
        await fc.assert(
          fc.asyncProperty(
            fc.array(segment, { minLength: route.params.length, maxLength: route.params.length }),
            query,
            rawBody,
            fc.boolean(),
            fc.boolean(),
            fc.boolean(),
            async (segs, q, rawText, withCsrf, unknownField, useReal) => {
              cases++;
              let raw = rawText;
              let parsed: unknown;
              try {
                parsed = JSON.parse(rawText);
              } catch {
                parsed = undefined;
              }
              const addsUnknown =
                unknownField && typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
              if (addsUnknown) raw = JSON.stringify({ ...(parsed as object), zzUnknownField: true });
              const known = real(route.pattern);
              const params = Object.fromEntries(
                route.params.map((p, i) => [p, useReal ? (known[p] ?? segs[i]!) : segs[i]!]),
              );
              let path = route.pattern;
              for (const [k, v] of Object.entries(params)) path = path.replace(`[${k}]`, encodeURIComponent(v));
              const search = new URLSearchParams(q).toString();
              const req = sb.request(`${path}${search ? `?${search}` : ''}`, {
                method,
                ...(write ? { body: '__raw__' } : {}),
                csrf: withCsrf ? undefined : null,
              });
              const sent = write ? new Request(req, { body: raw, method }) : req;
              const beforeState = write ? await snapshot(admin) : undefined;
              const res = await handler(sent, { params: Promise.resolve(params) });
              const what = `${method} ${path}${search ? `?${search}` : ''} body=${raw.slice(0, 120)}`;
              // The body only for a failure: an event stream's body ends only when the stream does.
              if (res.status >= 500) assert.fail(`${what} → ${res.status} ${await res.clone().text()}`);
              if (write && addsUnknown)
                assert.ok(res.status >= 400, `${what} → ${res.status}: a body with an unknown field must be refused`);
              if (res.headers.get('content-type')?.includes('text/event-stream')) {
                await res.body?.cancel();
                return;
              }
              if (res.status >= 400) {
                const e = (await res.json()) as { error?: { code?: number; reason?: string; message?: string } };
                assert.ok(
                  e.error && e.error.code === res.status && e.error.reason && (e.error.message ?? '').length > 5,
                  `${what} → ${res.status} without a usable error: ${JSON.stringify(e)}`,
                );
                if (write)
                  assert.deepEqual(
                    diff(beforeState!, await snapshot(admin)),
                    [],
                    `${what} was refused (${res.status}) but changed the cluster`,
                  );
              } else {
                await res.body?.cancel();
                if (write) await quiet(sb.sandbox, admin);
              }
            },
          ),
          { numRuns: RUNS, endOnFailure: true },
        );
      }
    }
  });
});

// One way of writing a path segment that a router may read as the same segment, or around it.
const respell = (seg: string) =>
  fc.oneof(
    fc.constant(seg),
    fc.constant(`./${seg}`),
    fc.constant(`x/../${seg}`),
    fc.constant(`/${seg}`),
    fc.constant(`%2e/${seg}`),
    fc.constant(`${seg}/.`),
    fc.constant(seg.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`)),
    fc.constant(seg.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)),
    fc.constant(`${seg}%2f`),
    fc.constant(`${seg}%5C`),
  );

describe('fuzzing the paths in front of the routes', () => {
  const paths = [
    '/api/session',
    '/api/install',
    '/api/events',
    '/api/installplans/team1/p/approve',
    '/api/catalog/packages',
    '/operators/team1/pgpilot.v1.4.0',
    '/readyz',
    '/metrics',
    '/healthz',
  ];

  test('any spelling of a path is refused, or is that path to every check', () => {
    let cases = 0;
    for (const path of paths) {
      const segments = path.slice(1).split('/');
      fc.assert(
        fc.property(fc.tuple(...segments.map(respell)), fc.boolean(), (spelt, trailing) => {
          cases++;
          const target = `/${spelt.join('/')}${trailing ? '/' : ''}`;
          const c = canonicalPath(target);
          if (!c.ok) return;
          assert.equal(c.path, path, `${target} passed as ${c.path}`);
          assert.equal(isLoginAttempt('POST', c.path), path === '/api/session', target);
          const headers = { get: (n: string) => ({ 'content-type': 'text/plain', 'content-length': '9' })[n] };
          assert.equal(checkBody('POST', c.path, headers)?.status, path.startsWith('/api/') ? 415 : undefined, target);
        }),
        { numRuns: RUNS * 4 },
      );
    }
    console.log(`fuzz: ${cases} path spellings over ${paths.length} paths`);
  });
});

describe('fuzzing sessions and event streams', () => {
  const sb = routeSandbox({ demo: false });
  type Plain = (req: Request) => Promise<Response>;
  let session: { GET: Plain; DELETE: Plain };
  let events: { GET: Plain };
  const REVOCATIONS = { group: '', version: 'v1', plural: 'configmaps', namespaced: true, kind: 'ConfigMap' };
  before(async () => {
    session = (await import('./session/route')) as unknown as typeof session;
    events = (await import('./events/route')) as unknown as typeof events;
  });
  const record = async () => {
    const list = await sb.admin.list<{ metadata?: { name?: string; resourceVersion?: string } }>(REVOCATIONS, {
      namespace: 'default',
    });
    const cm = list.items.find((i) => i.metadata?.name === 'olm-console-session-revocations');
    return cm?.metadata?.resourceVersion ?? 'absent';
  };

  test('anonymous sessions logging out, in any number and with any body, write nothing to the record', async () => {
    const before = await record();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.option(fc.record({ everywhere: fc.boolean() }), { nil: undefined }),
        async (n, body) => {
          for (let i = 0; i < n; i++) {
            const got = await session.GET(new Request(`${CONSOLE_ORIGIN}/api/session`));
            const cookie = (got.headers.get('set-cookie') ?? '').split(';')[0]!;
            const { csrfToken } = (await got.json()) as { csrfToken: string };
            const headers: Record<string, string> = { cookie, origin: CONSOLE_ORIGIN, 'x-csrf-token': csrfToken };
            if (body) headers['content-type'] = 'application/json';
            const out = await session.DELETE(
              new Request(`${CONSOLE_ORIGIN}/api/session`, {
                method: 'DELETE',
                headers,
                body: body ? JSON.stringify(body) : undefined,
              }),
            );
            assert.ok(out.status === 204 || out.status === 400, `anonymous logout → ${out.status}`);
          }
        },
      ),
      { numRuns: Math.max(5, RUNS / 3) },
    );
    assert.equal(await record(), before, 'the revocation record was written for sessions nobody logged into');
  });

  test('one session opening any number of streams with any number of watches is served at most the limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 24 }), { minLength: 1, maxLength: 14 }),
        async (watchCounts) => {
          const { cookie } = loggedInSession(sb.tokens.bob!, `fuzz-${Math.random().toString(36).slice(2)}`);
          const open: { abort: AbortController; res: Response }[] = [];
          let served = 0;
          for (const n of watchCounts) {
            const abort = new AbortController();
            const query = Array.from({ length: n }, (_, i) => `w=w${i}:namespaces`).join('&');
            const res = await events.GET(
              new Request(`${CONSOLE_ORIGIN}/api/events?${query}`, { headers: { cookie }, signal: abort.signal }),
            );
            if (res.status === 200) served++;
            else {
              assert.ok(res.status === 429 || (res.status === 400 && n > 16), `${n} watches → ${res.status}`);
              assert.equal(res.headers.get('cache-control'), 'no-store');
            }
            open.push({ abort, res });
          }
          assert.ok(served <= 8, `${served} streams served to one session`);
          for (const o of open) {
            await o.res.body?.cancel().catch(() => undefined);
            o.abort.abort();
          }
        },
      ),
      { numRuns: Math.max(4, RUNS / 5) },
    );
  });
});
