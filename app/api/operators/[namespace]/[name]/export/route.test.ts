// The GitOps export of an installed operator, against two sandboxes: exported from one as the
// person, applied with `kubectl apply -k` to a fresh one, it gives the same install there (the
// same Subscription, a CSV reaching Succeeded, the same OperatorGroup targets).
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OPERATOR_GROUP_TYPE, type OperatorGroup } from '@/lib/olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { withSandbox } from '@/lib/sandbox/testing/sandbox-fixture';
import type { GitopsExport } from '@/lib/api/gitops-export';
import { clientAs, subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { consoleRequest } from '@/lib/server/testing/console-request';

type ErrorBody = { error: { code: number; message: string } };

describe('GET /api/operators/<ns>/<csv>/export', () => {
  let from: Awaited<ReturnType<typeof withSandbox>>;
  let to: Awaited<ReturnType<typeof withSandbox>>;
  let GET: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

  before(async () => {
    [from, to] = await Promise.all([withSandbox({ deploymentDelayMs: 0 }), withSandbox({ deploymentDelayMs: 0 })]);
    const kube = clientAs(from, 'admin');
    await subscribe(kube, {
      namespace: 'pg',
      package: 'pgpilot',
      channel: 'stable',
      targets: ['pg'],
      approval: 'Manual',
      startingCSV: 'pgpilot.v1.4.0',
    });
    await subscribe(kube, { namespace: 'operators', package: 'certwarden', channel: 'stable' });
    const plan = await waitFor(
      'the pgpilot plan',
      async () => (await kube.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'pg')).status?.installPlanRef?.name,
    );
    await kube.patch(
      {
        group: 'operators.coreos.com',
        version: 'v1alpha1',
        plural: 'installplans',
        namespaced: true,
        kind: 'InstallPlan',
      },
      plan,
      { spec: { approved: true } },
      { namespace: 'pg', type: 'merge' },
    );
    await waitForCsv(kube, 'pg', 'pgpilot.v1.4.0');
    await waitForCsv(
      kube,
      'operators',
      await waitFor(
        'certwarden',
        async () => (await kube.get<Subscription>(SUBSCRIPTION_TYPE, 'certwarden', 'operators')).status?.installedCSV,
      ),
    );
    process.env.OLM_CONSOLE_KUBECONFIG = from.kubeconfigPath;
    process.env.OLM_CONSOLE_AUTH = 'token';
    process.env.OLM_CONSOLE_WARM_INDEX = 'false';
    ({ GET } = await import('./route'));
  });
  after(async () => {
    await from?.close();
    await to?.close();
  });

  const get = async (ns: string, csv: string, query = '', user = 'admin') =>
    GET(consoleRequest(`/api/operators/${ns}/${csv}/export${query}`, { token: from.tokens[user]! }), {
      params: Promise.resolve({ namespace: ns, name: csv }),
    });
  const json = async <T>(res: Response) => ({ status: res.status, body: (await res.json()) as T & ErrorBody });

  // kubectl runs while this process's event loop serves the sandbox it talks to: never spawnSync.
  const applyToFresh = async (files: GitopsExport['files']) => {
    const dir = mkdtempSync(join(tmpdir(), 'gitops-export-'));
    for (const f of files) {
      mkdirSync(dirname(join(dir, f.path)), { recursive: true });
      writeFileSync(join(dir, f.path), f.content);
    }
    const r = await promisify(execFile)('kubectl', ['--kubeconfig', to.kubeconfigPath, 'apply', '-k', dir], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    return r.stdout;
  };

  test('a namespaced operator: exported, applied to an empty cluster, the same install', async () => {
    const { status, body } = await json<GitopsExport>(await get('pg', 'pgpilot.v1.4.0', '?application=databases'));
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.files.map((f) => f.path).sort(), [
      'cluster-scope/kustomization.yaml',
      'cluster-scope/namespaces/pg.yaml',
      'cluster-scope/operatorgroups/pg/pg-og.yaml',
      'databases/kustomization.yaml',
      'databases/subscriptions/pgpilot.yaml',
      'kustomization.yaml',
    ]);
    const out = await applyToFresh(body.files);
    assert.match(out, /namespace\/pg created/);
    assert.match(out, /subscription\.operators\.coreos\.com\/pgpilot created/);
    const kube = clientAs(to, 'admin');
    const original = await clientAs(from, 'admin').get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'pg');
    const copy = await kube.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'pg');
    assert.deepEqual(copy.spec, original.spec);
    assert.deepEqual((await kube.get<OperatorGroup>(OPERATOR_GROUP_TYPE, 'pg-og', 'pg')).spec?.targetNamespaces, [
      'pg',
    ]);
    // Manual, as exported: OLM waits for the first plan's approval on the new cluster too.
    const plan = await waitFor(
      'a plan waiting for approval',
      async () => (await kube.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'pg')).status?.installPlanRef?.name,
    );
    await kube.patch(
      {
        group: 'operators.coreos.com',
        version: 'v1alpha1',
        plural: 'installplans',
        namespaced: true,
        kind: 'InstallPlan',
      },
      plan,
      { spec: { approved: true } },
      { namespace: 'pg', type: 'merge' },
    );
    await waitForCsv(kube, 'pg', 'pgpilot.v1.4.0');
  });

  test('an operator for all namespaces goes to cluster-scope whole; the tar download holds the same files', async () => {
    const csv = (await clientAs(from, 'admin').get<Subscription>(SUBSCRIPTION_TYPE, 'certwarden', 'operators')).status!
      .installedCSV!;
    const { body } = await json<GitopsExport>(await get('operators', csv));
    assert.ok(body.files.some((f) => f.path === 'cluster-scope/subscriptions/operators/certwarden.yaml'));
    assert.ok(!body.files.some((f) => f.path.startsWith('operators/')), 'no application folder');
    const tar = await get('operators', csv, '?format=tar');
    assert.equal(tar.headers.get('content-type'), 'application/x-tar');
    assert.match(
      tar.headers.get('content-disposition') ?? '',
      new RegExp(`attachment; filename="operators-${csv}-gitops.tar"`),
    );
    const dir = mkdtempSync(join(tmpdir(), 'gitops-tar-'));
    writeFileSync(join(dir, 'x.tar'), Buffer.from(await tar.arrayBuffer()));
    const list = spawnSync('tar', ['-tf', join(dir, 'x.tar')], { encoding: 'utf8' });
    assert.deepEqual(list.stdout.trim().split('\n').sort(), body.files.map((f) => f.path).sort());
    await applyToFresh(body.files);
    await waitForCsv(clientAs(to, 'admin'), 'operators', csv);
  });

  test("a copy is exported from its operator's namespace; a bad application name is a 400", async () => {
    const csv = (await clientAs(from, 'admin').get<Subscription>(SUBSCRIPTION_TYPE, 'certwarden', 'operators')).status!
      .installedCSV!;
    const copy = await json(await get('pg', csv));
    assert.equal(copy.status, 400);
    assert.match(copy.body.error.message, /is a copy OLM made; export the operator from operators/);
    const bad = await json(await get('pg', 'pgpilot.v1.4.0', '?application=cluster-scope'));
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /cluster administrator's folder/);
  });
});
