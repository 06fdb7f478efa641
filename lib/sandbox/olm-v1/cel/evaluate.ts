// Evaluating a parsed CEL rule (parse.ts) against a value, with the functions Kubernetes' CEL
// environment gives CRD rules that the OLM v1 CRDs call: `matches` (RE2, unanchored), `find`
// (the strings extension: first match or ""), `substring`, `size`, `isURL`, `url(...).getScheme()`.
// Regular expressions are Go's RE2 via re2js, so a catalog's rule cannot stall the API server.
// evaluate() also knows the macros `exists` and `all`, which OCM's condition rules use
// (lib/sandbox/ocm/work-agent.ts); evaluable() does not count them, so a CRD rule calling them is
// still skipped as before.
import { RE2JS } from 're2js';
import type { Expr } from './parse';

export type CelValue = unknown;

const METHODS = new Set(['matches', 'find', 'substring', 'size', 'startsWith', 'endsWith', 'contains', 'getScheme']);
const FUNCTIONS = new Set(['has', 'size', 'isURL', 'url']);

/** Whether every function the expression calls is one evaluate() knows (else the rule is skipped). */
export function evaluable(e: Expr): boolean {
  switch (e.kind) {
    case 'lit':
    case 'ident':
      return true;
    case 'select':
      return evaluable(e.target);
    case 'index':
      return evaluable(e.target) && evaluable(e.key);
    case 'unary':
      return evaluable(e.arg);
    case 'binary':
      return evaluable(e.left) && evaluable(e.right);
    case 'cond':
      return evaluable(e.test) && evaluable(e.then) && evaluable(e.else);
    case 'call':
      return (
        (e.target ? METHODS.has(e.fn) && evaluable(e.target) : FUNCTIONS.has(e.fn)) && e.args.every((a) => evaluable(a))
      );
  }
}

/** A rule that cannot be evaluated (unknown function, missing field): kube reports it as an error. */
export class CelRuntimeError extends Error {}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

function regex(pattern: unknown): RE2JS {
  if (typeof pattern !== 'string') throw new CelRuntimeError('regular expression must be a string');
  return RE2JS.compile(pattern);
}

function str(x: unknown, fn: string): string {
  if (typeof x !== 'string') throw new CelRuntimeError(`no such overload: ${fn}`);
  return x;
}

// Go's url.ParseRequestURI, as far as a rule can tell: an absolute URL with a scheme, or an
// absolute path; no spaces or control characters.
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
function isUrl(s: string): boolean {
  if (/[\s\x00-\x1f\x7f]/.test(s)) return false;
  return SCHEME.test(s) || s.startsWith('/');
}

function callMethod(target: CelValue, fn: string, args: CelValue[]): CelValue {
  switch (fn) {
    case 'matches':
      return regex(args[0]).matcher(str(target, fn)).find();
    case 'find': {
      const m = regex(args[0]).matcher(str(target, fn));
      return m.find() ? m.group() : '';
    }
    case 'substring': {
      const chars = [...str(target, fn)];
      const from = Number(args[0]);
      const to = args.length > 1 ? Number(args[1]) : chars.length;
      if (from < 0 || to > chars.length || from > to) throw new CelRuntimeError(`index out of range: ${from}`);
      return chars.slice(from, to).join('');
    }
    case 'size':
      return size(target);
    case 'startsWith':
      return str(target, fn).startsWith(str(args[0], fn));
    case 'endsWith':
      return str(target, fn).endsWith(str(args[0], fn));
    case 'contains':
      return str(target, fn).includes(str(args[0], fn));
    case 'getScheme': {
      if (!isObject(target) || typeof target.url !== 'string') throw new CelRuntimeError('no such overload: getScheme');
      return SCHEME.exec(target.url)?.[1] ?? '';
    }
    default:
      throw new CelRuntimeError(`undeclared reference to '${fn}'`);
  }
}

function size(x: CelValue): number {
  if (typeof x === 'string') return [...x].length;
  if (Array.isArray(x)) return x.length;
  if (isObject(x)) return Object.keys(x).length;
  throw new CelRuntimeError('no such overload: size');
}

function equal(a: CelValue, b: CelValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function truth(x: CelValue): boolean {
  if (typeof x !== 'boolean') throw new CelRuntimeError('no matching overload: expected a bool');
  return x;
}

/** The value of `e` with `vars` (`self`, `oldSelf`) bound. */
export function evaluate(e: Expr, vars: Record<string, CelValue>): CelValue {
  const ev = (x: Expr) => evaluate(x, vars);
  switch (e.kind) {
    case 'lit':
      return e.value;
    case 'ident':
      if (!(e.name in vars)) throw new CelRuntimeError(`undeclared reference to '${e.name}'`);
      return vars[e.name];
    case 'select': {
      const t = ev(e.target);
      if (!isObject(t) || !(e.field in t)) throw new CelRuntimeError(`no such key: ${e.field}`);
      return t[e.field];
    }
    case 'index': {
      const t = ev(e.target);
      const k = ev(e.key);
      if (Array.isArray(t) && typeof k === 'number' && k >= 0 && k < t.length) return t[k];
      if (isObject(t) && typeof k === 'string' && k in t) return t[k];
      throw new CelRuntimeError(`no such key: ${String(k)}`);
    }
    case 'unary':
      return e.op === '!' ? !truth(ev(e.arg)) : -Number(ev(e.arg));
    case 'cond':
      return truth(ev(e.test)) ? ev(e.then) : ev(e.else);
    case 'binary':
      return binary(e.op, e.left, e.right, ev);
    case 'call':
      return call(e, ev, vars);
  }
}

function binary(op: string, l: Expr, r: Expr, ev: (x: Expr) => CelValue): CelValue {
  // CEL's && and || are commutative about errors; evaluating left first and short-circuiting
  // gives the same answer whenever the left side alone decides it.
  if (op === '&&') return truth(ev(l)) && truth(ev(r));
  if (op === '||') return truth(ev(l)) || truth(ev(r));
  const a = ev(l);
  const b = ev(r);
  switch (op) {
    case '==':
      return equal(a, b);
    case '!=':
      return !equal(a, b);
    case 'in':
      if (Array.isArray(b)) return b.some((x) => equal(x, a));
      if (isObject(b) && typeof a === 'string') return a in b;
      throw new CelRuntimeError('no such overload: in');
    case '+':
      if (typeof a === 'string' && typeof b === 'string') return a + b;
      return Number(a) + Number(b);
    case '-':
      return Number(a) - Number(b);
  }
  if ((typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string')) {
    if (op === '<') return a < b;
    if (op === '<=') return a <= b;
    if (op === '>') return a > b;
    if (op === '>=') return a >= b;
  }
  throw new CelRuntimeError(`no such overload: ${op}`);
}

/** `list.exists(x, p)` and `list.all(x, p)`: `p` with `x` bound to each element (of a map, each key). */
function macro(e: Extract<Expr, { kind: 'call' }>, ev: (x: Expr) => CelValue, vars: Record<string, CelValue>) {
  const [v, p] = e.args;
  if (e.args.length !== 2 || v?.kind !== 'ident' || !p) throw new CelRuntimeError(`invalid argument to ${e.fn} macro`);
  const t = ev(e.target!);
  const items = Array.isArray(t) ? t : isObject(t) ? Object.keys(t) : undefined;
  if (!items) throw new CelRuntimeError(`no such overload: ${e.fn}`);
  const holds = (x: CelValue) => truth(evaluate(p, { ...vars, [v.name]: x }));
  return e.fn === 'exists' ? items.some(holds) : items.every(holds);
}

function call(e: Extract<Expr, { kind: 'call' }>, ev: (x: Expr) => CelValue, vars: Record<string, CelValue>): CelValue {
  if (e.target && (e.fn === 'exists' || e.fn === 'all')) return macro(e, ev, vars);
  if (!e.target && e.fn === 'has') {
    const arg = e.args[0];
    if (e.args.length !== 1 || arg?.kind !== 'select') throw new CelRuntimeError('invalid argument to has() macro');
    const t = ev(arg.target);
    return isObject(t) && arg.field in t;
  }
  const args = e.args.map(ev);
  if (e.target) return callMethod(ev(e.target), e.fn, args);
  switch (e.fn) {
    case 'size':
      return size(args[0]);
    case 'isURL':
      return isUrl(str(args[0], 'isURL'));
    case 'url': {
      const s = str(args[0], 'url');
      if (!isUrl(s)) throw new CelRuntimeError(`URL parse error during conversion from string: ${s}`);
      return { url: s };
    }
    default:
      throw new CelRuntimeError(`undeclared reference to '${e.fn}'`);
  }
}
