// kubectl's `create` generators against the sandbox. Their typed clients send the object in
// Kubernetes protobuf and ask for protobuf back, so each one exercises both directions of the
// sandbox's codec; what is asserted is what kubectl then shows.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { kubectl, kubectlPath } from '../testing/kubectl';
import { withSandbox } from '../testing/sandbox-fixture';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- kubectl's JSON, read field by field

describe(
  'kubectl create generators',
  { skip: kubectlPath ? false : 'kubectl is not installed on this machine' },
  () => {
    let sb: Awaited<ReturnType<typeof withSandbox>>;
    const k = (...args: string[]) => kubectl(sb.kubeconfigPath, args);
    const created = async (...args: string[]) => {
      const r = await k('create', ...args);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };
    const json = async (...args: string[]) => {
      const r = await k('get', '-o', 'json', ...args);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as Obj;
    };
    before(async () => {
      sb = await withSandbox();
    });
    after(() => sb.close());

    test('role, rolebinding, clusterrole and clusterrolebinding are created as written', async () => {
      assert.match(
        await created('role', 'reader', '-n', 'team1', '--verb=get,list', '--resource=pods,configmaps'),
        /role\.rbac\.authorization\.k8s\.io\/reader created/,
      );
      assert.deepEqual((await json('role', 'reader', '-n', 'team1')).rules, [
        { apiGroups: [''], resources: ['pods', 'configmaps'], verbs: ['get', 'list'] },
      ]);
      await created('rolebinding', 'reader-bob', '-n', 'team1', '--role=reader', '--user=bob');
      const rb = await json('rolebinding', 'reader-bob', '-n', 'team1');
      assert.deepEqual(rb.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' });
      assert.deepEqual(rb.subjects, [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }]);
      assert.equal((await k('auth', 'can-i', 'list', 'configmaps', '-n', 'team1', '--as', 'bob')).stdout.trim(), 'yes');

      await created('clusterrole', 'node-reader', '--verb=get', '--resource=nodes', '--resource-name=n1');
      assert.deepEqual((await json('clusterrole', 'node-reader')).rules, [
        { apiGroups: [''], resources: ['nodes'], resourceNames: ['n1'], verbs: ['get'] },
      ]);
      await created('clusterrolebinding', 'node-readers', '--clusterrole=node-reader', '--group=devs');
      assert.deepEqual((await json('clusterrolebinding', 'node-readers')).subjects, [
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'devs' },
      ]);
    });

    test('a deployment keeps an explicit zero replicas; a service its ports', async () => {
      await created('deployment', 'idle', '-n', 'team1', '--image=nginx:1.27', '--replicas=0', '--port=80');
      const d = await json('deployment', 'idle', '-n', 'team1');
      assert.equal(d.spec.replicas, 0);
      assert.deepEqual(d.spec.selector, { matchLabels: { app: 'idle' } });
      assert.deepEqual(d.spec.template.spec.containers[0].ports, [{ containerPort: 80, protocol: 'TCP' }]);
      assert.equal(d.spec.template.spec.containers[0].image, 'nginx:1.27');

      await created('service', 'clusterip', 'web', '-n', 'team1', '--tcp=80:8080');
      const s = await json('service', 'web', '-n', 'team1');
      assert.deepEqual(s.spec.ports, [{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 }]);
      // As kube-apiserver's Service registry: a cluster IP from the service range, single-stack IPv4.
      assert.match(s.spec.clusterIP, /^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
      assert.deepEqual(s.spec.clusterIPs, [s.spec.clusterIP]);
      assert.deepEqual(s.spec.ipFamilies, ['IPv4']);
      const table = await k('get', 'service', 'web', '-n', 'team1');
      assert.match(table.stdout, /^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\n/);
      assert.match(table.stdout, /\nweb\s+ClusterIP\s+10\.\S+\s+<none>\s+80\/TCP\s+\S+\n/);
    });

    test('secrets, config maps, service accounts and namespaces, with data kubectl reads back', async () => {
      await created('secret', 'generic', 'creds', '-n', 'team1', '--from-literal=user=admin');
      const secret = await json('secret', 'creds', '-n', 'team1');
      assert.equal(Buffer.from(secret.data.user, 'base64').toString(), 'admin');
      assert.equal(secret.type, 'Opaque');
      await created('configmap', 'settings2', '-n', 'team1', '--from-literal=mode=fast');
      assert.deepEqual((await json('configmap', 'settings2', '-n', 'team1')).data, { mode: 'fast' });
      await created('serviceaccount', 'robot', '-n', 'team1');
      await created('namespace', 'scratch2');
      assert.equal((await json('namespace', 'scratch2')).metadata.name, 'scratch2');
    });

    test('an ingress keeps its rules, whose HTTP paths Go inlines in JSON', async () => {
      await created('ingress', 'site', '-n', 'team1', '--class=nginx', '--rule=example.com/=web:80');
      const ing = await json('ingress', 'site', '-n', 'team1');
      assert.deepEqual(ing.spec.rules, [
        {
          host: 'example.com',
          http: {
            paths: [{ backend: { service: { name: 'web', port: { number: 80 } } }, path: '/', pathType: 'Exact' }],
          },
        },
      ]);
    });
  },
);
