// Bundle rendering as operator-controller v1.2.0's rukpak/convert/registryv1.go Convert does it:
// the install-mode refusal text, refused kinds, permissions promoted to ClusterRoles in
// AllNamespaces mode with generateName's hash. The hash expectation was computed with Go 1.x's
// encoding/json + crypto/sha256 (SHA-224) + math/big Text(36) over rbacv1.PolicyRule's field
// order, which is what rukpak/util/hash.go DeepHashObject runs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { permissionHash, renderBundle } from './render-bundle';

const csv = (installModes: Record<string, boolean>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'ClusterServiceVersion',
  metadata: { name: 'acme.v1.0.0', annotations: { capabilities: 'Basic Install' } },
  spec: {
    installModes: Object.entries(installModes).map(([type, supported]) => ({ type, supported })),
    install: {
      strategy: 'deployment',
      spec: {
        deployments: [
          {
            name: 'acme-controller',
            label: { app: 'acme' },
            spec: {
              template: { metadata: { annotations: { a: 'b' } }, spec: { serviceAccountName: 'acme-operator' } },
            },
          },
        ],
        permissions: [
          {
            serviceAccountName: 'acme-operator',
            rules: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }],
          },
        ],
      },
    },
    ...extra,
  },
});

test('the permission hash is DeepHashObject of the permission', () => {
  assert.equal(
    permissionHash({
      serviceAccountName: 'acme-operator',
      rules: [
        { verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] },
        { verbs: ['*'], nonResourceURLs: ['/metrics<x>'] },
      ],
    }),
    '2l1uyardtu02o4hzoeuf61jug2sdd7wkiwop114dxz71',
  );
});

test('a bundle without AllNamespaces is refused in convert’s words', () => {
  assert.deepEqual(renderBundle(csv({ OwnNamespace: true, SingleNamespace: true, AllNamespaces: false }), [], 'ns'), {
    error: 'supported install modes [OwnNamespace SingleNamespace] do not support targeting all namespaces',
  });
});

test('API services, webhooks and unsupported kinds are refused', () => {
  assert.deepEqual(renderBundle(csv({ AllNamespaces: true }, { webhookdefinitions: [{}] }), [], 'ns'), {
    error: 'webhookDefinitions are not supported',
  });
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } };
  assert.deepEqual(renderBundle(csv({ AllNamespaces: true }), [pod], 'ns'), {
    error: 'bundle contains unsupported resource: Name: p, Kind: Pod',
  });
});

test('AllNamespaces: the deployment, its service account, and permissions as a ClusterRole and binding', () => {
  const r = renderBundle(
    csv({ AllNamespaces: true }),
    [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'elsewhere' } }],
    'acme-system',
  );
  assert.ok('objects' in r);
  const hash = permissionHash({
    serviceAccountName: 'acme-operator',
    rules: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }],
  });
  assert.deepEqual(
    r.objects.map((o) => `${o.kind} ${String(o.metadata.namespace ?? '')}/${String(o.metadata.name)}`),
    [
      'ServiceAccount acme-system/acme-operator',
      // "<csv>-<sa>" is cut so that with "-" and the hash the name is 63 characters.
      `ClusterRole /${'acme.v1.0.0-acme-operator'.slice(0, 62 - hash.length)}-${hash}`,
      `ClusterRoleBinding /${String(r.objects[1]!.metadata.name)}`,
      'ConfigMap acme-system/c',
      'Deployment acme-system/acme-controller',
    ],
  );
  const dep = r.objects[4] as unknown as { spec: { template: { metadata: { annotations: Record<string, string> } } } };
  assert.deepEqual(dep.spec.template.metadata.annotations, {
    capabilities: 'Basic Install',
    a: 'b',
    'olm.targetNamespaces': '',
  });
  const crb = r.objects[2] as unknown as { subjects: unknown };
  assert.deepEqual(crb.subjects, [{ kind: 'ServiceAccount', name: 'acme-operator', namespace: 'acme-system' }]);
});
