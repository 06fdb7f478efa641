// What kube-apiserver checks of a CustomResourceDefinition's own schemas before it stores the CRD
// (apiextensions-apiserver's structural schema validation, schema/validation.go): here, that each
// `pattern` compiles as Go's regexp, refused in its words. Pure: the API server answers the 422.
import { patternError } from '../../olm/schema/pattern';
import { errorBody, type FieldError } from './structural';

type Json = unknown;
const isObject = (x: Json): x is Record<string, Json> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The schema's bad patterns below `path`, walked where kube's validation walks: properties,
 * additionalProperties, items and the value validations (allOf, anyOf, oneOf, not).
 */
function patternErrors(s: Json, path: string, out: FieldError[]): void {
  if (!isObject(s)) return;
  // Go checks only a non-empty pattern (`len(v.Pattern) > 0`).
  if (typeof s.pattern === 'string' && s.pattern !== '') {
    const err = patternError(s.pattern);
    const detail = `must be a valid regular expression, but isn't: ${err}`;
    const field = `${path}.pattern`;
    if (err) out.push({ type: 'FieldValueInvalid', field, value: s.pattern, hasValue: true, detail });
  }
  if (isObject(s.properties)) {
    for (const [k, v] of Object.entries(s.properties)) patternErrors(v, `${path}.properties[${k}]`, out);
  }
  patternErrors(s.additionalProperties, `${path}.additionalProperties`, out);
  // `items` may be a list of schemas in JSONSchemaPropsOrArray, though a structural schema has one.
  if (Array.isArray(s.items)) s.items.forEach((v, i) => patternErrors(v, `${path}.items[${i}]`, out));
  else patternErrors(s.items, `${path}.items`, out);
  for (const junctor of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[junctor];
    if (Array.isArray(list)) list.forEach((v, i) => patternErrors(v, `${path}.${junctor}[${i}]`, out));
  }
  patternErrors(s.not, `${path}.not`, out);
}

/**
 * The field errors of a CRD's version schemas, per version in the CRD's order; within a version
 * sorted by their text, as ValidateStructural sorts them (it walks Go maps, in no fixed order).
 */
export function crdSchemaErrors(crd: Json): FieldError[] {
  const spec = isObject(crd) && isObject(crd.spec) ? crd.spec : {};
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  return versions.flatMap((v: Json, i) => {
    const schema = isObject(v) && isObject(v.schema) ? v.schema.openAPIV3Schema : undefined;
    const errs: FieldError[] = [];
    patternErrors(schema, `spec.versions[${i}].schema.openAPIV3Schema`, errs);
    const text = (e: FieldError) => `${e.field}: ${errorBody(e)}`;
    return errs.sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
  });
}
