// The `x-kubernetes-validations` rules of a CRD schema, checked as kube-apiserver's CEL validator
// checks them after the OpenAPI validation: each node's rules with `self` bound to the value there,
// and rules naming `oldSelf` (transition rules) only on an update whose old object has a value at
// the same place. A failing rule is an Invalid field error whose value is the node's type, as
// kube writes it (`spec.namespace: Invalid value: "string": namespace is immutable`).
import type { FieldError, Schema } from '../../apimachinery/structural';
import { CelRuntimeError, evaluable, evaluate } from './evaluate';
import { parseCel, type Expr } from './parse';

export interface ValidationRule {
  rule: string;
  message?: string;
}

const parsed = new Map<string, Expr | null>();

/** The rule's syntax tree, or null when it uses CEL the sandbox does not evaluate (then skipped). */
function compiled(rule: string): Expr | null {
  if (!parsed.has(rule)) {
    let e: Expr | null = null;
    try {
      e = parseCel(rule);
      if (!evaluable(e)) e = null;
    } catch {
      e = null;
    }
    if (parsed.size > 1024) parsed.clear();
    parsed.set(rule, e);
  }
  return parsed.get(rule)!;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const usesOldSelf = (rule: string) => /\boldSelf\b/.test(rule);

function typeMatches(s: Schema, x: unknown): boolean {
  switch (s.type) {
    case 'object':
      return isObject(x);
    case 'array':
      return Array.isArray(x);
    case 'string':
      return typeof x === 'string';
    case 'integer':
    case 'number':
      return typeof x === 'number';
    case 'boolean':
      return typeof x === 'boolean';
    default:
      return true;
  }
}

/** The rule errors of `x` (and `old`, on an update) under schema `s`, in schema order. */
export function celErrors(x: unknown, s: Schema | undefined, old?: unknown, path = '', hasOld = old !== undefined) {
  const errs: FieldError[] = [];
  if (!s || x === undefined || x === null || !typeMatches(s, x)) return errs;
  for (const v of s['x-kubernetes-validations'] ?? []) {
    const transition = usesOldSelf(v.rule);
    if (transition && !hasOld) continue;
    const e = compiled(v.rule);
    if (!e) continue;
    let ok: boolean;
    let detail = v.message ?? `failed rule: ${v.rule}`;
    try {
      ok = evaluate(e, transition ? { self: x, oldSelf: old } : { self: x }) === true;
    } catch (err) {
      if (!(err instanceof CelRuntimeError)) throw err;
      ok = false;
      detail = `${v.rule}: ${err.message}`;
    }
    if (!ok) errs.push({ type: 'FieldValueInvalid', field: path, value: s.type ?? 'object', hasValue: true, detail });
  }
  const child = (key: string) => (path ? `${path}.${key}` : key);
  if (isObject(x)) {
    const o = isObject(old) ? old : undefined;
    for (const [key, prop] of Object.entries(s.properties ?? {}))
      if (key in x) errs.push(...celErrors(x[key], prop, o?.[key], child(key), o !== undefined && key in o));
    if (typeof s.additionalProperties === 'object')
      for (const key of Object.keys(x))
        if (!s.properties?.[key])
          errs.push(...celErrors(x[key], s.additionalProperties, o?.[key], child(key), o !== undefined && key in o));
  }
  // List items are not correlated with the old list here (kube does so only for map and set lists),
  // so transition rules inside lists are not evaluated.
  if (Array.isArray(x))
    x.forEach((item, i) => errs.push(...celErrors(item, s.items, undefined, `${path}[${i}]`, false)));
  return errs;
}

/** Whether any node of the schema has rules: kube-apiserver builds a CEL validator only then. */
function hasRules(s: Schema | undefined): boolean {
  if (!s) return false;
  if (s['x-kubernetes-validations']?.length) return true;
  if (Object.values(s.properties ?? {}).some(hasRules)) return true;
  return hasRules(s.items) || (typeof s.additionalProperties === 'object' && hasRules(s.additionalProperties));
}

// The kinds of schema error after which a rule could read a value of the wrong shape or miss one,
// so kube-apiserver does not run the rules at all (hasBlockingErr, apiextensions-apiserver
// pkg/registry/customresource/strategy.go). An Invalid value (a pattern, a minimum) does not block.
const BLOCKING = new Set<FieldError['type']>([
  'FieldValueNotSupported',
  'FieldValueRequired',
  'FieldValueTooLong',
  'FieldValueTooMany',
  'FieldValueTypeInvalid',
]);

/** field.Invalid(nil, nil, …): a path of none and a value of nil, written `<nil>` and `null`. */
const RULES_NOT_CHECKED: FieldError = {
  type: 'FieldValueInvalid',
  field: '<nil>',
  value: null,
  hasValue: true,
  detail:
    'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
};

/**
 * The CEL stage of a custom resource's validation, given the errors the stages before it found
 * (OpenAPI schema, embedded objects, list types): nothing when the schema has no rules; one cause
 * saying the rules were skipped when an earlier error blocks them; otherwise the rules' errors.
 */
export function celStageErrors(earlier: FieldError[], x: unknown, s: Schema, old?: unknown): FieldError[] {
  if (!hasRules(s)) return [];
  if (earlier.some((e) => BLOCKING.has(e.type))) return [RULES_NOT_CHECKED];
  return celErrors(x, s, old);
}
