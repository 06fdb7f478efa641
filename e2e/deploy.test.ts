// The manifests in deploy/ as a cluster team applies them: every overlay renders with kubectl's
// kustomize and passes the API server's own validation (server-side dry run) on the real cluster
// (the sandbox when the real cluster's programs are not built); and the console, started from the
// runtime folder the way the Deployment starts it (--in-cluster, the service account's token
// from a TokenRequest at the path a pod has it), does its work with exactly the rights the
// manifests grant, each of which it needs.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { load, loadAll } from 'js-yaml';
import { withSandbox } from '../lib/sandbox/testing/sandbox-fixture';
import { ensureBuilt, freePort, warmedUp } from './support/console-server';
import { clusterProgramsMissing, startRealCluster, type RealCluster } from './support/real-cluster';

const root = join(import.meta.dirname, '..');
const real = !clusterProgramsMissing();
const NS = 'olm-console';
const SA = `system:serviceaccount:${NS}:olm-console`;

interface Cluster {
  kubeconfigPath: string;
  tokens: Record<string, string>;
  close(): Promise<void>;
}
let cluster: Cluster;
let realCluster: RealCluster | undefined;

function kubectl(args: string[], input?: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync('kubectl', ['--kubeconfig', cluster.kubeconfigPath, ...args], {
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
function kubectlOk(args: string[], input?: string): string {
  const r = kubectl(args, input);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}
const render = (dir: string) => {
  const r = spawnSync('kubectl', ['kustomize', join(root, 'deploy', dir)], { encoding: 'utf8' });
  assert.equal(r.status, 0, `kubectl kustomize deploy/${dir}: ${r.stderr}`);
  return r.stdout;
};
type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string }; [k: string]: unknown };
const objects = (yaml: string) => (loadAll(yaml) as Obj[]).filter(Boolean);

before(async () => {
  if (real) {
    realCluster = await startRealCluster([]);
    cluster = {
      kubeconfigPath: realCluster.kubeconfigPath,
      tokens: realCluster.tokens,
      close: () => realCluster!.stop(),
    };
  } else {
    const sb = await withSandbox({ demo: false });
    cluster = { kubeconfigPath: sb.kubeconfigPath, tokens: sb.tokens, close: () => sb.close() };
  }
  kubectlOk(['apply', '-f', '-'], `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${NS}\n`);
});

after(async () => {
  await cluster?.close();
});

/** OpenShift's Route API, from the openshift/api module OLM's go.mod pins (in Go's module cache once cluster/ is built). */
function routeCrd(): string | undefined {
  const version = /github\.com\/openshift\/api (v\S+)/.exec(
    readFileSync(join(root, 'cluster', 'olm', 'go.mod'), 'utf8'),
  )?.[1];
  const cache = spawnSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).stdout?.trim();
  const path =
    version && cache
      ? join(cache, 'github.com', 'openshift', `api@${version}`, 'route', 'v1', 'route.crd.yaml')
      : undefined;
  return path && existsSync(path) ? path : undefined;
}

describe('deploy/ renders and the API server accepts it', () => {
  for (const overlay of [
    'base',
    'overlays/upstream',
    'overlays/upstream-oidc',
    'overlays/openshift',
    'overlays/upstream-with-upgrade-approver',
  ]) {
    test(`${overlay}: kubectl kustomize, then kubectl apply --dry-run=server`, (t) => {
      const yaml = render(overlay);
      const kinds = objects(yaml).map((o) => `${o.kind}/${o.metadata.name}`);
      if (overlay.endsWith('openshift')) {
        const crd = routeCrd();
        if (!crd)
          return t.skip("the Route CRD comes from openshift/api in Go's module cache, filled by cluster/build.sh");
        kubectlOk(['apply', '-f', crd]);
        kubectlOk(['wait', '--for=condition=Established', 'crd/routes.route.openshift.io', '--timeout=60s']);
      }
      const out = kubectlOk(['apply', '--dry-run=server', '-f', '-'], yaml);
      for (const k of kinds)
        assert.match(
          out,
          new RegExp(
            `^${k.split('/')[0]!.toLowerCase()}[^ ]*/${k.split('/')[1]} (created|configured|unchanged) \\(server dry run\\)$`,
            'm',
          ),
          `${k} passed the dry run`,
        );
      assert.ok(kinds.includes('Deployment/olm-console') && kinds.includes('PodDisruptionBudget/olm-console'));
    });
  }

  test("the dry run is the API server's judgement: a Deployment it would refuse is refused", () => {
    const broken = render('base').replace('maxUnavailable: 0', 'maxUnavailable: 0\n      maxSurge: 0');
    const r = kubectl(['apply', '--dry-run=server', '-f', '-'], broken);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /may not be 0 when `maxUnavailable` is 0|maxSurge/);
  });
});

interface Replica {
  url: string;
  output(): string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

describe(
  'in-cluster, with the service account the manifests create and its rights',
  { skip: real ? false : 'needs the real cluster (TokenRequest, service-account tokens): build cluster/' },
  () => {
    let deployment: { containers: { name: string; args: string[]; env: { name: string; value?: string }[] }[] };
    let saDir: string;

    before(() => {
      ensureBuilt();
      const base = objects(render('base'));
      // Everything but the Deployment, which the test runs as processes instead.
      kubectlOk(
        ['apply', '-f', '-'],
        base
          .filter((o) => o.kind !== 'Deployment')
          .map((o) => JSON.stringify(o))
          .join('\n'),
      );
      deployment = (
        base.find((o) => o.kind === 'Deployment') as unknown as { spec: { template: { spec: typeof deployment } } }
      ).spec.template.spec;
      saDir = mkdtempSync(join(tmpdir(), 'olm-console-sa-'));
      writeFileSync(
        join(saDir, 'token'),
        kubectlOk(['create', 'token', 'olm-console', '-n', NS, '--duration=1h']).trim(),
      );
      writeFileSync(join(saDir, 'ca.crt'), realCluster!.caPem);
      writeFileSync(join(saDir, 'namespace'), NS);
    });
    after(() => rmSync(saDir, { recursive: true, force: true }));

    /** The console as the Deployment runs it, in a mount namespace where the pod's service-account path holds our token. */
    async function startReplica(): Promise<Replica> {
      const console = deployment.containers.find((c) => c.name === 'console')!;
      const port = await freePort();
      const args = console.args.map((a, i, all) =>
        all[i - 1] === '--port' ? String(port) : all[i - 1] === '--host' ? '127.0.0.1' : a,
      );
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        OLM_CONSOLE_WARM_INDEX: 'false',
      };
      for (const e of console.env) if (e.value !== undefined) env[e.name] = e.value;
      env.OLM_CONSOLE_NAMESPACE = NS; // the fieldRef's value
      const api = new URL(realCluster!.url);
      Object.assign(env, { KUBERNETES_SERVICE_HOST: api.hostname, KUBERNETES_SERVICE_PORT: api.port });
      const child: ChildProcess = spawn(
        'unshare',
        [
          '--mount',
          '--propagation',
          'private',
          'sh',
          '-c',
          'mount -t tmpfs tmpfs /var/run && mkdir -p /var/run/secrets/kubernetes.io/serviceaccount && mount --bind "$0" /var/run/secrets/kubernetes.io/serviceaccount && exec "$@"',
          saDir,
          process.execPath,
          join(root, '.next', 'standalone', 'server.mjs'),
          ...args,
        ],
        { env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const url = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 30_000;
      while (
        child.exitCode === null &&
        !(await fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        ))
      ) {
        if (Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      if (child.exitCode === null) await warmedUp(url, child, deadline + 180_000, () => output);
      return {
        url,
        output: () => output,
        exited,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          await exited;
        },
      };
    }

    const login = async (r: Replica, token: string) => {
      const res = await fetch(`${r.url}/api/session`, {
        method: 'POST',
        headers: { origin: r.url, 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      assert.equal(res.status, 200, await res.clone().text());
      return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    };
    const whoOn = async (r: Replica, cookie: string) =>
      ((await (await fetch(`${r.url}/api/session`, { headers: { cookie } })).json()) as { username: string | null })
        .username;
    const role = () =>
      load(kubectlOk(['get', 'role', 'olm-console', '-n', NS, '-o', 'yaml'])) as {
        rules: { resources: string[]; verbs: string[]; resourceNames?: string[] }[];
      };

    test('two replicas: ready, one session key written to the Secret once, sessions and logouts shared', async () => {
      const a = await startReplica();
      const b = await startReplica();
      try {
        const ready = await fetch(`${a.url}/readyz`);
        assert.equal(ready.status, 200, `${await ready.text()}\n${a.output()}`);
        const key = kubectlOk(['get', 'secret', 'olm-console-session', '-n', NS, '-o', 'jsonpath={.data.session-key}']);
        assert.match(
          Buffer.from(key, 'base64').toString(),
          /^[0-9a-f]{64}$/,
          'a random key, written by the console as its service account',
        );
        const cookie = await login(a, cluster.tokens.alice!);
        assert.equal(await whoOn(b, cookie), 'alice', 'the other replica opens the cookie');
        const out = await fetch(`${a.url}/api/session`, {
          method: 'DELETE',
          headers: { cookie, origin: a.url, 'x-csrf-token': await csrf(a, cookie), 'content-type': 'application/json' },
          body: '{}',
        });
        assert.equal(out.status, 204, await out.clone().text());
        assert.match(
          kubectlOk(['get', 'configmap', 'olm-console-session-revocations', '-n', NS, '-o', 'jsonpath={.data}']),
          /"s\.[0-9a-f]+"/,
          'the logout is recorded as the service account',
        );
        await waitUntil(async () => (await whoOn(b, cookie)) === null, 'the other replica refuses the cookie');
        assert.doesNotMatch(a.output() + b.output(), /"level":(40|50)/, 'no warnings or errors');
      } finally {
        await a.stop();
        await b.stop();
      }
    });

    test('nothing more than the manifests grant: the service account can do only that, and each rule is needed', async () => {
      // What the API server says the account may do in its namespace, beyond what every identity may.
      const rules = kubectlOk(['auth', 'can-i', '--list', '--as', SA, '-n', NS]);
      // Rows naming resources, less the self-reviews every authenticated identity may create.
      const granted = rules
        .split('\n')
        .slice(1)
        .filter((l) => /^\S/.test(l) && !/^selfsubject\w*reviews\./.test(l))
        .map((l) => l.trim().replace(/\s+/g, ' '));
      assert.deepEqual(granted.sort(), [
        'configmaps [] [] [create get list delete]',
        'configmaps [] [olm-console-catalog-snapshots] [get update]',
        'configmaps [] [olm-console-session-revocations] [get update]',
        'secrets [] [olm-console-session] [get update]',
      ]);
      assert.equal(kubectl(['auth', 'can-i', 'list', 'secrets', '--as', SA, '-n', NS]).stdout.trim(), 'no');
      assert.equal(
        kubectl(['auth', 'can-i', 'get', 'subscriptions.operators.coreos.com', '--as', SA, '-A']).stdout.trim(),
        'no',
        "people's work is never done as the console",
      );

      const original = role();
      const without = (resource: string) =>
        kubectlOk(
          ['apply', '-f', '-'],
          JSON.stringify({
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'Role',
            metadata: { name: 'olm-console', namespace: NS },
            rules: original.rules.filter((r) => !r.resources.includes(resource)),
          }),
        );
      try {
        // Without the Secret rule a fresh namespace's replica cannot learn the shared key: it refuses to start.
        without('secrets');
        kubectlOk(['delete', 'secret', 'olm-console-session', '-n', NS]);
        kubectlOk(['create', 'secret', 'generic', 'olm-console-session', '-n', NS]);
        const noKey = await startReplica();
        assert.equal(await noKey.exited, 1);
        assert.match(
          noKey.output(),
          /session key is kept in Secret olm-console\/olm-console-session, which the console's identity cannot read: .*forbidden/,
        );

        // Without the ConfigMap rules a logout holds on its own replica only.
        kubectlOk(
          ['apply', '-f', '-'],
          JSON.stringify({
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'Role',
            metadata: { name: 'olm-console', namespace: NS },
            rules: original.rules,
          }),
        );
        without('configmaps');
        kubectlOk(['delete', 'configmap', 'olm-console-session-revocations', '-n', NS]);
        const a = await startReplica();
        const b = await startReplica();
        try {
          const cookie = await login(a, cluster.tokens.bob!);
          await fetch(`${a.url}/api/session`, {
            method: 'DELETE',
            headers: {
              cookie,
              origin: a.url,
              'x-csrf-token': await csrf(a, cookie),
              'content-type': 'application/json',
            },
            body: '{}',
          });
          await new Promise((r) => setTimeout(r, 3_000));
          assert.equal(await whoOn(b, cookie), 'bob', 'the other replica never learns of the logout');
          assert.notEqual(kubectl(['get', 'configmap', 'olm-console-session-revocations', '-n', NS]).code, 0);
        } finally {
          await a.stop();
          await b.stop();
        }
      } finally {
        kubectlOk(
          ['apply', '-f', '-'],
          JSON.stringify({
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'Role',
            metadata: { name: 'olm-console', namespace: NS },
            rules: original.rules,
          }),
        );
      }
    });
  },
);

async function csrf(r: Replica, cookie: string): Promise<string> {
  return ((await (await fetch(`${r.url}/api/session`, { headers: { cookie } })).json()) as { csrfToken: string })
    .csrfToken;
}

async function waitUntil(probe: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
