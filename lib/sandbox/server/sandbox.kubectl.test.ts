// The sandbox driven by kubectl, as an admin would drive a real cluster. kubectl is not an npm
// package; where it is missing the suite says so and is skipped.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { withSandbox } from '../testing/sandbox-fixture';

const kubectlPath = ['/usr/bin/kubectl', '/usr/local/bin/kubectl'].find((p) => existsSync(p));

function kubectl(
  kubeconfig: string,
  args: string[],
  stdin?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      kubectlPath!,
      ['--kubeconfig', kubeconfig, ...args],
      { timeout: 30_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
    if (stdin !== undefined) {
      child.stdin?.write(stdin);
      child.stdin?.end();
    }
  });
}

describe('sandbox API with kubectl', { skip: kubectlPath ? false : 'kubectl is not installed on this machine' }, () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let kc: string;
  const k = (...args: string[]) => kubectl(kc, args);
  before(async () => {
    sb = await withSandbox();
    kc = sb.kubeconfigPath;
  });
  after(() => sb.close());

  test('api-resources lists OLM kinds with their short names and the olm category works', async () => {
    const r = await k('api-resources', '--api-group=operators.coreos.com');
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /clusterserviceversions\s+csv,csvs\s+operators\.coreos\.com\/v1alpha1\s+true\s+ClusterServiceVersion/,
    );
    assert.match(r.stdout, /operatorgroups\s+og\s+operators\.coreos\.com\/v1\s+true\s+OperatorGroup/);
    assert.match(r.stdout, /operatorconditions\s+condition\s+operators\.coreos\.com\/v2\s+true\s+OperatorCondition/);
    const olm = await k('get', 'olm', '-A');
    assert.equal(olm.code, 0, olm.stderr);
  });

  test('the PriorityClasses kube-apiserver creates, and StorageClasses, as kubectl shows them', async () => {
    const pc = await k('get', 'pc');
    assert.equal(pc.code, 0, pc.stderr);
    assert.match(pc.stdout, /^NAME\s+VALUE\s+GLOBAL-DEFAULT\s+AGE\s+PREEMPTIONPOLICY\n/);
    assert.match(pc.stdout, /\nsystem-cluster-critical\s+2000000000\s+false\s+\S+\s+PreemptLowerPriority\n/);
    assert.match(pc.stdout, /\nsystem-node-critical\s+2000001000\s+false\s+/);
    const file = join(sb.dir, 'sc.yaml');
    writeFileSync(
      file,
      'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: local-disks\nprovisioner: kubernetes.io/no-provisioner\nreclaimPolicy: Retain\nvolumeBindingMode: WaitForFirstConsumer\n',
    );
    assert.equal((await k('apply', '-f', file)).code, 0);
    const sc = await k('get', 'sc');
    assert.match(sc.stdout, /\nlocal-disks\s+kubernetes\.io\/no-provisioner\s+Retain\s+WaitForFirstConsumer\s+/);
  });

  test('apply creates, apply again is unchanged, a changed file is configured', async () => {
    const file = join(sb.dir, 'og.yaml');
    const doc = (value: string) => `apiVersion: operators.coreos.com/v1
kind: OperatorGroup
metadata:
  name: og1
  namespace: team1
spec:
  targetNamespaces: [team1]
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: team1
  labels: {app: demo, tier: web}
data:
  mode: "${value}"
`;
    writeFileSync(file, doc('a'));
    const first = await k('apply', '-f', file);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /operatorgroup\.operators\.coreos\.com\/og1 created/);
    assert.match((await k('apply', '-f', file)).stdout, /configmap\/settings unchanged/);
    writeFileSync(file, doc('b'));
    assert.match((await k('apply', '-f', file)).stdout, /configmap\/settings configured/);
    assert.equal((await k('get', 'cm', 'settings', '-n', 'team1', '-o', 'jsonpath={.data.mode}')).stdout, 'b');
  });

  test('get prints OLM printer columns; -o yaml prints the object', async () => {
    const csv = {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'ClusterServiceVersion',
      metadata: { name: 'etcdoperator.v0.9.4', namespace: 'team1' },
      spec: {
        displayName: 'etcd',
        version: '0.9.4',
        replaces: 'etcdoperator.v0.9.2',
        install: { strategy: 'deployment' },
      },
    };
    assert.equal((await kubectl(kc, ['apply', '-f', '-'], JSON.stringify(csv))).code, 0);
    const table = await k('get', 'csv', '-n', 'team1');
    assert.match(table.stdout, /^NAME\s+DISPLAY\s+VERSION\s+REPLACES\s+PHASE/m);
    assert.match(table.stdout, /etcdoperator\.v0\.9\.4\s+etcd\s+0\.9\.4\s+etcdoperator\.v0\.9\.2/);
    const yaml = await k('get', 'csv', 'etcdoperator.v0.9.4', '-n', 'team1', '-o', 'yaml');
    assert.match(yaml.stdout, /displayName: etcd/);
    assert.match(yaml.stdout, /uid: [0-9a-f-]{36}/);
    const describeOut = await k('describe', 'og', 'og1', '-n', 'team1');
    assert.equal(describeOut.code, 0, describeOut.stderr);
    assert.match(describeOut.stdout, /Target Namespaces:\s+team1/);
  });

  test('patch with all three types', async () => {
    assert.equal(
      (await k('patch', 'cm', 'settings', '-n', 'team1', '--type', 'merge', '-p', '{"data":{"m":"1"}}')).code,
      0,
    );
    assert.equal(
      (
        await k(
          'patch',
          'cm',
          'settings',
          '-n',
          'team1',
          '--type',
          'json',
          '-p',
          '[{"op":"add","path":"/data/j","value":"2"}]',
        )
      ).code,
      0,
    );
    assert.equal(
      (await k('patch', 'cm', 'settings', '-n', 'team1', '-p', '{"metadata":{"labels":{"s":"3"}}}')).code,
      0,
    );
    const o = JSON.parse((await k('get', 'cm', 'settings', '-n', 'team1', '-o', 'json')).stdout);
    assert.deepEqual([o.data.m, o.data.j, o.metadata.labels.s, o.metadata.labels.app], ['1', '2', '3', 'demo']);
  });

  test('label and field selectors; paging with --chunk-size', async () => {
    for (let i = 0; i < 5; i++)
      await kubectl(
        kc,
        ['apply', '-f', '-'],
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `page-${i}`, namespace: 'default', labels: { batch: i % 2 ? 'odd' : 'even' } },
        }),
      );
    assert.deepEqual(
      (await k('get', 'cm', '-n', 'default', '-l', 'batch in (odd)', '-o', 'name')).stdout.trim().split('\n'),
      ['configmap/page-1', 'configmap/page-3'],
    );
    assert.deepEqual(
      (await k('get', 'cm', '-n', 'default', '-l', 'batch!=odd,batch', '-o', 'name')).stdout.trim().split('\n'),
      ['configmap/page-0', 'configmap/page-2', 'configmap/page-4'],
    );
    assert.equal(
      (await k('get', 'cm', '-A', '--field-selector', 'metadata.name=page-2', '-o', 'name')).stdout.trim(),
      'configmap/page-2',
    );
    const paged = await k('get', 'cm', '-n', 'default', '-l', 'batch', '--chunk-size=2', '-o', 'name', '-v=6');
    assert.equal(paged.stdout.trim().split('\n').length, 5);
    assert.equal(
      (paged.stderr.match(/GET https:\/\/127\.0\.0\.1:\d+\/api\/v1\/namespaces\/default\/configmaps\?/g) ?? []).length,
      3,
      'three pages of two',
    );
    const bad = await k('get', 'cm', '--field-selector', 'data.x=1');
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /"data\.x" is not a known field selector: only "metadata\.name", "metadata\.namespace"/);
  });

  test('get -w prints changes as they happen', async () => {
    const child = spawn(kubectlPath!, ['--kubeconfig', kc, 'get', 'cm', '-n', 'team1', '-w', '--output-watch-events']);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const until = async (re: RegExp) => {
      const end = Date.now() + 10_000;
      while (!re.test(out)) {
        if (Date.now() > end) assert.fail(`kubectl get -w never printed ${re}:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    try {
      await until(/settings/);
      await kubectl(
        kc,
        ['apply', '-f', '-'],
        JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched', namespace: 'team1' } }),
      );
      await until(/ADDED\s+watched/);
      await k('delete', 'cm', 'watched', '-n', 'team1');
      await until(/DELETED\s+watched/);
    } finally {
      child.kill();
    }
  });

  test('delete waits for finalizers; owner references cascade', async () => {
    await kubectl(
      kc,
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'held', namespace: 'team1', finalizers: ['example.com/hold'] },
      }),
    );
    assert.equal((await k('delete', 'cm', 'held', '-n', 'team1', '--wait=false')).code, 0);
    assert.match(
      (await k('get', 'cm', 'held', '-n', 'team1', '-o', 'jsonpath={.metadata.deletionTimestamp}')).stdout,
      /^\d{4}-/,
    );
    await k(
      'patch',
      'cm',
      'held',
      '-n',
      'team1',
      '--type',
      'json',
      '-p',
      '[{"op":"remove","path":"/metadata/finalizers"}]',
    );
    assert.match((await k('get', 'cm', 'held', '-n', 'team1')).stderr, /NotFound.*configmaps "held" not found/);

    const uid = (
      await kubectl(
        kc,
        ['apply', '-f', '-', '-o', 'jsonpath={.metadata.uid}'],
        JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'parent', namespace: 'team1' } }),
      )
    ).stdout;
    await kubectl(
      kc,
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'child',
          namespace: 'team1',
          ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'parent', uid }],
        },
      }),
    );
    assert.equal((await k('delete', 'cm', 'parent', '-n', 'team1')).code, 0);
    assert.match((await k('get', 'cm', 'child', '-n', 'team1')).stderr, /not found/);
  });

  test('auth can-i for each seeded user', async () => {
    const can = async (user: string, ...args: string[]) =>
      (await kubectl(sb.kubeconfigs[user]!, ['auth', 'can-i', ...args])).stdout.trim().split(/\s/)[0];
    assert.equal(await can('admin', '*', '*', '-A'), 'yes');
    assert.equal(await can('alice', 'create', 'subscriptions.operators.coreos.com', '-n', 'team1'), 'yes');
    assert.equal(await can('alice', 'create', 'subscriptions.operators.coreos.com', '-n', 'default'), 'no');
    assert.equal(await can('alice', 'create', 'namespaces'), 'no');
    assert.equal(await can('bob', 'list', 'clusterserviceversions', '-A'), 'yes');
    assert.equal(await can('bob', 'patch', 'installplans', '-n', 'team1'), 'no');
    const who = await kubectl(sb.kubeconfigs.alice!, ['auth', 'whoami']);
    assert.match(who.stdout, /Username\s+alice/);
  });

  test('errors: 404, 409, 422, 403 as kubectl shows them', async () => {
    assert.match(
      (await k('get', 'cm', 'nope', '-n', 'default')).stderr,
      /Error from server \(NotFound\): configmaps "nope" not found/,
    );
    assert.match((await k('create', 'cm', 'settings', '-n', 'team1')).stderr, /configmaps "settings" already exists/);
    assert.match(
      (await k('create', 'cm', 'Bad_Name', '-n', 'team1')).stderr,
      /ConfigMap "Bad_Name" is invalid: metadata\.name: Invalid value/,
    );
    assert.match(
      (await kubectl(sb.kubeconfigs.bob!, ['create', 'cm', 'x', '-n', 'default'])).stderr,
      /configmaps is forbidden: User "bob" cannot create resource "configmaps" in API group "" in the namespace "default"/,
    );
  });

  test('a namespace goes Terminating, takes its contents with it, and is gone', async () => {
    assert.equal((await k('create', 'namespace', 'scratch')).code, 0);
    await kubectl(
      kc,
      ['apply', '-f', '-'],
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'inside', namespace: 'scratch' } }),
    );
    const del = await k('delete', 'namespace', 'scratch', '--timeout=20s');
    assert.equal(del.code, 0, del.stderr);
    assert.match((await k('get', 'namespace', 'scratch')).stderr, /not found/);
    assert.equal(
      sb.store.list(
        { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true },
        { namespace: 'scratch' },
      ).items.length,
      0,
    );
  });
});
