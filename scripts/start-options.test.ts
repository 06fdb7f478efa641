import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import {
  planBuild,
  planStart,
  sandboxCaBundle,
  sandboxRegistryEnv,
  START_BUILD_ENV,
  type StartFlags,
} from './start-options';

const base: StartFlags = {
  port: '3000',
  host: '127.0.0.1',
  inCluster: false,
  perUserTokens: false,
  sandbox: false,
  catalog: [],
  trustProxy: false,
};
const plan = (f: Partial<StartFlags>, envKubeconfig?: string) => planStart({ ...base, ...f }, envKubeconfig);

function ok(p: ReturnType<typeof planStart>) {
  assert.ok(p.ok, p.ok ? '' : p.message);
  return p;
}

describe('npm start flags: each combination does what it says, or is refused with the reason', () => {
  test('no flags, no $KUBECONFIG: the sandbox, acting as its admin', () => {
    const p = ok(plan({}));
    assert.equal(p.sandbox, true);
    assert.equal(p.env.OLM_CONSOLE_AUTH, undefined);
  });

  test('--sandbox --per-user-tokens: the sandbox, and everyone logs in with their own token', () => {
    const p = ok(plan({ sandbox: true, perUserTokens: true }));
    assert.equal(p.sandbox, true);
    assert.equal(p.env.OLM_CONSOLE_AUTH, 'token');
    assert.match(p.describe, /logs in with a seed user's token/);
  });

  test('--per-user-tokens alone (no kubeconfig): the sandbox in token mode, never the admin identity', () => {
    const p = ok(plan({ perUserTokens: true }));
    assert.equal(p.sandbox, true);
    assert.equal(p.env.OLM_CONSOLE_AUTH, 'token');
  });

  test('--sandbox ignores $KUBECONFIG (it names the sandbox it starts)', () => {
    const p = ok(plan({ sandbox: true }, '/home/me/.kube/config'));
    assert.equal(p.sandbox, true);
    assert.equal(p.env.OLM_CONSOLE_KUBECONFIG, undefined);
  });

  test('--kubeconfig X --sandbox is refused: two clusters named', () => {
    const p = plan({ sandbox: true, kubeconfig: '/tmp/x' });
    assert.equal(p.ok, false);
    assert.match(!p.ok ? p.message : '', /--sandbox starts its own cluster; --kubeconfig names another/);
  });

  test('--kubeconfig X: that cluster as its user; with --per-user-tokens, token mode', () => {
    const a = ok(plan({ kubeconfig: '/tmp/x', context: 'c1' }));
    assert.deepEqual(
      [a.sandbox, a.env.OLM_CONSOLE_KUBECONFIG, a.env.OLM_CONSOLE_CONTEXT, a.env.OLM_CONSOLE_AUTH],
      [false, '/tmp/x', 'c1', undefined],
    );
    const b = ok(plan({ kubeconfig: '/tmp/x', perUserTokens: true }));
    assert.equal(b.env.OLM_CONSOLE_AUTH, 'token');
  });

  test('$KUBECONFIG is used when no flag names a cluster', () => {
    const p = ok(plan({ perUserTokens: true }, '/etc/kc'));
    assert.deepEqual([p.sandbox, p.env.OLM_CONSOLE_KUBECONFIG, p.env.OLM_CONSOLE_AUTH], [false, '/etc/kc', 'token']);
  });

  test('--in-cluster: token mode always; refused with --sandbox, --kubeconfig, --context or --catalog', () => {
    const p = ok(plan({ inCluster: true }));
    assert.equal(p.env.OLM_CONSOLE_IN_CLUSTER, 'true');
    assert.equal(p.sandbox, false);
    for (const extra of [{ sandbox: true }, { kubeconfig: '/x' }, { context: 'c' }, { catalog: ['/d'] }]) {
      assert.equal(plan({ inCluster: true, ...extra }).ok, false, JSON.stringify(extra));
    }
  });

  test('--catalog with a real cluster is refused instead of being dropped', () => {
    const p = plan({ kubeconfig: '/x', catalog: ['/d'] });
    assert.equal(p.ok, false);
    assert.match(!p.ok ? p.message : '', /--catalog serves a folder in the sandbox/);
    assert.deepEqual(ok(plan({ catalog: ['/d'] })).catalogs, ['/d']);
  });

  test('--context without a kubeconfig is refused', () => {
    assert.equal(plan({ context: 'c' }).ok, false);
    assert.equal(plan({ context: 'c', sandbox: true }).ok, false);
  });

  test('--public-url must be a bare http(s) origin; --trust-proxy is passed on', () => {
    const p = ok(plan({ publicUrl: 'https://console.example.com', trustProxy: true }));
    assert.equal(p.env.OLM_CONSOLE_PUBLIC_URL, 'https://console.example.com');
    assert.equal(p.env.OLM_CONSOLE_TRUST_PROXY, 'true');
    for (const bad of ['console.example.com', 'ftp://x', 'https://x/path', 'https://u:p@x'])
      assert.equal(plan({ publicUrl: bad }).ok, false, bad);
  });

  test("the upgrade approver is off unless --upgrade-approver turns it on, as the console's own identity", () => {
    const clusters = [{}, { sandbox: true }, { perUserTokens: true }, { kubeconfig: '/x' }, { inCluster: true }];
    for (const f of clusters) {
      assert.equal(ok(plan(f)).env.OLM_CONSOLE_UPGRADE_APPROVER, undefined, JSON.stringify(f));
      const on = ok(plan({ ...f, upgradeApprover: true }));
      assert.equal(on.env.OLM_CONSOLE_UPGRADE_APPROVER, 'console', JSON.stringify(f));
    }
  });

  test('--upgrade-approver with OLM_CONSOLE_UPGRADE_APPROVER naming another identity is refused', () => {
    const p = planStart({ ...base, sandbox: true, upgradeApprover: true }, undefined, 'kubeconfig:/etc/approver');
    assert.equal(p.ok, false);
    assert.match(!p.ok ? p.message : '', /the console's own identity; .*"kubeconfig:\/etc\/approver": choose one/);
    const same = ok(planStart({ ...base, upgradeApprover: true }, undefined, 'console'));
    assert.equal(same.env.OLM_CONSOLE_UPGRADE_APPROVER, 'console');
  });

  test('a bad port is refused', () => {
    for (const bad of ['0', '70000', 'abc']) assert.equal(plan({ port: bad }).ok, false, bad);
    assert.equal(ok(plan({ port: '8080' })).env.OLM_CONSOLE_PORT, '8080');
  });

  test('--oidc-issuer with --oidc-client-id: per-user sessions, the secret and CA by file, never on the command line', () => {
    const oidc = {
      oidcIssuer: 'https://idp.example',
      oidcClientId: 'console',
      oidcClientSecretFile: '/s',
      oidcCaFile: '/ca',
    };
    const p = ok(plan({ kubeconfig: 'k', ...oidc }));
    assert.equal(p.env.OLM_CONSOLE_AUTH, 'token');
    assert.deepEqual(
      [
        p.env.OLM_CONSOLE_OIDC_ISSUER,
        p.env.OLM_CONSOLE_OIDC_CLIENT_ID,
        p.env.OLM_CONSOLE_OIDC_CLIENT_SECRET_FILE,
        p.env.OLM_CONSOLE_OIDC_CA_FILE,
      ],
      ['https://idp.example', 'console', '/s', '/ca'],
    );
    assert.match(p.describe, /signs in at https:\/\/idp\.example/);
    assert.equal(ok(plan({ inCluster: true, ...oidc })).env.OLM_CONSOLE_OIDC_ISSUER, 'https://idp.example');
  });

  test('OIDC flags half given, an http issuer, or the sandbox are refused with the reason', () => {
    assert.match(
      (plan({ kubeconfig: 'k', oidcIssuer: 'https://idp.example' }) as { message: string }).message,
      /go together/,
    );
    assert.match((plan({ kubeconfig: 'k', oidcClientId: 'c' }) as { message: string }).message, /go together/);
    assert.match(
      (plan({ kubeconfig: 'k', oidcIssuer: 'http://idp.example', oidcClientId: 'c' }) as { message: string }).message,
      /must be https/,
    );
    assert.match(
      (plan({ sandbox: true, oidcIssuer: 'https://idp.example', oidcClientId: 'c' }) as { message: string }).message,
      /sandbox/,
    );
  });
});

describe('npm start builds only when the build is missing, asked for, or older than the sources', () => {
  const built = Date.parse('2026-11-27T03:00:00Z');

  test('no build yet: it builds, and says why', () => {
    assert.deepEqual(planBuild(false, undefined, built), { build: true, reason: 'there is no build yet' });
  });

  test('a source changed after the build (a git pull): it builds again', () => {
    assert.deepEqual(planBuild(false, built, built + 1), {
      build: true,
      reason: 'the sources changed since the last build',
    });
  });

  test('a build as new as the sources is reused: a second start does not build', () => {
    assert.deepEqual(planBuild(false, built, built), { build: false });
    assert.deepEqual(planBuild(false, built, built - 60_000), { build: false });
  });

  test('--rebuild builds even a current build', () => {
    assert.deepEqual(planBuild(true, built, built - 60_000), { build: true, reason: 'asked for by --rebuild' });
  });

  test('its build leaves out the standalone folder, which next.config.js writes for every other build', () => {
    const load = createRequire(import.meta.url);
    const path = load.resolve('../next.config.js');
    const output = (env: Record<string, string>) => {
      Object.assign(process.env, env);
      try {
        delete load.cache[path];
        return (load(path) as { output?: string }).output;
      } finally {
        for (const k of Object.keys(env)) delete process.env[k];
      }
    };
    assert.equal(output({}), 'standalone');
    assert.equal(output({ ...START_BUILD_ENV }), undefined);
  });
});

describe('npm start with several clusters: --clusters N (the sandbox) and --cluster NAME=KUBECONFIG[:CONTEXT]', () => {
  const refused = (f: Partial<StartFlags>, why: RegExp) => {
    const p = plan(f);
    assert.equal(p.ok, false);
    assert.match(!p.ok ? p.message : '', why);
  };

  test('--clusters 3: the sandbox with three clusters', () => {
    const p = ok(plan({ clusters: '3' }));
    assert.equal(p.sandbox, true);
    assert.equal(p.sandboxClusters, 3);
    assert.match(p.describe, /3 sandbox clusters/);
  });

  test('without it the sandbox is one cluster', () => assert.equal(ok(plan({})).sandboxClusters, 1));

  for (const n of ['1', '0', '101', 'three', '2.5', '-2'])
    test(`--clusters ${n} is refused`, () =>
      refused({ clusters: n }, /--clusters must be a whole number from 2 to 100/));

  test('--clusters with a real cluster is refused', () => {
    refused({ clusters: '2', kubeconfig: '/k' }, /--clusters starts that many sandbox clusters.*choose one/);
    refused({ clusters: '2', inCluster: true }, /choose one/);
    refused({ clusters: '2', cluster: ['a=/k'] }, /choose one/);
  });

  test('--cluster twice: both clusters, the first home, its kubeconfig and context the home settings', () => {
    const p = ok(plan({ cluster: ['prod=/k/prod:admin', 'lab=/k/lab'] }));
    assert.equal(p.sandbox, false);
    assert.deepEqual(JSON.parse(p.env.OLM_CONSOLE_CLUSTERS!), [
      { name: 'prod', kubeconfig: '/k/prod', context: 'admin' },
      { name: 'lab', kubeconfig: '/k/lab' },
    ]);
    assert.equal(p.env.OLM_CONSOLE_KUBECONFIG, '/k/prod');
    assert.equal(p.env.OLM_CONSOLE_CONTEXT, 'admin');
    assert.equal(p.env.OLM_CONSOLE_AUTH, undefined);
    assert.match(p.describe, /Clusters: prod, lab \(home prod\); acting as each kubeconfig's user/);
  });

  test("--cluster with --per-user-tokens: each person's token goes to the home cluster only", () => {
    const p = ok(plan({ cluster: ['prod=/k/prod', 'lab=/k/lab'], perUserTokens: true }));
    assert.equal(p.env.OLM_CONSOLE_AUTH, 'token');
    assert.match(p.describe, /sent to prod only/);
  });

  test('--cluster refusals: a bad value, a name twice, another way of naming a cluster', () => {
    refused({ cluster: ['prod'] }, /--cluster takes NAME=KUBECONFIG\[:CONTEXT\].*no NAME=/);
    refused({ cluster: ['a=/k', 'a=/j'] }, /--cluster a is given twice/);
    refused({ cluster: ['a=/k'], kubeconfig: '/j' }, /--cluster names each cluster.*choose one/);
    refused({ cluster: ['a=/k'], context: 'x' }, /choose one/);
    refused({ cluster: ['a=/k'], sandbox: true }, /choose one/);
    refused({ cluster: ['a=/k'], catalog: ['/c'] }, /--catalog serves a folder in the sandbox/);
  });
});

describe("npm start on the sandbox pulls the bundle images of the sandbox's registry", () => {
  const kubeconfig = [
    'apiVersion: v1',
    'clusters:',
    '- name: sandbox',
    '  cluster:',
    '    server: https://127.0.0.1:6443',
    '    extensions:',
    '    - name: olm-console.dev/catalogd',
    '      extension:',
    '        url: https://127.0.0.1:40001',
    '    - name: olm-console.dev/image-registry',
    '      extension:',
    '        url: https://127.0.0.1:40002',
    '',
  ].join('\n');

  test('pulls on, the sandbox CA trusted, its registry named as private', () => {
    assert.deepEqual(sandboxRegistryEnv(kubeconfig, '/x/.sandbox/serving.crt', {}), {
      env: {
        OLM_CONSOLE_PULL_BUNDLE_IMAGES: 'true',
        OLM_CONSOLE_REGISTRY_CA_FILE: '/x/.sandbox/serving.crt',
        OLM_CONSOLE_PRIVATE_REGISTRIES: '127.0.0.1:40002',
        OLM_CONSOLE_PULL_SECRET: 'olm/sandbox-registry-pull-secret',
      },
      registry: '127.0.0.1:40002',
    });
  });

  test("a person's own settings are kept: pulls off stays off, a private list is added to, another CA is said", () => {
    const r = sandboxRegistryEnv(kubeconfig, '/x/.sandbox/serving.crt', {
      OLM_CONSOLE_PULL_BUNDLE_IMAGES: 'false',
      OLM_CONSOLE_REGISTRY_CA_FILE: '/etc/my-ca.pem',
      OLM_CONSOLE_PRIVATE_REGISTRIES: 'registry.internal:5000',
      OLM_CONSOLE_PULL_SECRET: 'team1/mine',
    });
    assert.deepEqual(r.env, { OLM_CONSOLE_PRIVATE_REGISTRIES: 'registry.internal:5000,127.0.0.1:40002' });
    assert.match(r.note ?? '', /OLM_CONSOLE_REGISTRY_CA_FILE names \/etc\/my-ca\.pem/);
  });

  test("a sandbox fleet's kubeconfig: every cluster's registry is named, and every cluster's CA trusted", () => {
    const cluster = (name: string, registry: number, ca: string) => [
      `- name: ${name}`,
      '  cluster:',
      `    server: https://127.0.0.1:${registry - 1}`,
      `    certificate-authority-data: ${Buffer.from(ca).toString('base64')}`,
      '    extensions:',
      '    - name: olm-console.dev/image-registry',
      '      extension:',
      `        url: https://127.0.0.1:${registry}`,
    ];
    const east = '-----BEGIN CERTIFICATE-----\neast\n-----END CERTIFICATE-----\n';
    const west = '-----BEGIN CERTIFICATE-----\nwest\n-----END CERTIFICATE-----\n';
    const fleet = [
      'apiVersion: v1',
      'clusters:',
      ...cluster('prod-east', 41002, east),
      ...cluster('prod-west', 42002, west),
    ];
    const text = [...fleet, ''].join('\n');
    const r = sandboxRegistryEnv(text, '/x/.sandbox/fleet/registry-cas.pem', {});
    assert.equal(r.env.OLM_CONSOLE_PRIVATE_REGISTRIES, '127.0.0.1:41002,127.0.0.1:42002');
    assert.equal(r.env.OLM_CONSOLE_REGISTRY_CA_FILE, '/x/.sandbox/fleet/registry-cas.pem');
    assert.equal(sandboxCaBundle(text), east + west);
  });

  test('a kubeconfig without the registry (an older sandbox) sets nothing', () => {
    assert.deepEqual(sandboxRegistryEnv('apiVersion: v1\nclusters: []\n', '/ca', {}), { env: {} });
  });

  test('--bundle-images goes to the sandbox, and only to it', () => {
    assert.deepEqual(ok(plan({ bundleImages: 'off' })).sandboxArgs, ['--bundle-images', 'off']);
    assert.deepEqual(ok(plan({})).sandboxArgs, []);
    const bad = plan({ bundleImages: 'inline' });
    assert.ok(!bad.ok && /--bundle-images must be on or off/.test(bad.message));
    const real = plan({ bundleImages: 'on', kubeconfig: '/k' });
    assert.ok(!real.ok && /a real cluster's catalogs are its own/.test(real.message));
  });
});
