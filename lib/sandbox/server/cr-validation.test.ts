// Custom resources against their CRD schema, as kube-apiserver answers: the message and causes
// below follow apimachinery's field.Error forms ("Required value", "Unsupported value: … supported
// values: …", "Invalid value: …: <path> in body should match '…'") and the StatusError that lists
// several errors in brackets.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validateCustomResource } from './cr-validation';
import { ApiStatusError } from './http-util';
import { resourceFromCrd } from './resources';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'localvolumes.local.storage.openshift.io' },
  spec: {
    group: 'local.storage.openshift.io', scope: 'Namespaced', names: { plural: 'localvolumes', kind: 'LocalVolume' },
    versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: { type: 'object', properties: {
      spec: { type: 'object', properties: {
        logLevel: { type: 'string', enum: ['', 'Normal', 'Debug'] },
        managementState: { type: 'string', pattern: '^(Managed|Unmanaged|Force|Removed)$' },
        storageClassDevices: { type: 'array', items: { type: 'object', required: ['storageClassName'], properties: { storageClassName: { type: 'string' }, devicePaths: { type: 'array', items: { type: 'string' } } } } },
        tolerationSeconds: { type: 'integer', minimum: 0 },
      } },
      status: { type: 'object', properties: { phase: { type: 'integer' } } },
    } } } }],
  },
};

const r = resourceFromCrd(crd as never)!;
const errorOf = (o: Record<string, unknown>) => {
  try {
    validateCustomResource(r, 'v1', { metadata: { name: 'disks' }, ...o });
    return undefined;
  } catch (err) {
    assert.ok(err instanceof ApiStatusError);
    return err;
  }
};

describe('validateCustomResource', () => {
  test('a valid object passes; status is not looked at on the main resource', () => {
    assert.equal(errorOf({ spec: { logLevel: 'Debug', managementState: 'Managed', storageClassDevices: [{ storageClassName: 'local', devicePaths: ['/dev/vdb'] }] }, status: { phase: 'x' } }), undefined);
  });

  test('each broken rule is a cause with its field; the message lists them', () => {
    const err = errorOf({ spec: { logLevel: 'Loud', managementState: 'Sometimes', storageClassDevices: [{ devicePaths: [1] }], tolerationSeconds: -1 } })!;
    assert.equal(err.code, 422);
    assert.equal(err.reason, 'Invalid');
    const causes = (err.details as { causes: { reason: string; field: string; message: string }[] }).causes;
    assert.deepEqual(causes.map((c) => [c.reason, c.field]), [
      ['FieldValueNotSupported', 'spec.logLevel'],
      ['FieldValueInvalid', 'spec.managementState'],
      ['FieldValueRequired', 'spec.storageClassDevices[0].storageClassName'],
      ['FieldValueInvalid', 'spec.storageClassDevices[0].devicePaths[0]'],
      ['FieldValueInvalid', 'spec.tolerationSeconds'],
    ]);
    assert.equal(causes[0]!.message, 'Unsupported value: "Loud": supported values: "", "Normal", "Debug"');
    assert.equal(causes[1]!.message, 'Invalid value: "Sometimes": spec.managementState in body should match \'^(Managed|Unmanaged|Force|Removed)$\'');
    assert.equal(causes[3]!.message, 'Invalid value: "integer": spec.storageClassDevices[0].devicePaths[0] in body must be of type string: "integer"');
    assert.match(err.message, /^LocalVolume\.local\.storage\.openshift\.io "disks" is invalid: \[spec\.logLevel: Unsupported value/);
  });

  test('a CRD that leaves everything open accepts anything', () => {
    const open = resourceFromCrd({ ...crd, spec: { ...crd.spec, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] } } as never)!;
    validateCustomResource(open, 'v1', { metadata: { name: 'x' }, spec: { anything: [1, 'a'] } });
  });
});
