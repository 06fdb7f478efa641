// What the form checks before it sends anything, in the API server's words where it has them
// (its validation of a CRD's structural schema: "Required value", "Unsupported value", "should be
// greater than or equal to"), and the API server's own 422 answer read back onto the fields.
// The API server stays the judge: these checks only spare the person a round trip.
import { compilePattern } from '../schema/pattern';
import { dependencyMet } from './dependencies';
import type { Field, FieldIssue, FormModel, ObjectField } from './types';
import { fieldPathString, getAt, type Obj } from './values';

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function typeOk(f: Field, v: unknown): string | undefined {
  switch (f.type) {
    case 'string':
      if (f.untyped) return undefined;
      if (f.intOrString ? typeof v === 'string' || Number.isInteger(v) : typeof v === 'string') return undefined;
      return `Invalid value: ${JSON.stringify(v)}: must be of type ${f.intOrString ? 'integer or string' : 'string'}`;
    case 'integer':
      return Number.isInteger(v) ? undefined : `Invalid value: ${JSON.stringify(v)}: must be of type integer`;
    case 'number':
      return typeof v === 'number' && Number.isFinite(v)
        ? undefined
        : `Invalid value: ${JSON.stringify(v)}: must be of type number`;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `Invalid value: ${JSON.stringify(v)}: must be of type boolean`;
    case 'array':
      return Array.isArray(v) ? undefined : `Invalid value: ${JSON.stringify(v)}: must be of type array`;
    case 'object':
    case 'map':
      return typeof v === 'object' && v !== null && !Array.isArray(v)
        ? undefined
        : `Invalid value: ${JSON.stringify(v)}: must be of type object`;
    default:
      return undefined;
  }
}

function patternOk(pattern: string, value: string): boolean {
  // Go's RE2 as the API server reads it, linear in the value, so a catalog's `^(a+)+$` cannot
  // freeze the tab. One RE2 refuses is not held against the person: the API server decides.
  const re = compilePattern(pattern);
  return !re.ok || re.matches(value);
}

/**
 * What the form says under a string field whose pattern it cannot check (RE2 refuses it: a
 * lookahead, a backreference); undefined for every other field.
 */
export function uncheckedPattern(f: Field): string | undefined {
  if (f.type !== 'string' || !f.pattern) return undefined;
  const re = compilePattern(f.pattern);
  if (re.ok) return undefined;
  const why = `cannot be checked in the browser (${re.error})`;
  return `Its pattern ${f.pattern} ${why}: the API server decides when you create it.`;
}

/** What a field's dependency is judged against: the whole object and the spec's fields. */
interface Ctx {
  object: Obj;
  spec: ObjectField;
}

function check(f: Field, v: unknown, path: (string | number)[], out: FieldIssue[], ctx: Ctx): void {
  const field = fieldPathString(path);
  const bad = typeOk(f, v);
  if (bad) {
    out.push({ field, message: bad });
    return;
  }
  if (f.type === 'string') {
    const s = String(v);
    if (f.enum && !f.enum.includes(s))
      out.push({
        field,
        message: `Unsupported value: ${JSON.stringify(s)}: supported values: ${f.enum.map((e) => JSON.stringify(e)).join(', ')}`,
      });
    if (typeof v === 'string') {
      if (f.pattern && !patternOk(f.pattern, s))
        out.push({ field, message: `Invalid value: ${JSON.stringify(s)}: should match '${f.pattern}'` });
      if (f.minLength !== undefined && [...s].length < f.minLength)
        out.push({
          field,
          message: `Invalid value: ${JSON.stringify(s)}: should be at least ${f.minLength} chars long`,
        });
      if (f.maxLength !== undefined && [...s].length > f.maxLength)
        out.push({ field, message: `Too long: may not be longer than ${f.maxLength}` });
    }
  } else if (f.type === 'integer' || f.type === 'number') {
    const n = v as number;
    if (f.minimum !== undefined && (f.exclusiveMinimum ? n <= f.minimum : n < f.minimum))
      out.push({
        field,
        message: `Invalid value: ${n}: should be greater than ${f.exclusiveMinimum ? '' : 'or equal to '}${f.minimum}`,
      });
    if (f.maximum !== undefined && (f.exclusiveMaximum ? n >= f.maximum : n > f.maximum))
      out.push({
        field,
        message: `Invalid value: ${n}: should be less than ${f.exclusiveMaximum ? '' : 'or equal to '}${f.maximum}`,
      });
  } else if (f.type === 'object') {
    const o = v as Obj;
    for (const c of f.fields) {
      const cv = o[c.key];
      if (cv === undefined || cv === null) {
        if (c.required && dependencyMet(c, ctx.object, ctx.spec))
          out.push({ field: fieldPathString([...path, c.key]), message: 'Required value' });
      } else check(c, cv, [...path, c.key], out, ctx);
    }
  } else if (f.type === 'array') {
    const list = v as unknown[];
    if (f.minItems !== undefined && list.length < f.minItems)
      out.push({ field, message: `Invalid value: ${list.length}: should have at least ${f.minItems} items` });
    if (f.maxItems !== undefined && list.length > f.maxItems)
      out.push({ field, message: `Too many: ${list.length}: must have at most ${f.maxItems} items` });
    list.forEach((item, i) => check(f.items, item, [...path, i], out, ctx));
  } else if (f.type === 'map') {
    for (const [k, item] of Object.entries(v as Obj)) check(f.values, item, [...path, k], out, ctx);
  }
}

/** The problems the form can see in `obj` before it is sent: its name, then its spec. */
export function validateObject(model: FormModel, obj: Obj): FieldIssue[] {
  const out: FieldIssue[] = [];
  const name = getAt(obj, ['metadata', 'name']);
  if (typeof name !== 'string' || !name)
    out.push({ field: 'metadata.name', message: 'Required value: name is required' });
  else if (name.length > 253 || !DNS_SUBDOMAIN.test(name))
    out.push({
      field: 'metadata.name',
      message: `Invalid value: ${JSON.stringify(name)}: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`,
    });
  const spec = obj.spec;
  if (spec === undefined || spec === null) {
    if (model.specRequired) out.push({ field: 'spec', message: 'Required value' });
  } else check(model.spec, spec, ['spec'], out, { object: obj, spec: model.spec });
  return out;
}

/**
 * The causes of an API server's answer (a Status's `details.causes`), as field issues. A cause
 * without a field belongs to the whole object and keeps an empty field.
 */
export function issuesFromStatus(details: unknown): FieldIssue[] {
  const causes = (details as { causes?: unknown } | undefined)?.causes;
  if (!Array.isArray(causes)) return [];
  return causes.flatMap((c) => {
    if (!c || typeof c !== 'object') return [];
    const { field, message, reason } = c as { field?: unknown; message?: unknown; reason?: unknown };
    const text = typeof message === 'string' && message ? message : typeof reason === 'string' ? reason : '';
    if (!text) return [];
    // Some API servers prefix the body's own path with `.` or name `<nil>`; both mean no field.
    const f = typeof field === 'string' && field !== '<nil>' ? field.replace(/^\./, '') : '';
    return [{ field: f, message: text }];
  });
}

/** The issues of one field, by its path (the form shows them under it). */
export function issuesAt(issues: readonly FieldIssue[], path: (string | number)[]): FieldIssue[] {
  const p = fieldPathString(path);
  return issues.filter((i) => i.field === p);
}
