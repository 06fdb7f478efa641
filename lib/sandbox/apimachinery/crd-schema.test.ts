// A CRD whose schema holds a pattern Go's regexp refuses is invalid, at kube-apiserver's field
// path and in its words, wherever in the schema the pattern sits; a valid pattern is no error.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { crdSchemaErrors } from './crd-schema';
import { errorBody } from './structural';

const crd = (...schemas: unknown[]) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.example.com' },
  spec: { versions: schemas.map((s, i) => ({ name: `v${i + 1}`, schema: { openAPIV3Schema: s } })) },
});
const lines = (c: unknown) => crdSchemaErrors(c).map((e) => `${e.field}: ${errorBody(e)}`);
const V0 = 'spec.versions[0].schema.openAPIV3Schema';
const V1 = 'spec.versions[1].schema.openAPIV3Schema';
const REFUSED = "must be a valid regular expression, but isn't: error parsing regexp:";
const PERL = `${REFUSED} invalid or unsupported Perl syntax:`;
const LOOKAHEAD = `${PERL} \`(?=\``;
const NO_ARGUMENT = 'missing argument to repetition operator: `+`';
const string = (pattern: string) => ({ type: 'string', pattern });
const object = (properties: Record<string, unknown>, more: object = {}) => ({ type: 'object', properties, ...more });

describe('CRD schema patterns', () => {
  test("a lookahead in a spec field is refused with kube-apiserver's path and wording", () => {
    const s = object({ spec: object({ name: string('(?=a)') }) });
    const want = `${V0}.properties[spec].properties[name].pattern: Invalid value: "(?=a)": ${LOOKAHEAD}`;
    assert.deepEqual(lines(crd(s)), [want]);
  });

  test('patterns under items, additionalProperties, junctors and later versions are found, sorted per version', () => {
    const v1 = object({
      tags: { type: 'array', items: string('(a)\\1') },
      labels: { type: 'object', additionalProperties: string('(?=a)') },
      port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, string('+')] },
    });
    const v2 = object({ spec: { type: 'object', not: { pattern: '(?!b)' } } });
    assert.deepEqual(lines(crd(v1, v2)), [
      `${V0}.properties[labels].additionalProperties.pattern: Invalid value: "(?=a)": ${LOOKAHEAD}`,
      `${V0}.properties[port].anyOf[1].pattern: Invalid value: "+": ${REFUSED} ${NO_ARGUMENT}`,
      `${V0}.properties[tags].items.pattern: Invalid value: "(a)\\\\1": ${REFUSED} invalid escape sequence: \`\\1\``,
      `${V1}.properties[spec].not.pattern: Invalid value: "(?!b)": ${PERL} \`(?!\``,
    ]);
  });

  test('valid patterns (the catastrophic one too), an empty one and a CRD without schemas are no error', () => {
    const s = object({ a: string('^(a+)+$'), b: string(''), c: string('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$') });
    assert.deepEqual(lines(crd(s)), []);
    assert.deepEqual(lines({ spec: { versions: [{ name: 'v1' }] } }), []);
    assert.deepEqual(lines({}), []);
  });
});
