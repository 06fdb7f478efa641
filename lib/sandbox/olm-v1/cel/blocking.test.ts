// A custom resource whose value breaks its CRD's schema in a way that blocks the CEL rules, as a
// client reads the refusal. Expectations from apiextensions-apiserver v0.34.4 (the release
// scripts/cluster.ts pins), pkg/registry/customresource/strategy.go: after a not-supported,
// required, too-long, too-many or type error, Validate and ValidateUpdate skip the rules and add
// field.Invalid(nil, nil, "some validation rules were not checked …"); a CRD without rules has no
// CEL validator, so no such cause. The ClusterExtension case is what real kube-apiserver answered
// in conformance (docs/olm-v1/real-cluster.md).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeClient } from '../../../k8s/client';
import { isKubeError, type KubeError } from '../../../k8s/errors';
import type { ResourceType } from '../../../olm/resources/common';
import { clientAs, waitFor } from '../../../server/testing/cluster';
import { withSandbox } from '../../testing/sandbox-fixture';

const NOT_CHECKED = {
  reason: 'FieldValueInvalid',
  field: '<nil>',
  message:
    'Invalid value: null: some validation rules were not checked because the object was invalid; ' +
    'correct the existing errors to complete validation',
};
const CRDS: ResourceType = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  namespaced: false,
  kind: 'CustomResourceDefinition',
};
const IN_DEFAULT = { namespace: 'default' };

/** example.com/v1 `kind`: spec.mode (enum), spec.name (≤ 5 bytes), spec.count (≥ 1), maybe a rule. */
function crd(plural: string, kind: string, withRule: boolean) {
  const spec = {
    type: 'object',
    properties: {
      mode: { type: 'string', enum: ['A', 'B'] },
      name: { type: 'string', maxLength: 5 },
      count: { type: 'integer', minimum: 1 },
    },
    ...(withRule ? { 'x-kubernetes-validations': [{ rule: "self.mode == 'A'", message: 'mode must be A' }] } : {}),
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.example.com` },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec } } },
        },
      ],
    },
  };
}

const kindOf = (plural: string, kind: string): ResourceType => ({
  group: 'example.com',
  version: 'v1',
  plural,
  namespaced: true,
  kind,
});

function refusal(err: unknown): { message: string; causes: unknown } {
  assert.ok(isKubeError(err, 422), `expected a 422, got ${err instanceof Error ? err.message : 'an answer'}`);
  const details = (err as KubeError).details as { causes?: unknown } | undefined;
  return { message: (err as KubeError).message, causes: details?.causes };
}

describe('schema errors that block CRD rules', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let kube: KubeClient;
  const gadgets = kindOf('gadgets', 'Gadget');
  const plains = kindOf('plains', 'Plain');
  const create = (t: ResourceType, name: string, spec: Record<string, unknown>) =>
    kube
      .create(
        t,
        { apiVersion: 'example.com/v1', kind: t.kind, metadata: { name, namespace: 'default' }, spec },
        IN_DEFAULT,
      )
      .catch((e: unknown) => e);

  before(async () => {
    sb = await withSandbox({ demo: false });
    kube = clientAs(sb, 'admin');
    await kube.create(CRDS, crd('gadgets', 'Gadget', true));
    await kube.create(CRDS, crd('plains', 'Plain', false));
    for (const t of [gadgets, plains])
      await waitFor(`${t.plural} served`, async () =>
        (await kube.listAll(t, IN_DEFAULT)).items.length === 0 ? true : undefined,
      );
  });
  after(() => sb.close());

  test('a value outside the enum skips the rules and says so, the message listing both', async () => {
    const r = refusal(await create(gadgets, 'g1', { mode: 'C' }));
    const unsupported = 'Unsupported value: "C": supported values: "A", "B"';
    assert.deepEqual(r.causes, [
      { reason: 'FieldValueNotSupported', field: 'spec.mode', message: unsupported },
      NOT_CHECKED,
    ]);
    assert.equal(
      r.message,
      `Gadget.example.com "g1" is invalid: [spec.mode: ${unsupported}, <nil>: ${NOT_CHECKED.message}]`,
    );
    assert.ok(isKubeError(await kube.get(gadgets, 'g1', 'default').catch((e: unknown) => e), 404));
  });

  test('too long and wrong type block the rules too', async () => {
    const long = refusal(await create(gadgets, 'g2', { mode: 'B', name: 'abcdefg' }));
    assert.deepEqual(
      (long.causes as { reason: string }[]).map((c) => c.reason),
      ['FieldValueTooLong', 'FieldValueInvalid'],
    );
    assert.deepEqual((long.causes as unknown[])[1], NOT_CHECKED);
    const typed = refusal(await create(gadgets, 'g3', { mode: 'B', count: 'many' }));
    assert.deepEqual((typed.causes as { reason: string }[])[0]!.reason, 'FieldValueTypeInvalid');
    assert.deepEqual((typed.causes as unknown[]).at(-1), NOT_CHECKED);
  });

  test('an invalid value that does not block (a minimum) leaves the rules to run', async () => {
    const r = refusal(await create(gadgets, 'g4', { mode: 'B', count: 0 }));
    assert.deepEqual(r.causes, [
      {
        reason: 'FieldValueInvalid',
        field: 'spec.count',
        message: 'Invalid value: 0: spec.count in body should be greater than or equal to 1',
      },
      { reason: 'FieldValueInvalid', field: 'spec', message: 'Invalid value: "object": mode must be A' },
    ]);
  });

  test('a CRD without rules gives the schema error alone', async () => {
    const r = refusal(await create(plains, 'p1', { mode: 'C' }));
    assert.equal(
      r.message,
      'Plain.example.com "p1" is invalid: spec.mode: Unsupported value: "C": supported values: "A", "B"',
    );
  });

  test('a ClusterExtension with an unknown upgradeConstraintPolicy: both causes, as real kube-apiserver', async () => {
    const ce: ResourceType = {
      group: 'olm.operatorframework.io',
      version: 'v1',
      plural: 'clusterextensions',
      namespaced: false,
      kind: 'ClusterExtension',
    };
    const err = await kube
      .create(ce, {
        apiVersion: 'olm.operatorframework.io/v1',
        kind: 'ClusterExtension',
        metadata: { name: 'e1' },
        spec: {
          namespace: 'default',
          serviceAccount: { name: 'installer' },
          source: { sourceType: 'Catalog', catalog: { packageName: 'x', upgradeConstraintPolicy: 'Whatever' } },
        },
      })
      .catch((e: unknown) => e);
    const field = 'spec.source.catalog.upgradeConstraintPolicy';
    const unsupported = 'Unsupported value: "Whatever": supported values: "CatalogProvided", "SelfCertified"';
    assert.equal(
      refusal(err).message,
      `ClusterExtension.olm.operatorframework.io "e1" is invalid: [${field}: ${unsupported}, <nil>: ${NOT_CHECKED.message}]`,
    );
  });
});
