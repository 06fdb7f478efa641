import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SubscriptionConfig } from '../resources/subscription-config';
import {
  CA_BUNDLE_VOLUME,
  configFromForm,
  describeConfig,
  emptyForm,
  formFromConfig,
  quantityValue,
  validateForm,
  type ConfigForm,
} from './operator-config-form';

const form = (change: (f: ConfigForm) => void): ConfigForm => {
  const f = emptyForm();
  change(f);
  return f;
};

describe('the config form and a Subscription config', () => {
  test('an empty form gives no config at all', () => {
    assert.equal(configFromForm(emptyForm()), undefined);
  });

  test('what the form sets becomes the config OLM reads', () => {
    const c = configFromForm(
      form((f) => {
        f.nodeSelector = [{ key: 'node-role.kubernetes.io/infra', value: '' }];
        f.tolerations = [
          { key: 'node-role.kubernetes.io/infra', operator: 'Exists', value: '', effect: 'NoSchedule', seconds: '' },
        ];
        f.resources = { requestsCpu: '100m', requestsMemory: '', limitsCpu: '', limitsMemory: '512Mi' };
        f.env = [{ name: 'LOG_LEVEL', value: 'debug' }];
        f.proxy = { set: true, HTTP_PROXY: 'http://proxy:3128', HTTPS_PROXY: '', NO_PROXY: '.svc' };
        f.caBundle = { configMap: 'trusted-ca', key: 'ca-bundle.crt', mountPath: '/etc/pki/ca-trust/extracted/pem' };
      }),
    );
    assert.deepEqual(c, {
      nodeSelector: { 'node-role.kubernetes.io/infra': '' },
      tolerations: [{ key: 'node-role.kubernetes.io/infra', operator: 'Exists', effect: 'NoSchedule' }],
      resources: { requests: { cpu: '100m' }, limits: { memory: '512Mi' } },
      env: [
        { name: 'LOG_LEVEL', value: 'debug' },
        { name: 'HTTP_PROXY', value: 'http://proxy:3128' },
        { name: 'HTTPS_PROXY', value: '' },
        { name: 'NO_PROXY', value: '.svc' },
      ],
      volumes: [
        {
          name: CA_BUNDLE_VOLUME,
          configMap: { name: 'trusted-ca', items: [{ key: 'ca-bundle.crt', path: 'tls-ca-bundle.pem' }] },
        },
      ],
      volumeMounts: [{ name: CA_BUNDLE_VOLUME, mountPath: '/etc/pki/ca-trust/extracted/pem', readOnly: true }],
    });
  });

  test('editing through the form keeps every part it does not show', () => {
    const config: SubscriptionConfig = {
      affinity: { nodeAffinity: { x: 1 } },
      annotations: { a: 'b' },
      envFrom: [{ secretRef: { name: 'license' } }],
      env: [
        { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
        { name: 'A', value: '1' },
      ],
      resources: { limits: { 'nvidia.com/gpu': '1', cpu: '2' } },
      volumes: [{ name: 'data', emptyDir: {} }],
      volumeMounts: [{ name: 'data', mountPath: '/data' }],
      nodeSelector: { zone: 'a' },
    };
    const f = formFromConfig(config);
    assert.deepEqual(f.nodeSelector, [{ key: 'zone', value: 'a' }]);
    assert.equal(f.resources.limitsCpu, '2');
    assert.deepEqual(f.env, [{ name: 'A', value: '1' }]);
    const back = configFromForm(f)!;
    assert.deepEqual(back.affinity, config.affinity);
    assert.deepEqual(back.annotations, config.annotations);
    assert.deepEqual(back.envFrom, config.envFrom);
    assert.deepEqual(back.resources, { limits: { 'nvidia.com/gpu': '1', cpu: '2' } });
    assert.deepEqual(new Set(back.env!.map((e) => e.name)), new Set(['TOKEN', 'A']));
    assert.deepEqual(back.volumes, config.volumes);
    assert.deepEqual(back.volumeMounts, config.volumeMounts);
    assert.deepEqual(back.nodeSelector, config.nodeSelector);
  });

  test('the proxy and the CA bundle are found again in a config the form wrote', () => {
    const f = formFromConfig(
      configFromForm(
        form((x) => {
          x.proxy = { set: true, HTTP_PROXY: '', HTTPS_PROXY: '', NO_PROXY: '*' };
          x.caBundle = { configMap: 'ca', key: '', mountPath: '/certs' };
        }),
      ),
    );
    assert.deepEqual(f.proxy, { set: true, HTTP_PROXY: '', HTTPS_PROXY: '', NO_PROXY: '*' });
    assert.deepEqual(f.caBundle, { configMap: 'ca', key: '', mountPath: '/certs' });
    assert.deepEqual(f.kept, {});
  });
});

describe('validateForm', () => {
  const fields = (f: ConfigForm) => validateForm(f).map((p) => p.field);

  test('a valid form has no problems', () => {
    assert.deepEqual(
      validateForm(
        form((f) => {
          f.nodeSelector = [{ key: 'kubernetes.io/os', value: 'linux' }];
          f.resources = { requestsCpu: '0.5', requestsMemory: '128Mi', limitsCpu: '1', limitsMemory: '1Gi' };
        }),
      ),
      [],
    );
  });

  test('label keys and values as the API server checks them', () => {
    assert.deepEqual(
      fields(
        form(
          (f) =>
            (f.nodeSelector = [
              { key: 'Bad_Prefix/x', value: '' },
              { key: 'ok', value: 'not ok!' },
              { key: 'ok', value: '' },
            ]),
        ),
      ),
      ['nodeSelector.0.key', 'nodeSelector.1.value', 'nodeSelector.2.key'],
    );
  });

  test('tolerations: Exists has no value, no key needs Exists, seconds only with NoExecute', () => {
    assert.deepEqual(
      fields(
        form(
          (f) =>
            (f.tolerations = [
              { key: 'a', operator: 'Exists', value: 'x', effect: '', seconds: '' },
              { key: '', operator: 'Equal', value: 'x', effect: '', seconds: '' },
              { key: 'b', operator: 'Equal', value: 'y', effect: 'NoSchedule', seconds: '30' },
              { key: 'c', operator: 'Equal', value: 'y', effect: 'NoExecute', seconds: '30' },
            ]),
        ),
      ),
      ['tolerations.0.value', 'tolerations.1.key', 'tolerations.2.seconds'],
    );
  });

  test('quantities, and a request above its limit', () => {
    assert.deepEqual(
      fields(
        form((f) => (f.resources = { requestsCpu: '2', requestsMemory: '12 MB', limitsCpu: '500m', limitsMemory: '' })),
      ),
      ['resources.requestsMemory', 'resources.requestsCpu'],
    );
    assert.equal(quantityValue('500m'), 0.5);
    assert.equal(quantityValue('1Gi'), 2 ** 30);
    assert.equal(quantityValue('1e3'), 1000);
  });

  test('env names, duplicates, and proxy variables kept for the proxy fields', () => {
    assert.deepEqual(
      fields(
        form(
          (f) =>
            (f.env = [
              { name: '1ABC', value: '' },
              { name: 'A', value: '' },
              { name: 'A', value: '' },
              { name: 'HTTP_PROXY', value: 'x' },
            ]),
        ),
      ),
      ['env.0.name', 'env.2.name', 'env.3.name'],
    );
  });

  test('proxy URLs and the CA bundle', () => {
    assert.deepEqual(
      fields(
        form((f) => {
          f.proxy = { set: true, HTTP_PROXY: 'proxy:3128', HTTPS_PROXY: 'https://p', NO_PROXY: 'a, b' };
          f.caBundle = { configMap: 'Trusted', key: 'ca bundle', mountPath: 'etc' };
        }),
      ),
      ['proxy.HTTP_PROXY', 'proxy.NO_PROXY', 'caBundle.configMap', 'caBundle.key', 'caBundle.mountPath'],
    );
  });
});

test('describeConfig says what each part does', () => {
  const lines = describeConfig({ nodeSelector: { infra: '' }, env: [{ name: 'NO_PROXY', value: '' }], affinity: {} });
  assert.deepEqual(lines, [
    'runs only on nodes labelled infra',
    'proxy set here (NO_PROXY=""): the cluster\'s proxy is not passed on',
    'also sets affinity',
  ]);
});
