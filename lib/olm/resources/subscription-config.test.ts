// The merge rules of a Subscription's config into an operator's Deployment, as OLM documents them
// (doc/design/subscription-config.md: env "values defined here will overwrite existing environment
// variables of the same name", resources and nodeSelector replace, tolerations are added) and as
// its deployment initializer applies them (overrides/inject/inject.go, v0.38.0). The conformance
// check `olm/Subscription config written into the operator's Deployment` holds the sandbox to
// real OLM with the same rules.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  configureDeployment,
  injectedEnv,
  operatorDeployment,
  proxyOverridden,
  type DeploymentSpec,
} from './subscription-config';

const bundle = (): DeploymentSpec => ({
  replicas: 1,
  template: {
    metadata: { labels: { app: 'x' }, annotations: { 'kept.example.com/a': 'bundle' } },
    spec: {
      containers: [
        {
          name: 'manager',
          image: 'm',
          env: [
            { name: 'LOG_LEVEL', value: 'info' },
            { name: 'WATCH', value: 'all' },
          ],
          resources: { requests: { cpu: '10m' } },
          volumeMounts: [{ name: 'certs', mountPath: '/certs' }],
        },
        { name: 'proxy', image: 'p' },
      ],
      initContainers: [{ name: 'init', image: 'i', env: [{ name: 'LOG_LEVEL', value: 'info' }] }],
      volumes: [{ name: 'certs', secret: { secretName: 'bundle-certs' } }],
      tolerations: [{ key: 'a', operator: 'Exists' }],
      nodeSelector: { 'kubernetes.io/os': 'linux' },
    },
  },
});

const pod = (s: DeploymentSpec) => s.template!.spec!;

describe('configureDeployment', () => {
  test('no config leaves the bundle as it is', () => {
    const out = configureDeployment(bundle(), { a: '1' }, undefined);
    assert.deepEqual(out.spec, bundle());
    assert.deepEqual(out.annotations, { a: '1' });
  });

  test('env: a name the container has is replaced in place, new names go last in the order given, in every container but not init containers', () => {
    const out = configureDeployment(
      bundle(),
      {},
      {
        env: [
          { name: 'NEW', value: '1' },
          { name: 'LOG_LEVEL', value: 'debug' },
        ],
      },
    );
    assert.deepEqual(pod(out.spec).containers![0]!.env, [
      { name: 'LOG_LEVEL', value: 'debug' },
      { name: 'WATCH', value: 'all' },
      { name: 'NEW', value: '1' },
    ]);
    assert.deepEqual(pod(out.spec).containers![1]!.env, [
      { name: 'NEW', value: '1' },
      { name: 'LOG_LEVEL', value: 'debug' },
    ]);
    assert.deepEqual(pod(out.spec).initContainers![0]!.env, [{ name: 'LOG_LEVEL', value: 'info' }]);
  });

  test("resources replace every container's; nodeSelector replaces the pod's", () => {
    const out = configureDeployment(
      bundle(),
      {},
      { resources: { limits: { memory: '256Mi' } }, nodeSelector: { 'node-role.kubernetes.io/infra': '' } },
    );
    for (const c of pod(out.spec).containers!) assert.deepEqual(c.resources, { limits: { memory: '256Mi' } });
    assert.deepEqual(pod(out.spec).nodeSelector, { 'node-role.kubernetes.io/infra': '' });
  });

  test('tolerations are added unless the same one is there', () => {
    const out = configureDeployment(
      bundle(),
      {},
      {
        tolerations: [
          { key: 'a', operator: 'Exists' },
          { key: 'infra', operator: 'Equal', value: 'reserved', effect: 'NoSchedule' },
        ],
      },
    );
    assert.deepEqual(pod(out.spec).tolerations, [
      { key: 'a', operator: 'Exists' },
      { key: 'infra', operator: 'Equal', value: 'reserved', effect: 'NoSchedule' },
    ]);
  });

  test('volumes and mounts replace those of the same name and add the others', () => {
    const out = configureDeployment(
      bundle(),
      {},
      {
        volumes: [
          { name: 'certs', configMap: { name: 'mine' } },
          { name: 'trusted-ca', configMap: { name: 'ca' } },
        ],
        volumeMounts: [{ name: 'trusted-ca', mountPath: '/etc/pki/ca-trust/extracted/pem', readOnly: true }],
      },
    );
    assert.deepEqual(pod(out.spec).volumes, [
      { name: 'certs', configMap: { name: 'mine' } },
      { name: 'trusted-ca', configMap: { name: 'ca' } },
    ]);
    assert.deepEqual(pod(out.spec).containers![0]!.volumeMounts, [
      { name: 'certs', mountPath: '/certs' },
      { name: 'trusted-ca', mountPath: '/etc/pki/ca-trust/extracted/pem', readOnly: true },
    ]);
    assert.deepEqual(pod(out.spec).containers![1]!.volumeMounts, [
      { name: 'trusted-ca', mountPath: '/etc/pki/ca-trust/extracted/pem', readOnly: true },
    ]);
  });

  test('envFrom sources are added once', () => {
    const once = configureDeployment(bundle(), {}, { envFrom: [{ secretRef: { name: 'license' } }] });
    const twice = configureDeployment(once.spec, {}, { envFrom: [{ secretRef: { name: 'license' } }] });
    assert.deepEqual(pod(twice.spec).containers![0]!.envFrom, [{ secretRef: { name: 'license' } }]);
  });

  test('annotations are added to the Deployment and its pods, never over ones they have', () => {
    const out = configureDeployment(
      bundle(),
      { 'kept.example.com/a': 'deployment' },
      { annotations: { 'kept.example.com/a': 'config', 'team.example.com/owner': 'db' } },
    );
    assert.deepEqual(out.annotations, { 'kept.example.com/a': 'deployment', 'team.example.com/owner': 'db' });
    assert.deepEqual(out.spec.template!.metadata!.annotations, {
      'kept.example.com/a': 'bundle',
      'team.example.com/owner': 'db',
    });
  });

  test("affinity: a part given replaces the bundle's, an empty part removes it, an empty affinity removes all", () => {
    const withAffinity: DeploymentSpec = {
      template: { spec: { containers: [], affinity: { nodeAffinity: { a: 1 }, podAffinity: { b: 2 } } } },
    };
    assert.deepEqual(
      pod(configureDeployment(withAffinity, {}, { affinity: { nodeAffinity: { c: 3 } } }).spec).affinity,
      { nodeAffinity: { c: 3 }, podAffinity: { b: 2 } },
    );
    assert.deepEqual(pod(configureDeployment(withAffinity, {}, { affinity: { podAffinity: {} } }).spec).affinity, {
      nodeAffinity: { a: 1 },
    });
    assert.equal(pod(configureDeployment(withAffinity, {}, { affinity: {} }).spec).affinity, undefined);
  });
});

describe('the cluster proxy', () => {
  const proxy = { HTTP_PROXY: 'http://proxy:3128', HTTPS_PROXY: '', NO_PROXY: '.cluster.local' };

  test("its non-empty values are added after the config's env", () => {
    assert.deepEqual(injectedEnv({ env: [{ name: 'A', value: '1' }] }, proxy), [
      { name: 'A', value: '1' },
      { name: 'HTTP_PROXY', value: 'http://proxy:3128' },
      { name: 'NO_PROXY', value: '.cluster.local' },
    ]);
  });

  test('any one proxy variable in the config, even empty, replaces all three', () => {
    assert.equal(proxyOverridden([{ name: 'NO_PROXY', value: '' }]), true);
    assert.deepEqual(injectedEnv({ env: [{ name: 'NO_PROXY', value: '' }] }, proxy), [{ name: 'NO_PROXY', value: '' }]);
    assert.equal(proxyOverridden([{ name: 'http_proxy', value: 'x' }]), false);
  });
});

test("operatorDeployment: the CSV's annotations on the pods, the config, then OPERATOR_CONDITION_NAME last, one old ReplicaSet kept (install/deployment.go deploymentForSpec)", () => {
  const out = operatorDeployment(
    bundle(),
    { name: 'x.v1.0.0', annotations: { 'olm.operatorGroup': 'og', 'kept.example.com/a': 'csv' } },
    { env: [{ name: 'NEW', value: '1' }] },
  );
  assert.deepEqual(pod(out.spec).containers![1]!.env, [
    { name: 'NEW', value: '1' },
    { name: 'OPERATOR_CONDITION_NAME', value: 'x.v1.0.0' },
  ]);
  assert.deepEqual(out.spec.template!.metadata!.annotations, {
    'kept.example.com/a': 'csv',
    'olm.operatorGroup': 'og',
  });
  assert.equal(out.spec.revisionHistoryLimit, 1);
});
