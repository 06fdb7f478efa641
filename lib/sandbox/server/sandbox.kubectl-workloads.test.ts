// The workload and networking kinds people use beside OLM, driven by kubectl as an admin would:
// Deployments roll out through ReplicaSets with revisions (set image, rollout status, history,
// undo), scale through the scale subresource, Jobs complete, StatefulSets and DaemonSets run
// their pods, and `get` prints the columns kube-apiserver's printers do.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { kubectl, kubectlPath } from '../testing/kubectl';
import { withSandbox } from '../testing/sandbox-fixture';

describe('workloads with kubectl', { skip: kubectlPath ? false : 'kubectl is not installed on this machine' }, () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  const k = (...args: string[]) => kubectl(sb.kubeconfigPath, args);
  const ok = async (...args: string[]) => {
    const r = await k(...args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  before(async () => {
    sb = await withSandbox();
  });
  after(() => sb.close());

  test('a deployment rolls out, takes a new image, and rolls back to the old one', async () => {
    await ok('create', 'deployment', 'web', '-n', 'team1', '--image=nginx:1.27', '--replicas=2');
    assert.match(
      await ok('rollout', 'status', 'deploy/web', '-n', 'team1', '--timeout=20s'),
      /successfully rolled out/,
    );
    assert.match(await ok('get', 'deploy', 'web', '-n', 'team1'), /\nweb\s+2\/2\s+2\s+2\s+\S+\n/);
    const pods = await ok('get', 'pods', '-n', 'team1', '-l', 'app=web');
    assert.match(pods, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\n/);
    assert.equal(pods.match(/\nweb-\S+-\S{5}\s+1\/1\s+Running\s+0\s+/g)?.length, 2);
    const described = await ok('describe', 'deploy', 'web', '-n', 'team1');
    assert.match(
      described,
      /Normal\s+ScalingReplicaSet\s+\S+\s+deployment-controller\s+Scaled up replica set web-\S+ from 0 to 2/,
    );

    await ok('set', 'image', 'deploy/web', 'nginx=nginx:1.28', '-n', 'team1');
    await ok('rollout', 'status', 'deploy/web', '-n', 'team1', '--timeout=20s');
    assert.match(await ok('rollout', 'history', 'deploy/web', '-n', 'team1'), /\n1\s+<none>\n2\s+<none>\n/);
    const rs = await ok('get', 'rs', '-n', 'team1', '-o', 'wide');
    assert.match(rs, /\nweb-\S+\s+2\s+2\s+2\s+\S+\s+nginx\s+nginx:1\.28\s+app=web,pod-template-hash=/);
    assert.match(rs, /\nweb-\S+\s+0\s+0\s+0\s+\S+\s+nginx\s+nginx:1\.27\s+/);

    assert.match(await ok('rollout', 'undo', 'deploy/web', '-n', 'team1'), /rolled back/);
    await ok('rollout', 'status', 'deploy/web', '-n', 'team1', '--timeout=20s');
    const image = await ok(
      'get',
      'deploy',
      'web',
      '-n',
      'team1',
      '-o',
      'jsonpath={.spec.template.spec.containers[0].image}',
    );
    assert.equal(image, 'nginx:1.27');
    // The old ReplicaSet comes back as revision 3; no third one is made.
    assert.equal((await ok('get', 'rs', '-n', 'team1', '-o', 'name')).trim().split('\n').length, 2);
    assert.match(await ok('rollout', 'history', 'deploy/web', '-n', 'team1'), /\n2\s+<none>\n3\s+<none>\n/);
  });

  test('scale goes through the scale subresource; deleting with foreground cascade takes everything', async () => {
    await ok('create', 'deployment', 'api', '-n', 'team1', '--image=nginx:1.27');
    assert.match(await ok('scale', 'deploy/api', '--replicas=3', '-n', 'team1'), /deployment\.apps\/api scaled/);
    await ok('rollout', 'status', 'deploy/api', '-n', 'team1', '--timeout=20s');
    assert.match(await ok('get', 'deploy', 'api', '-n', 'team1'), /\napi\s+3\/3\s+3\s+3\s+/);
    assert.equal((await ok('get', 'pods', '-n', 'team1', '-l', 'app=api', '-o', 'name')).trim().split('\n').length, 3);
    await ok('delete', 'deploy', 'api', '-n', 'team1', '--cascade=foreground', '--timeout=20s');
    assert.equal((await ok('get', 'rs,pods', '-n', 'team1', '-l', 'app=api', '-o', 'name')).trim(), '');
  });

  test('jobs complete; a cronjob is listed and a job made from it completes too', async () => {
    await ok('create', 'job', 'once', '-n', 'team1', '--image=busybox', '--', 'echo', 'hi');
    assert.match(
      await ok('wait', '--for=condition=complete', 'job/once', '-n', 'team1', '--timeout=20s'),
      /condition met/,
    );
    assert.match(await ok('get', 'job', 'once', '-n', 'team1'), /\nonce\s+Complete\s+1\/1\s+\S+\s+\S+\n/);
    await ok('create', 'cronjob', 'nightly', '-n', 'team1', '--image=busybox', '--schedule=0 3 * * *', '--', 'true');
    assert.match(await ok('get', 'cj', '-n', 'team1'), /\nnightly\s+0 3 \* \* \*\s+<none>\s+False\s+0\s+<none>\s+/);
    await ok('create', 'job', 'manual', '--from=cronjob/nightly', '-n', 'team1');
    await ok('wait', '--for=condition=complete', 'job/manual', '-n', 'team1', '--timeout=20s');
  });

  test('statefulsets, daemonsets, network policies and ingresses', async () => {
    const apply = (doc: object) => kubectl(sb.kubeconfigPath, ['apply', '-f', '-'], JSON.stringify(doc));
    const template = {
      metadata: { labels: { app: 'db' } },
      spec: { containers: [{ name: 'db', image: 'postgres:17' }] },
    };
    const selector = { matchLabels: { app: 'db' } };
    const meta = (name: string) => ({ name, namespace: 'team1' });
    assert.equal(
      (
        await apply({
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          metadata: meta('db'),
          spec: { replicas: 2, selector, template, serviceName: 'db' },
        })
      ).code,
      0,
    );
    assert.equal(
      (await apply({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: meta('agent'), spec: { selector, template } }))
        .code,
      0,
    );
    await ok('rollout', 'status', 'sts/db', '-n', 'team1', '--timeout=20s');
    assert.match(await ok('get', 'sts', 'db', '-n', 'team1'), /\ndb\s+2\/2\s+/);
    assert.match(await ok('get', 'pods', 'db-0', 'db-1', '-n', 'team1'), /db-1\s+1\/1\s+Running\s+0\s+/);
    assert.match(await ok('get', 'ds', 'agent', '-n', 'team1'), /\nagent\s+1\s+1\s+1\s+1\s+1\s+<none>\s+/);
    await ok('scale', 'sts/db', '--replicas=1', '-n', 'team1');
    await ok('rollout', 'status', 'sts/db', '-n', 'team1', '--timeout=20s');
    assert.match((await k('get', 'pod', 'db-1', '-n', 'team1')).stderr, /not found/);

    await ok('create', 'ingress', 'site', '-n', 'team1', '--class=nginx', '--rule=example.com/=web:80');
    assert.match(await ok('get', 'ing', 'site', '-n', 'team1'), /\nsite\s+nginx\s+example\.com\s+80\s+/);
    assert.equal(
      (
        await apply({
          apiVersion: 'networking.k8s.io/v1',
          kind: 'NetworkPolicy',
          metadata: meta('deny'),
          spec: { podSelector: selector, policyTypes: ['Ingress'] },
        })
      ).code,
      0,
    );
    assert.match(await ok('get', 'netpol', 'deny', '-n', 'team1'), /\ndeny\s+app=db\s+/);
  });

  test('api-resources lists the new kinds with their short names; the scale subresource is discovered', async () => {
    const out = await ok('api-resources');
    for (const re of [
      /\njobs\s+batch\/v1\s+true\s+Job\n/,
      /\ncronjobs\s+cj\s+batch\/v1\s+true\s+CronJob\n/,
      /\nreplicasets\s+rs\s+apps\/v1\s+true\s+ReplicaSet\n/,
      /\nstatefulsets\s+sts\s+apps\/v1\s+true\s+StatefulSet\n/,
      /\ndaemonsets\s+ds\s+apps\/v1\s+true\s+DaemonSet\n/,
      /\nnetworkpolicies\s+netpol\s+networking\.k8s\.io\/v1\s+true\s+NetworkPolicy\n/,
      /\ningresses\s+ing\s+networking\.k8s\.io\/v1\s+true\s+Ingress\n/,
    ])
      assert.match(out, re);
    assert.equal(
      (await k('auth', 'can-i', 'patch', 'deployments', '--subresource=scale', '-n', 'team1')).stdout.trim(),
      'yes',
    );
  });

  test('explain reads the built-in kinds from the schemas kube-apiserver publishes', async () => {
    const replicas = await ok('explain', 'deployment.spec.replicas');
    assert.match(replicas, /KIND:\s+Deployment\n/);
    assert.match(replicas, /FIELD: replicas <integer>/);
    assert.match(replicas, /Number of desired pods\./);
    assert.match(await ok('explain', 'cronjob.spec.schedule'), /The schedule in Cron format/);
    assert.match(await ok('explain', 'ingress.spec.rules'), /FIELD: rules <\[\]IngressRule>/);
  });

  test('--as acts as another user when the caller may impersonate, and is refused otherwise', async () => {
    const can = (...args: string[]) => k('auth', 'can-i', ...args).then((r) => r.stdout.trim().split(/\s/)[0]);
    assert.equal(await can('create', 'deployments', '-n', 'team1'), 'yes');
    assert.equal(await can('create', 'deployments', '-n', 'team1', '--as=bob'), 'no');
    assert.equal(await can('list', 'pods', '-n', 'team1', '--as=bob'), 'yes');
    const refused = await kubectl(sb.kubeconfigs.alice!, ['get', 'pods', '-n', 'team1', '--as=bob']);
    assert.match(
      refused.stderr,
      /users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope/,
    );
  });
});
