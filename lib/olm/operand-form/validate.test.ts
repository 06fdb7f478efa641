// Checks before submit, in the API server's words, and a 422's causes read back onto fields. The
// Status below has the shape kube-apiserver returns for a CR that fails its CRD's schema
// (apimachinery's StatusError: reason Invalid, details.causes[].field/message/reason).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildFormModel } from './schema';
import { issuesAt, issuesFromStatus, uncheckedPattern, validateObject } from './validate';
import { fromYaml, getAt, initialObject, removeItem, setAt, toYaml } from './values';

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['size'],
      properties: {
        size: { type: 'integer', minimum: 1, maximum: 9 },
        mode: { type: 'string', enum: ['Managed', 'Removed'] },
        name: { type: 'string', pattern: '^[a-z]+$', maxLength: 5 },
        port: { 'x-kubernetes-int-or-string': true },
        devices: {
          type: 'array',
          maxItems: 2,
          items: {
            type: 'object',
            required: ['storageClassName'],
            properties: { storageClassName: { type: 'string' } },
          },
        },
      },
    },
  },
};

describe('validateObject', () => {
  const model = buildFormModel(schema);
  const obj = (spec: unknown, name = 'ok') => ({ apiVersion: 'x.example.com/v1', kind: 'X', metadata: { name }, spec });

  test('a valid object has no issue', () => {
    assert.deepEqual(
      validateObject(
        model,
        obj({ size: 3, mode: 'Managed', name: 'abc', port: 'http', devices: [{ storageClassName: 'local' }] }),
      ),
      [],
    );
  });

  test('each rule of the schema, at its field', () => {
    const issues = validateObject(
      model,
      obj(
        {
          size: 10,
          mode: 'Other',
          name: 'ABCDEFG',
          port: true,
          devices: [{}, { storageClassName: 'a' }, { storageClassName: 'b' }],
        },
        'Bad_Name',
      ),
    );
    assert.deepEqual(
      issues.map((i) => i.field),
      [
        'metadata.name',
        'spec.size',
        'spec.mode',
        'spec.name',
        'spec.name',
        'spec.port',
        'spec.devices',
        'spec.devices[0].storageClassName',
      ],
    );
    assert.match(issues[1]!.message, /should be less than or equal to 9/);
    assert.match(issues[2]!.message, /Unsupported value: "Other": supported values: "Managed", "Removed"/);
    assert.equal(issuesAt(issues, ['spec', 'devices', 0, 'storageClassName'])[0]?.message, 'Required value');
  });

  test('required only when the parent is there, and types', () => {
    assert.deepEqual(validateObject(model, obj(undefined)), []);
    assert.deepEqual(
      validateObject(model, obj({})).map((i) => `${i.field}: ${i.message}`),
      ['spec.size: Required value'],
    );
    assert.deepEqual(
      validateObject(model, obj({ size: '3' })).map((i) => i.field),
      ['spec.size'],
    );
  });
});

describe('patterns, as the API server reads them (RE2)', () => {
  const withPattern = (pattern: string) => {
    const spec = { type: 'object', properties: { id: { type: 'string', pattern } } };
    return buildFormModel({ type: 'object', properties: { spec } });
  };
  const issues = (pattern: string, id: string) => {
    const found = validateObject(withPattern(pattern), { metadata: { name: 'x' }, spec: { id } });
    return found.map((i) => `${i.field}: ${i.message}`);
  };

  test('a catastrophic pattern gives its answer at once instead of freezing the tab', () => {
    const value = `${'a'.repeat(40)}!`;
    assert.deepEqual(issues('^(a+)+$', value), [`spec.id: Invalid value: "${value}": should match '^(a+)+$'`]);
    assert.deepEqual(issues('^(a+)+$', 'a'.repeat(40)), []);
  });

  test('a pattern RE2 refuses does not block the person, and the form says the API server decides', () => {
    assert.deepEqual(issues('(?=a)', 'b'), []);
    const field = withPattern('(?=a)').spec.fields[0]!;
    assert.equal(
      uncheckedPattern(field),
      'Its pattern (?=a) cannot be checked in the browser (error parsing regexp: ' +
        'invalid or unsupported Perl syntax: `(?=`): the API server decides when you create it.',
    );
    assert.equal(uncheckedPattern(withPattern('^[a-z]+$').spec.fields[0]!), undefined);
  });

  test('ordinary patterns behave as before: DNS-1123 anchored, a bare word found anywhere', () => {
    const dns = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
    assert.deepEqual(issues(dns, 'my-db-1'), []);
    assert.deepEqual(issues(dns, 'My_DB'), [`spec.id: Invalid value: "My_DB": should match '${dns}'`]);
    assert.deepEqual(issues('abc', 'xxabcxx'), []);
    assert.equal(issues('abc', 'ab').length, 1);
  });
});

describe('an open schema: fields from descriptors that name no widget', () => {
  // As netobserv-operator's FlowCollector descriptors over a CRD given only by image (okderators):
  // `agent.ebpf.sampling` and `agent.ebpf.excludeInterfaces` name no x-descriptor, and the
  // operator's example sets them to 50 and ["lo"].
  const open = buildFormModel(
    { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
    [
      { path: 'agent.ebpf.sampling', displayName: 'Sampling' },
      { path: 'agent.ebpf.excludeInterfaces', displayName: 'Exclude interfaces' },
      {
        path: 'agent.ebpf.privileged',
        displayName: 'Privileged mode',
        'x-descriptors': ['urn:alm:descriptor:com.tectonic.ui:booleanSwitch'],
      },
    ],
  );
  test("take the example's values whatever their type", () => {
    assert.deepEqual(
      validateObject(open, {
        metadata: { name: 'cluster' },
        spec: { agent: { ebpf: { sampling: 50, excludeInterfaces: ['lo'], privileged: false } } },
      }),
      [],
    );
  });
  test('a widget still says the type', () => {
    assert.deepEqual(
      validateObject(open, { metadata: { name: 'cluster' }, spec: { agent: { ebpf: { privileged: 'yes' } } } }).map(
        (i) => i.field,
      ),
      ['spec.agent.ebpf.privileged'],
    );
  });
});

describe('issuesFromStatus', () => {
  test('the causes of a 422 become field issues', () => {
    const details = {
      name: 'a',
      group: 'x.example.com',
      kind: 'X',
      causes: [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: 10: spec.size in body should be less than or equal to 9',
          field: 'spec.size',
        },
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.devices[0].storageClassName' },
        { reason: 'FieldValueInvalid', message: 'whole object' },
      ],
    };
    const issues = issuesFromStatus(details);
    assert.deepEqual(
      issues.map((i) => i.field),
      ['spec.size', 'spec.devices[0].storageClassName', ''],
    );
    assert.equal(issuesAt(issues, ['spec', 'size']).length, 1);
    assert.deepEqual(issuesFromStatus(undefined), []);
  });
});

describe('values', () => {
  test('set and clear a nested field; clearing removes emptied parents', () => {
    let o: Record<string, unknown> = { spec: {} };
    o = setAt(o, ['spec', 'devices', 0, 'storageClassName'], 'local');
    assert.deepEqual(o, { spec: { devices: [{ storageClassName: 'local' }] } });
    o = setAt(o, ['spec', 'a', 'b'], 1);
    o = setAt(o, ['spec', 'a', 'b'], undefined);
    assert.deepEqual(o, { spec: { devices: [{ storageClassName: 'local' }] } });
    o = removeItem(o, ['spec', 'devices', 0]);
    assert.deepEqual(o, {});
  });

  test('YAML both ways; what is not one object is refused', () => {
    const o = { apiVersion: 'v1', spec: { a: [1, 'b'] } };
    assert.deepEqual(fromYaml(toYaml(o)), { object: o });
    assert.ok('error' in fromYaml('- a\n- b'));
    assert.ok('error' in fromYaml('a: [1'));
    assert.equal(getAt(o, ['spec', 'a', 1]), 'b');
  });

  test('the starting object: the CSV example, in the chosen namespace', () => {
    const example = {
      apiVersion: 'x/v1',
      kind: 'X',
      metadata: { name: 'sample', namespace: 'elsewhere', labels: { a: 'b' } },
      spec: { size: 1 },
    };
    assert.deepEqual(initialObject({ group: 'x.example.com', version: 'v1', kind: 'X' }, 'team1', example), {
      apiVersion: 'x.example.com/v1',
      kind: 'X',
      metadata: { name: 'sample', labels: { a: 'b' }, namespace: 'team1' },
      spec: { size: 1 },
    });
    assert.deepEqual(initialObject({ group: 'x.example.com', version: 'v1', kind: 'X' }, 'team1'), {
      apiVersion: 'x.example.com/v1',
      kind: 'X',
      metadata: { name: 'example-x', namespace: 'team1' },
      spec: {},
    });
  });

  test('the starting object of a cluster-scoped API has no namespace, even when the example gives one', () => {
    const example = { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'sample', namespace: 'elsewhere' }, spec: {} };
    assert.deepEqual(initialObject({ group: 'x.example.com', version: 'v1', kind: 'X' }, undefined, example).metadata, {
      name: 'sample',
    });
  });
});
