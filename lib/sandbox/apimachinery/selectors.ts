// Label and field selectors as the API server parses them from a query string. Invalid input is
// a SelectorError whose message goes back to the client in a 400 Status.

export class SelectorError extends Error {}

type Requirement = { key: string; op: 'in' | 'notin'; values: string[] } | { key: string; op: 'exists' | '!' };

export type LabelMatcher = (labels: Record<string, string> | undefined) => boolean;

const KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

function checkKey(k: string): string {
  if (!KEY.test(k) || k.length > 316)
    throw new SelectorError(
      `unable to parse requirement: invalid label key "${k}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
    );
  return k;
}

function checkValue(v: string): string {
  if (v.length > 63 || !VALUE.test(v))
    throw new SelectorError(
      `unable to parse requirement: invalid label value: "${v}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
    );
  return v;
}

/** Splits on commas that are not inside parentheses. */
function splitTop(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of text) {
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (c === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

export function parseLabelSelector(text: string | null | undefined): LabelMatcher {
  const src = (text ?? '').trim();
  if (!src) return () => true;
  const reqs: Requirement[] = [];
  for (const raw of splitTop(src)) {
    const part = raw.trim();
    if (!part) throw new SelectorError(`unable to parse requirement: found '', expected: identifier`);
    let m: RegExpExecArray | null;
    if ((m = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(part))) {
      const values = m[3]!.split(',').map((v) => checkValue(v.trim()));
      reqs.push({ key: checkKey(m[1]!), op: m[2] as 'in' | 'notin', values });
    } else if ((m = /^([^!=\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(part))) {
      const key = checkKey(m[1]!);
      const value = checkValue(m[3]!);
      reqs.push({ key, op: m[2] === '!=' ? 'notin' : 'in', values: [value] });
    } else if ((m = /^!\s*(\S+)$/.exec(part))) {
      reqs.push({ key: checkKey(m[1]!), op: '!' });
    } else if (/^\S+$/.test(part)) {
      reqs.push({ key: checkKey(part), op: 'exists' });
    } else {
      throw new SelectorError(`unable to parse requirement: "${part}" is not a valid label selector`);
    }
  }
  return (labels) => {
    const l = labels ?? {};
    return reqs.every((r) => {
      const has = Object.prototype.hasOwnProperty.call(l, r.key);
      switch (r.op) {
        case 'in':
          return has && r.values.includes(l[r.key]!);
        case 'notin':
          return !has || !r.values.includes(l[r.key]!);
        case 'exists':
          return has;
        case '!':
          return !has;
      }
    });
  };
}

export type FieldMatcher = (obj: Record<string, unknown>) => boolean;

function fieldValue(obj: Record<string, unknown>, path: string): string {
  let cur: unknown = obj;
  for (const p of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return '';
    cur = (cur as Record<string, unknown>)[p];
  }
  if (cur === undefined || cur === null) return '';
  return typeof cur === 'object' ? JSON.stringify(cur) : String(cur);
}

/** Field selectors: `a=b`, `a==b`, `a!=b`, comma = AND; only the fields the resource supports. */
export function parseFieldSelector(text: string | null | undefined, supported: readonly string[]): FieldMatcher {
  const src = (text ?? '').trim();
  if (!src) return () => true;
  const reqs = src.split(',').map((raw) => {
    const m = /^\s*([^!=\s]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(raw);
    if (!m) throw new SelectorError(`invalid selector: '${src}'; can't understand '${raw}'`);
    const field = m[1]!;
    if (!supported.includes(field))
      throw new SelectorError(
        `${JSON.stringify(field)} is not a known field selector: only ${supported.map((f) => JSON.stringify(f)).join(', ')}`,
      );
    return { field, neg: m[2] === '!=', value: m[3]! };
  });
  return (obj) => reqs.every((r) => (fieldValue(obj, r.field) === r.value) !== r.neg);
}
