// Custom resources checked against their CRD version's OpenAPI v3 schema on create and update, as
// kube-apiserver's apiextensions handler does (k8s.io/apiextensions-apiserver validation, errors
// from k8s.io/apimachinery field.Error): a 422 `Invalid` Status whose message lists each error and
// whose details.causes carry reason, message and field path (`spec.a[0].b`). The checks are the
// schema keywords a structural schema has: type, required, enum, pattern, bounds, lengths, item
// counts, nested properties, items and additionalProperties. CEL rules, formats and defaulting
// are not emulated.
import { ApiStatusError } from './http-util';
import type { ServedResource } from './resources';

type Schema = Record<string, unknown>;
interface Cause { reason: string; message: string; field: string }

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Go's %v of a value, as field.Invalid prints it (strings quoted). */
function shown(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(type: string, v: unknown): boolean {
  const t = typeOf(v);
  return t === type || (type === 'number' && t === 'integer');
}

function check(s: Schema, v: unknown, path: string, out: Cause[]): void {
  const invalid = (detail: string) => out.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${shown(v)}: ${path} in body ${detail}`, field: path });
  if (v === null) {
    if (s.nullable !== true) out.push({ reason: 'FieldValueInvalid', message: `Invalid value: "null": ${path} in body must be of type ${String(s.type ?? 'object')}: "null"`, field: path });
    return;
  }
  if (s['x-kubernetes-int-or-string'] === true) {
    if (typeof v !== 'string' && !Number.isInteger(v)) invalid(`must be of type integer,string: "${typeOf(v)}"`);
  } else if (typeof s.type === 'string' && !typeMatches(s.type, v)) {
    out.push({ reason: 'FieldValueInvalid', message: `Invalid value: "${typeOf(v)}": ${path} in body must be of type ${s.type}: "${typeOf(v)}"`, field: path });
    return;
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) {
    out.push({ reason: 'FieldValueNotSupported', message: `Unsupported value: ${shown(v)}: supported values: ${s.enum.map((e) => shown(e)).join(', ')}`, field: path });
  }
  if (typeof v === 'string') {
    if (typeof s.pattern === 'string') {
      let re: RegExp | undefined;
      try {
        re = new RegExp(s.pattern, 'u');
      } catch {
        re = undefined;
      }
      if (re && !re.test(v)) invalid(`should match '${s.pattern}'`);
    }
    if (typeof s.maxLength === 'number' && [...v].length > s.maxLength) out.push({ reason: 'FieldValueTooLong', message: `Too long: may not be longer than ${s.maxLength}`, field: path });
    if (typeof s.minLength === 'number' && [...v].length < s.minLength) invalid(`should be at least ${s.minLength} chars long`);
  }
  if (typeof v === 'number') {
    if (typeof s.minimum === 'number' && (s.exclusiveMinimum === true ? v <= s.minimum : v < s.minimum)) invalid(`should be greater than ${s.exclusiveMinimum === true ? '' : 'or equal to '}${s.minimum}`);
    if (typeof s.maximum === 'number' && (s.exclusiveMaximum === true ? v >= s.maximum : v > s.maximum)) invalid(`should be less than ${s.exclusiveMaximum === true ? '' : 'or equal to '}${s.maximum}`);
  }
  if (Array.isArray(v)) {
    if (typeof s.maxItems === 'number' && v.length > s.maxItems) out.push({ reason: 'FieldValueTooMany', message: `Too many: ${v.length}: must have at most ${s.maxItems} items`, field: path });
    if (typeof s.minItems === 'number' && v.length < s.minItems) invalid(`should have at least ${s.minItems} items`);
    if (isSchema(s.items)) v.forEach((item, i) => check(s.items as Schema, item, `${path}[${i}]`, out));
  }
  if (isSchema(v)) {
    const props = isSchema(s.properties) ? s.properties : {};
    for (const r of Array.isArray(s.required) ? s.required : []) {
      if (typeof r === 'string' && v[r] === undefined) out.push({ reason: 'FieldValueRequired', message: 'Required value', field: `${path}.${r}` });
    }
    for (const [k, item] of Object.entries(v)) {
      const ps = props[k];
      if (isSchema(ps)) check(ps, item, `${path}.${k}`, out);
      else if (isSchema(s.additionalProperties)) check(s.additionalProperties, item, `${path}.${k}`, out);
    }
  }
}

/**
 * Throws the API server's 422 when `o` breaks its CRD version's schema. The metadata, apiVersion
 * and kind are the API server's own to check; status, on the main resource of a kind with a
 * status subresource, is reset by the strategy before validation, so only spec and other
 * top-level fields are looked at here.
 */
export function validateCustomResource(r: ServedResource, version: string, o: Record<string, unknown>): void {
  const root = r.schemas?.[version];
  if (!isSchema(root) || !isSchema(root.properties)) return;
  const causes: Cause[] = [];
  for (const [k, s] of Object.entries(root.properties)) {
    if (['apiVersion', 'kind', 'metadata'].includes(k) || (k === 'status' && r.hasStatus) || !isSchema(s)) continue;
    if (o[k] === undefined) {
      if (Array.isArray(root.required) && root.required.includes(k)) causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: k });
    } else check(s, o[k], k, causes);
  }
  if (!causes.length) return;
  const name = String((o.metadata as { name?: unknown } | undefined)?.name ?? '');
  const list = causes.map((c) => `${c.field}: ${c.message}`);
  const message = `${r.kind}.${r.group} "${name}" is invalid: ${list.length === 1 ? list[0] : `[${list.join(', ')}]`}`;
  throw new ApiStatusError(422, 'Invalid', message, { name, group: r.group, kind: r.kind, causes });
}
