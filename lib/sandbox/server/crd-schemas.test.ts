// CRD schemas enforced over HTTPS, as kube-apiserver enforces them: the OLM kinds' required
// fields and defaults (the answers conformance/checks/schemas.ts compares with a real server),
// a CRD created later with a schema of its own, and the schema served to `kubectl explain`.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { KubeClient } from '../../k8s/client';
import { isKubeError, type KubeError } from '../../k8s/errors';
import { clientAs, waitFor } from '../../server/testing/cluster';
import { withSandbox } from '../testing/sandbox-fixture';

const SUBS = {
  group: 'operators.coreos.com',
  version: 'v1alpha1',
  plural: 'subscriptions',
  namespaced: true,
  kind: 'Subscription',
};
const OGS = {
  group: 'operators.coreos.com',
  version: 'v1',
  plural: 'operatorgroups',
  namespaced: true,
  kind: 'OperatorGroup',
};
const CRDS = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  namespaced: false,
  kind: 'CustomResourceDefinition',
};
const GADGETS = { group: 'example.com', version: 'v1', plural: 'gadgets', namespaced: true, kind: 'Gadget' };
const kubectlPath = ['/usr/bin/kubectl', '/usr/local/bin/kubectl'].find((p) => existsSync(p));

function refusal(err: unknown): { message: string; causes: unknown } {
  assert.ok(isKubeError(err, 422), `expected a 422, got ${String(err)}`);
  return {
    message: (err as KubeError).message,
    causes: ((err as KubeError).details as { causes?: unknown } | undefined)?.causes,
  };
}

describe('CRD schemas', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let kube: KubeClient;
  before(async () => {
    sb = await withSandbox({ demo: false });
    kube = clientAs(sb, 'admin');
  });
  after(() => sb.close());

  test('a Subscription without the fields the CRD requires is refused, each one a cause', async () => {
    const err = await kube
      .create(
        SUBS,
        {
          apiVersion: 'operators.coreos.com/v1alpha1',
          kind: 'Subscription',
          metadata: { name: 's', namespace: 'default' },
          spec: { sourceNamespace: 'olm' },
        },
        { namespace: 'default' },
      )
      .catch((e: unknown) => e);
    const r = refusal(err);
    assert.match(
      r.message,
      /Subscription\.operators\.coreos\.com "s" is invalid: \[spec\.name: Required value, spec\.source: Required value\]/,
    );
    assert.deepEqual(r.causes, [
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.name' },
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.source' },
    ]);
  });

  test('an OperatorGroup gets upgradeStrategy Default; a value outside the enum is refused, on patch too', async () => {
    const og = await kube.create<{ apiVersion: string; kind: string; metadata: object; spec?: unknown }>(
      OGS,
      { apiVersion: 'operators.coreos.com/v1', kind: 'OperatorGroup', metadata: { name: 'og', namespace: 'default' } },
      { namespace: 'default' },
    );
    assert.deepEqual(og.spec, { upgradeStrategy: 'Default' });
    const err = await kube
      .patch(OGS, 'og', { spec: { upgradeStrategy: 'Sometimes' } }, { namespace: 'default', type: 'merge' })
      .catch((e: unknown) => e);
    assert.deepEqual(refusal(err).causes, [
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "Sometimes": supported values: "Default", "TechPreviewUnsafeFailForward"',
        field: 'spec.upgradeStrategy',
      },
    ]);
  });

  test('a CRD created later is enforced by its own schema, and its unknown fields pruned', async () => {
    await kube.create(CRDS, {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    required: ['size'],
                    properties: {
                      size: { type: 'integer', default: 1 },
                      color: { type: 'string', enum: ['red', 'blue'] },
                    },
                  },
                },
              },
            },
          },
        ],
      },
    });
    await waitFor('served', async () =>
      (await kube.listAll(GADGETS, { namespace: 'default' })).items.length === 0 ? true : undefined,
    );
    const g = await kube.create<{ apiVersion: string; kind: string; metadata: object; spec?: unknown }>(
      GADGETS,
      {
        apiVersion: 'example.com/v1',
        kind: 'Gadget',
        metadata: { name: 'g', namespace: 'default' },
        spec: { color: 'red', shape: 'round' },
      },
      { namespace: 'default' },
    );
    assert.deepEqual(g.spec, { color: 'red', size: 1 });
    const err = await kube
      .create(
        GADGETS,
        {
          apiVersion: 'example.com/v1',
          kind: 'Gadget',
          metadata: { name: 'h', namespace: 'default' },
          spec: { size: 'big' },
        },
        { namespace: 'default' },
      )
      .catch((e: unknown) => e);
    assert.match(
      refusal(err).message,
      /^Gadget\.example\.com "h" is invalid: spec\.size: Invalid value: "string": spec\.size in body must be of type integer: "string"$/,
    );
  });

  test(
    'kubectl explain reads the OLM schemas from OpenAPI v3',
    { skip: kubectlPath ? false : 'kubectl is not installed on this machine' },
    async () => {
      const out = await new Promise<string>((resolve, reject) =>
        execFile(
          kubectlPath!,
          ['--kubeconfig', sb.kubeconfigPath, 'explain', 'subscriptions.spec'],
          { timeout: 30_000 },
          (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout)),
        ),
      );
      assert.match(out, /KIND:\s+Subscription/);
      assert.match(out, /^ {2}name\t<string> -required-$/m);
      assert.match(out, /^ {2}config\t<Object>$/m);
    },
  );
});
