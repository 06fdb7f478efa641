// The field model from a CRD schema and spec descriptors. The schemas below are cut from
// local-storage-operator's LocalVolume CRD (okderators catalog) and written the way
// apiextensions.k8s.io/v1 structural schemas are; descriptor forms are operator-framework's.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildFormModel, humanize, walkFields } from './schema';
import type { Field } from './types';

const localVolume = {
  type: 'object',
  required: ['spec'],
  properties: {
    apiVersion: { type: 'string' },
    spec: {
      type: 'object',
      properties: {
        logLevel: { type: 'string', enum: ['', 'Normal', 'Debug', 'Trace', 'TraceAll'] },
        managementState: { type: 'string', pattern: '^(Managed|Unmanaged|Force|Removed)$' },
        storageClassDevices: {
          type: 'array',
          items: {
            type: 'object',
            required: ['storageClassName'],
            properties: {
              devicePaths: { type: 'array', items: { type: 'string' } },
              forceWipeDevicesAndDestroyAllData: { type: 'boolean' },
              storageClassName: { type: 'string' },
            },
          },
        },
        tolerations: {
          type: 'array',
          items: { type: 'object', properties: { tolerationSeconds: { type: 'integer', format: 'int64' } } },
        },
        resources: {
          type: 'object',
          properties: {
            limits: {
              type: 'object',
              additionalProperties: {
                'x-kubernetes-int-or-string': true,
                anyOf: [{ type: 'integer' }, { type: 'string' }],
              },
            },
          },
        },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        replicas: { type: 'integer', minimum: 1, maximum: 5, default: 1 },
      },
    },
    status: { type: 'object' },
  },
};

function find(fields: readonly Field[], path: string): Field | undefined {
  return [...walkFields(fields)].find((w) => w.path === path)?.field;
}

describe('buildFormModel', () => {
  test('types, enums, patterns, bounds, defaults and required come from the schema', () => {
    const m = buildFormModel(localVolume);
    assert.equal(m.specRequired, true);
    assert.deepEqual(find(m.spec.fields, 'logLevel'), {
      key: 'logLevel',
      label: 'Log level',
      required: false,
      advanced: false,
      described: false,
      type: 'string',
      widget: 'select',
      enum: ['', 'Normal', 'Debug', 'Trace', 'TraceAll'],
    });
    assert.equal(
      (find(m.spec.fields, 'managementState') as { pattern?: string }).pattern,
      '^(Managed|Unmanaged|Force|Removed)$',
    );
    assert.deepEqual(find(m.spec.fields, 'replicas'), {
      key: 'replicas',
      label: 'Replicas',
      required: false,
      advanced: false,
      described: false,
      type: 'integer',
      default: 1,
      minimum: 1,
      maximum: 5,
    });
    const devices = find(m.spec.fields, 'storageClassDevices');
    assert.equal(devices?.type, 'array');
    assert.equal(find(m.spec.fields, 'storageClassDevices[*].storageClassName')?.required, true);
    assert.equal(find(m.spec.fields, 'storageClassDevices[*].devicePaths[*]')?.type, 'string');
    assert.equal(find(m.spec.fields, 'storageClassDevices[*].forceWipeDevicesAndDestroyAllData')?.type, 'boolean');
    // Quantities: a map of int-or-string, not something only YAML can edit.
    const limits = find(m.spec.fields, 'resources.limits');
    assert.equal(limits?.type, 'map');
    assert.equal(find(m.spec.fields, 'resources.limits.*')?.type, 'string');
    // A free-form object no descriptor names is left to YAML, and says so.
    assert.deepEqual(find(m.spec.fields, 'extra'), {
      key: 'extra',
      label: 'Extra',
      required: false,
      advanced: false,
      described: false,
      type: 'raw',
      reason: 'free-form object',
    });
    // Only the spec is a form: status is the operator's.
    assert.equal(find(m.spec.fields, 'status'), undefined);
  });

  test('descriptors label, order, hide, mark advanced and pick widgets', () => {
    const m = buildFormModel(localVolume, [
      {
        path: 'storageClassDevices[0].storageClassName',
        displayName: 'Storage class',
        description: 'Made by the operator.',
      },
      { path: 'replicas', displayName: 'Replicas', 'x-descriptors': ['urn:alm:descriptor:com.tectonic.ui:podCount'] },
      { path: 'logLevel', 'x-descriptors': ['urn:alm:descriptor:com.tectonic.ui:advanced'] },
      { path: 'tolerations', 'x-descriptors': ['urn:alm:descriptor:com.tectonic.ui:hidden'] },
      { path: 'nowhere', displayName: 'Not in the schema' },
    ]);
    assert.deepEqual(
      m.spec.fields.map((f) => f.key),
      ['storageClassDevices', 'replicas', 'logLevel', 'managementState', 'resources', 'extra'],
    );
    const sc = find(m.spec.fields, 'storageClassDevices[*].storageClassName');
    assert.deepEqual([sc?.label, sc?.description, sc?.described], ['Storage class', 'Made by the operator.', true]);
    assert.equal(find(m.spec.fields, 'logLevel')?.advanced, true);
    assert.equal(find(m.spec.fields, 'tolerations'), undefined);
    assert.deepEqual(m.unmatchedDescriptors, ['nowhere']);
  });

  test('a spec the schema leaves open gets the fields its descriptors name', () => {
    // The form of a CRD whose bundle carries no schema (OLM's own from image-only bundles).
    const open = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    const m = buildFormModel(open, [
      { path: 'instances', displayName: 'Instances', 'x-descriptors': ['urn:alm:descriptor:com.tectonic.ui:podCount'] },
      {
        path: 'version',
        'x-descriptors': [
          'urn:alm:descriptor:com.tectonic.ui:select:15',
          'urn:alm:descriptor:com.tectonic.ui:select:16',
        ],
      },
      {
        path: 'backups.enabled',
        displayName: 'Backups',
        'x-descriptors': ['urn:alm:descriptor:com.tectonic.ui:booleanSwitch'],
      },
      { path: 'resources', 'x-descriptors': ['urn:alm:descriptor:com.tectonic.ui:resourceRequirements'] },
      { path: 'credentials', 'x-descriptors': ['urn:alm:descriptor:io.kubernetes:Secret'] },
      { path: 'members[0].name', displayName: 'A list item below an open object' },
    ]);
    assert.equal(m.freeForm, undefined);
    assert.deepEqual(
      m.spec.fields.map((f) => [f.key, f.type]),
      [
        ['instances', 'integer'],
        ['version', 'string'],
        ['backups', 'object'],
        ['resources', 'object'],
        ['credentials', 'string'],
      ],
    );
    assert.deepEqual(find(m.spec.fields, 'version'), {
      key: 'version',
      label: 'Version',
      required: false,
      advanced: false,
      described: true,
      type: 'string',
      widget: 'select',
      enum: ['15', '16'],
    });
    assert.equal((find(m.spec.fields, 'instances') as { minimum?: number }).minimum, 0);
    assert.equal((find(m.spec.fields, 'backups.enabled') as { widget?: string }).widget, 'switch');
    assert.equal((find(m.spec.fields, 'resources') as { resources?: boolean }).resources, true);
    assert.equal((find(m.spec.fields, 'credentials') as { widget?: string }).widget, 'secret');
    assert.deepEqual(m.unmatchedDescriptors, ['members[*].name']);
    assert.equal(buildFormModel(open).freeForm, 'free-form object');
  });

  test("a field naming a StorageClass or PriorityClass gets a picker of the cluster's names", () => {
    // cloudnative-pg's and cloud-native-postgresql's Cluster descriptors, over a typed and an open schema.
    const descriptors = [
      {
        path: 'storage.storageClass',
        displayName: 'Storage Class',
        'x-descriptors': ['urn:alm:descriptor:io.kubernetes:StorageClass'],
      },
      {
        path: 'priorityClassName',
        displayName: 'Priority Class Name',
        'x-descriptors': [
          'urn:alm:descriptor:io.kubernetes:PriorityClass',
          'urn:alm:descriptor:com.tectonic.ui:advanced',
        ],
      },
    ];
    const typed = buildFormModel(
      {
        type: 'object',
        properties: {
          spec: {
            type: 'object',
            properties: {
              priorityClassName: { type: 'string' },
              storage: { type: 'object', properties: { storageClass: { type: 'string' }, size: { type: 'string' } } },
            },
          },
        },
      },
      descriptors,
    );
    const open = buildFormModel({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, descriptors);
    for (const m of [typed, open]) {
      assert.deepEqual(
        [
          (find(m.spec.fields, 'storage.storageClass') as { widget?: string }).widget,
          (find(m.spec.fields, 'priorityClassName') as { widget?: string }).widget,
        ],
        ['storageclass', 'priorityclass'],
      );
      assert.equal(find(m.spec.fields, 'priorityClassName')?.advanced, true);
    }
  });

  test('labels for fields no descriptor names', () => {
    assert.equal(humanize('storageClassDevices'), 'Storage class devices');
    assert.equal(humanize('enableTLS'), 'Enable TLS');
    assert.equal(humanize('s3Bucket'), 'S3 bucket');
  });
});
