// The operand object the form edits, and its YAML. The object is the one state both views share:
// a widget writes one path of it, the YAML view replaces it whole, so neither can drift from the
// other. Clearing a field removes its key (and objects left empty by that), so the object holds
// only what the person set: the API server applies the schema's defaults itself.
import { dump, load } from 'js-yaml';
import type { FieldPath } from './types';

export type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Kubernetes' way of writing a field path, as in a 422's `details.causes[].field`: `spec.a[0].b`. */
export function fieldPathString(path: FieldPath): string {
  return path.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${p}` : p), '');
}

export function getAt(obj: unknown, path: FieldPath): unknown {
  let cur = obj;
  for (const p of path) {
    if (typeof p === 'number') cur = Array.isArray(cur) ? cur[p] : undefined;
    else cur = isObj(cur) ? cur[p] : undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

function setIn(cur: unknown, path: FieldPath, value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (typeof head === 'number') {
    const list = Array.isArray(cur) ? [...cur] : [];
    list[head] = setIn(list[head], rest, value);
    // A list item cleared to nothing stays as an empty object: indexes of the others keep.
    if (list[head] === undefined) list[head] = {};
    return list;
  }
  const o: Obj = isObj(cur) ? { ...cur } : {};
  const next = setIn(o[head], rest, value);
  if (next === undefined || (isObj(next) && !Object.keys(next).length && rest.length)) delete o[head];
  else o[head] = next;
  return Object.keys(o).length ? o : undefined;
}

/** A copy with `value` at `path`; `undefined` removes the key and parents it leaves empty. */
export function setAt(obj: Obj, path: FieldPath, value: unknown): Obj {
  return (setIn(obj, path, value) as Obj | undefined) ?? {};
}

/** A copy without the list item at `path` (its last segment an index). */
export function removeItem(obj: Obj, path: FieldPath): Obj {
  const list = getAt(obj, path.slice(0, -1));
  const i = path[path.length - 1];
  if (!Array.isArray(list) || typeof i !== 'number') return obj;
  const next = list.filter((_, j) => j !== i);
  return setAt(obj, path.slice(0, -1), next.length ? next : undefined);
}

export function toYaml(obj: Obj): string {
  return dump(obj, { noRefs: true, lineWidth: -1 });
}

/** The YAML typed by the person, as an object, or what is wrong with it. */
export function fromYaml(text: string): { object: Obj } | { error: string } {
  let parsed: unknown;
  try {
    parsed = load(text);
  } catch (err) {
    return { error: err instanceof Error ? err.message.split('\n')[0]! : String(err) };
  }
  if (!isObj(parsed)) return { error: "the YAML must be one object (a mapping), like the form's" };
  return { object: parsed };
}

/**
 * The object the form starts from: the CSV's example of this API (alm-examples) when there is
 * one, with its kind and apiVersion set to this API's and its namespace to where it is created.
 */
/** The object the form starts from; a cluster-scoped API's has no namespace. */
export function initialObject(
  api: { group: string; version: string; kind: string },
  namespace: string | undefined,
  example?: Obj,
): Obj {
  const meta = isObj(example?.metadata) ? { ...example.metadata } : {};
  delete meta.namespace;
  const name = typeof meta.name === 'string' && meta.name ? meta.name : `example-${api.kind.toLowerCase()}`;
  return {
    apiVersion: `${api.group}/${api.version}`,
    kind: api.kind,
    metadata: { ...meta, name, ...(namespace ? { namespace } : {}) },
    spec: isObj(example?.spec) ? example.spec : {},
    ...Object.fromEntries(
      Object.entries(example ?? {}).filter(([k]) => !['apiVersion', 'kind', 'metadata', 'spec', 'status'].includes(k)),
    ),
  };
}
