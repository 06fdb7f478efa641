// What kube-apiserver does with a custom resource's body before it stores it, given the CRD's
// structural OpenAPI v3 schema: prune unknown fields, drop nulls a field may not hold, apply
// defaults, then validate (apiextensions-apiserver's schema/pruning, schema/defaulting and
// validation packages; kube-openapi's validators give the words of each error). Pure functions:
// the API server decides when to call them and turns the errors into a 422 Status. Patterns
// are lib/olm's (Go's RE2, as the form in the browser reads them).
import { compilePattern } from '../../olm/schema/pattern';

/** The part of a CRD's JSONSchemaProps the API server acts on (and `kubectl explain` reads). */
export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  description?: string;
  format?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  pattern?: string;
  nullable?: boolean;
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  minItems?: number;
  anyOf?: Schema[];
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  /** CEL rules, checked after this schema (lib/sandbox/olm-v1/cel/rules.ts). */
  'x-kubernetes-validations'?: { rule: string; message?: string }[];
}

/** One field error, as apimachinery's field.Error: its type names the Status cause's reason. */
export interface FieldError {
  type:
    | 'FieldValueRequired'
    | 'FieldValueNotSupported'
    | 'FieldValueInvalid'
    | 'FieldValueTypeInvalid'
    | 'FieldValueTooLong'
    | 'FieldValueTooMany';
  field: string;
  /** The bad value, shown in the message; absent for the kinds whose body omits it. */
  value?: unknown;
  hasValue: boolean;
  detail: string;
}

type Json = unknown;
const isObject = (x: Json): x is Record<string, Json> => typeof x === 'object' && x !== null && !Array.isArray(x);
const preserves = (s: Schema | undefined) => s?.['x-kubernetes-preserve-unknown-fields'] === true;

function propertySchema(s: Schema | undefined, key: string): Schema | undefined {
  if (!s) return undefined;
  return s.properties?.[key] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
}

/**
 * Removes every field the schema does not specify, unless a node preserves unknown fields. At the
 * root (and in embedded resources) apiVersion, kind and metadata always stay: ObjectMeta is the
 * API machinery's, not the schema's.
 */
export function prune(x: Json, s: Schema | undefined, root = true): void {
  if (Array.isArray(x)) {
    for (const item of x) prune(item, s?.items, false);
    return;
  }
  if (!isObject(x)) return;
  const keepMeta = root || s?.['x-kubernetes-embedded-resource'] === true;
  for (const key of Object.keys(x)) {
    if (keepMeta && (key === 'apiVersion' || key === 'kind' || key === 'metadata')) continue;
    const sub = propertySchema(s, key);
    if (sub) prune(x[key], sub, false);
    else if (!preserves(s) && s?.additionalProperties !== true) delete x[key];
  }
}

/** Drops object fields holding null where the schema neither allows null nor has a default. */
export function pruneNulls(x: Json, s: Schema | undefined): void {
  if (Array.isArray(x)) {
    for (const item of x) pruneNulls(item, s?.items);
    return;
  }
  if (!isObject(x)) return;
  for (const key of Object.keys(x)) {
    const sub = propertySchema(s, key);
    if (x[key] === null && sub && !sub.nullable && sub.default === undefined) delete x[key];
    else pruneNulls(x[key], sub);
  }
}

/** Fills in defaults where a field is absent (or null and not nullable), outside in. */
export function applyDefaults(x: Json, s: Schema | undefined): void {
  if (!s) return;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      if (x[i] === null && s.items && !s.items.nullable && s.items.default !== undefined)
        x[i] = structuredClone(s.items.default);
      applyDefaults(x[i], s.items);
    }
    return;
  }
  if (!isObject(x)) return;
  for (const [key, prop] of Object.entries(s.properties ?? {})) {
    if (prop.default === undefined) continue;
    if (!(key in x) || (x[key] === null && !prop.nullable)) x[key] = structuredClone(prop.default);
  }
  for (const key of Object.keys(x)) applyDefaults(x[key], propertySchema(s, key));
}

/** The OpenAPI type name of a JSON value, as kube-openapi's type validator names it. */
function typeName(x: Json): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'array';
  if (typeof x === 'number') return Number.isInteger(x) ? 'integer' : 'number';
  if (typeof x === 'boolean') return 'boolean';
  return typeof x === 'string' ? 'string' : 'object';
}

const required = (field: string): FieldError => ({ type: 'FieldValueRequired', field, hasValue: false, detail: '' });
const invalid = (field: string, value: Json, detail: string): FieldError => ({
  type: 'FieldValueInvalid',
  field,
  value,
  hasValue: true,
  detail,
});

function typeMatches(s: Schema, x: Json): boolean {
  if (s['x-kubernetes-int-or-string']) return typeof x === 'string' || (typeof x === 'number' && Number.isInteger(x));
  if (!s.type) return true;
  const t = typeName(x);
  // An integer is a number too (kube-openapi's isIntFloat).
  return t === s.type || (s.type === 'number' && t === 'integer');
}

/**
 * Validates x against s; `path` is the field path as kube-openapi writes it (`spec.env[0].name`).
 * Within an object, properties come first (in the schema's order: kube-openapi walks a Go map, so
 * a real server's order among several failing properties is not fixed), then required fields in
 * the order the schema lists them.
 */
export function validate(x: Json, s: Schema | undefined, path = ''): FieldError[] {
  if (!s) return [];
  const name = path || '.';
  if (x === null) {
    if (s.nullable || !s.type) return [];
    return [
      {
        type: 'FieldValueTypeInvalid',
        field: path,
        value: 'null',
        hasValue: true,
        detail: `${name} in body must be of type ${s.type}: "null"`,
      },
    ];
  }
  if (!typeMatches(s, x)) {
    const t = typeName(x);
    const want = s['x-kubernetes-int-or-string'] ? 'integer,string' : s.type!;
    return [
      {
        type: 'FieldValueTypeInvalid',
        field: path,
        value: t,
        hasValue: true,
        detail: `${name} in body must be of type ${want}: "${t}"`,
      },
    ];
  }
  const errs: FieldError[] = [];
  if (s.enum && !s.enum.some((v) => JSON.stringify(v) === JSON.stringify(x))) {
    errs.push({
      type: 'FieldValueNotSupported',
      field: path,
      value: x,
      hasValue: true,
      detail: s.enum.length
        ? `supported values: ${s.enum.map((v) => JSON.stringify(typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`
        : '',
    });
  }
  if (typeof x === 'string') {
    const len = [...x].length;
    if (s.maxLength !== undefined && len > s.maxLength)
      errs.push({
        type: 'FieldValueTooLong',
        field: path,
        hasValue: false,
        detail: `may not be more than ${s.maxLength} ${s.maxLength === 1 ? 'byte' : 'bytes'}`,
      });
    if (s.minLength !== undefined && len < s.minLength)
      errs.push(invalid(path, x, `${name} in body should be at least ${s.minLength} chars long`));
    if (s.pattern) {
      // RE2, linear in the value: a catalog's `^(a+)+$` cannot stall the API server. A pattern Go
      // refuses fails the write in kube-openapi's words; only a CRD stored before the sandbox
      // checked patterns on CRD writes can hold one.
      const re = compilePattern(s.pattern);
      if (!re.ok) {
        const why = `${s.pattern}, but pattern is invalid: ${re.error}`;
        errs.push(invalid(path, x, `${name} in body should match '${why}'`));
      } else if (!re.matches(x)) errs.push(invalid(path, x, `${name} in body should match '${s.pattern}'`));
    }
  }
  if (typeof x === 'number') {
    if (s.minimum !== undefined && x < s.minimum)
      errs.push(invalid(path, x, `${name} in body should be greater than or equal to ${s.minimum}`));
    if (s.maximum !== undefined && x > s.maximum)
      errs.push(invalid(path, x, `${name} in body should be less than or equal to ${s.maximum}`));
  }
  if (Array.isArray(x)) {
    if (s.maxItems !== undefined && x.length > s.maxItems)
      errs.push({
        type: 'FieldValueTooMany',
        field: path,
        value: x.length,
        hasValue: true,
        detail: `must have at most ${s.maxItems} items`,
      });
    if (s.minItems !== undefined && x.length < s.minItems)
      errs.push(invalid(path, x, `${name} in body should have at least ${s.minItems} items`));
    x.forEach((item, i) => errs.push(...validate(item, s.items, `${path}[${i}]`)));
  }
  if (isObject(x)) {
    const child = (key: string) => (path ? `${path}.${key}` : key);
    for (const [key, prop] of Object.entries(s.properties ?? {}))
      if (key in x) errs.push(...validate(x[key], prop, child(key)));
    if (typeof s.additionalProperties === 'object') {
      for (const key of Object.keys(x))
        if (!s.properties?.[key]) errs.push(...validate(x[key], s.additionalProperties, child(key)));
    }
    for (const key of s.required ?? []) if (!(key in x)) errs.push(required(child(key)));
  }
  return errs;
}

/** A field error as the Status cause's message shows it (apimachinery's ErrorBody). */
export function errorBody(e: FieldError): string {
  const words: Record<FieldError['type'], string> = {
    FieldValueRequired: 'Required value',
    FieldValueNotSupported: 'Unsupported value',
    FieldValueInvalid: 'Invalid value',
    FieldValueTypeInvalid: 'Invalid value',
    FieldValueTooLong: 'Too long',
    FieldValueTooMany: 'Too many',
  };
  let s = words[e.type];
  if (e.hasValue) {
    const v = e.value;
    s += `: ${typeof v === 'string' ? JSON.stringify(v) : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v)}`;
  }
  return e.detail ? `${s}: ${e.detail}` : s;
}

/** The whole pipeline kube-apiserver runs on a custom resource's body: prune, nulls, defaults. */
export function normalize(o: Json, s: Schema): void {
  prune(o, s);
  pruneNulls(o, s);
  applyDefaults(o, s);
}
