// Pruning, defaulting and validation of custom resources. The expected words are kube-apiserver's
// (apiextensions-apiserver validation.go, kube-openapi's error formats, apimachinery's field
// errors), as the conformance checks in conformance/checks/schemas.ts confirm against a real server.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyDefaults, errorBody, normalize, prune, validate, type Schema } from './structural';

const schema: Schema = {
  type: 'object',
  required: ['spec'],
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      default: { mode: 'Default' },
      required: ['name'],
      properties: {
        name: { type: 'string' },
        mode: { type: 'string', enum: ['Default', 'Other'], default: 'Default' },
        interval: { type: 'string', pattern: '^[0-9]+s$' },
        count: { type: 'integer', minimum: 1 },
        env: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string' }, value: { type: 'string' } },
          },
        },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        free: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'object', properties: { a: { type: 'string' } } } },
        },
        empty: { type: 'object' },
      },
    },
  },
};

describe('structural schemas', () => {
  test('pruning drops what the schema does not name, keeps metadata and what a node preserves', () => {
    const o = {
      apiVersion: 'x/v1',
      kind: 'X',
      metadata: { name: 'a', odd: 1 },
      spec: {
        name: 'n',
        typo: 1,
        labels: { k: 'v' },
        free: { anything: 1, known: { a: 'b', c: 'd' } },
        empty: { x: 1 },
      },
      extra: true,
    };
    prune(o, schema);
    assert.deepEqual(o, {
      apiVersion: 'x/v1',
      kind: 'X',
      metadata: { name: 'a', odd: 1 },
      spec: { name: 'n', labels: { k: 'v' }, free: { anything: 1, known: { a: 'b' } }, empty: {} },
    });
  });

  test('defaults fill absent fields, and a non-nullable null with a default', () => {
    const none: Record<string, unknown> = {};
    applyDefaults(none, schema);
    assert.deepEqual(none, { spec: { mode: 'Default' } });
    const nulled = { spec: { name: 'n', mode: null } };
    normalize(nulled, schema);
    assert.deepEqual(nulled, { spec: { name: 'n', mode: 'Default' } });
  });

  test('a null without a default is dropped rather than refused', () => {
    const o = { spec: { name: 'n', interval: null } };
    normalize(o, schema);
    assert.deepEqual(o, { spec: { name: 'n', mode: 'Default' } });
  });

  test("required, type, enum, pattern and minimum errors, with kube-apiserver's field paths", () => {
    const errs = validate(
      { spec: { mode: 'Sometimes', interval: 'soon', count: 0, env: [{ value: 'v' }], labels: { a: 1 } } },
      schema,
    );
    assert.deepEqual(
      errs.map((e) => `${e.type} ${e.field}: ${errorBody(e)}`),
      [
        'FieldValueNotSupported spec.mode: Unsupported value: "Sometimes": supported values: "Default", "Other"',
        'FieldValueInvalid spec.interval: Invalid value: "soon": spec.interval in body should match \'^[0-9]+s$\'',
        'FieldValueInvalid spec.count: Invalid value: 0: spec.count in body should be greater than or equal to 1',
        'FieldValueRequired spec.env[0].name: Required value',
        'FieldValueTypeInvalid spec.labels.a: Invalid value: "integer": spec.labels.a in body must be of type string: "integer"',
        'FieldValueRequired spec.name: Required value',
      ],
    );
  });

  test('a missing spec is one error at the root', () => {
    const errs = validate({ apiVersion: 'x/v1', kind: 'X', metadata: {} }, schema);
    assert.deepEqual(
      errs.map((e) => `${e.field}: ${errorBody(e)}`),
      ['spec: Required value'],
    );
  });

  test('an integer is a number, and int-or-string takes both', () => {
    const s: Schema = {
      type: 'object',
      properties: {
        n: { type: 'number' },
        q: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
      },
    };
    assert.deepEqual(validate({ n: 3, q: 1 }, s), []);
    assert.deepEqual(validate({ n: 3.5, q: '1Gi' }, s), []);
    assert.equal(validate({ q: true }, s)[0]?.type, 'FieldValueTypeInvalid');
  });

  test('patterns are read as Go reads them: an escaped `_` and a (?P<name>) group are checked', () => {
    const id: Schema = { type: 'string', pattern: '^[a-z0-9\\_-]+$' };
    const s: Schema = { type: 'object', properties: { id, odd: { type: 'string', pattern: '^(?P<x>a)$' } } };
    assert.deepEqual(validate({ id: 'disk_1-a', odd: 'a' }, s), []);
    assert.deepEqual(
      validate({ id: 'disk.1', odd: 'b' }, s).map((e) => e.field),
      ['id', 'odd'],
    );
  });

  test('a catastrophic pattern is refused at once, as a pattern mismatch', () => {
    const s: Schema = { type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } } };
    const value = `${'a'.repeat(40)}!`;
    const errs = validate({ name: value }, s);
    const want = `name: Invalid value: "${value}": name in body should match '^(a+)+$'`;
    assert.deepEqual(
      errs.map((e) => `${e.field}: ${errorBody(e)}`),
      [want],
    );
    assert.deepEqual(validate({ name: 'aaa' }, s), []);
  });

  test("a pattern RE2 refuses fails the write in kube-openapi's words rather than being skipped", () => {
    const s: Schema = { type: 'object', properties: { name: { type: 'string', pattern: '(?=a)' } } };
    assert.deepEqual(
      validate({ name: 'abc' }, s).map((e) => `${e.field}: ${errorBody(e)}`),
      [
        'name: Invalid value: "abc": name in body should match \'(?=a), but pattern is invalid: ' +
          "error parsing regexp: invalid or unsupported Perl syntax: `(?=`'",
      ],
    );
  });
});
