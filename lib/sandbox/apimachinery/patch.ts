// The three patch types the API server accepts: RFC 6902 JSON Patch, RFC 7386 JSON merge patch,
// and strategic merge patch (built-in kinds: lists merged by their key where Kubernetes does).
// Errors are PatchError, answered as 422 (or 400 for a malformed patch document).

export class PatchError extends Error {
  constructor(
    message: string,
    readonly code: 400 | 422 = 422,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function isObj(v: unknown): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function unescape(seg: string): string {
  return seg.replace(/~1/g, '/').replace(/~0/g, '~');
}

function parsePointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new PatchError(`JSON pointer "${path}" must start with "/"`, 400);
  return path.slice(1).split('/').map(unescape);
}

function getAt(doc: Json, segs: string[]): Json | undefined {
  let cur: Json | undefined = doc;
  for (const s of segs) {
    if (Array.isArray(cur)) cur = cur[Number(s)];
    else if (isObj(cur)) cur = cur[s];
    else return undefined;
  }
  return cur;
}

function parentOf(doc: Json, segs: string[], path: string): { parent: Json; last: string } {
  const parent = getAt(doc, segs.slice(0, -1));
  if (parent === undefined || typeof parent !== 'object' || parent === null)
    throw new PatchError(`the path "${path}" does not exist`);
  return { parent, last: segs[segs.length - 1]! };
}

function add(doc: Json, path: string, value: Json): Json {
  const segs = parsePointer(path);
  if (segs.length === 0) return value;
  const { parent, last } = parentOf(doc, segs, path);
  if (Array.isArray(parent)) {
    const i = last === '-' ? parent.length : Number(last);
    if (!Number.isInteger(i) || i < 0 || i > parent.length)
      throw new PatchError(`index "${last}" out of bounds in "${path}"`);
    parent.splice(i, 0, value);
  } else (parent as Record<string, Json>)[last] = value;
  return doc;
}

function remove(doc: Json, path: string): Json {
  const segs = parsePointer(path);
  const { parent, last } = parentOf(doc, segs, path);
  if (Array.isArray(parent)) {
    const i = Number(last);
    if (!Number.isInteger(i) || i < 0 || i >= parent.length)
      throw new PatchError(`index "${last}" out of bounds in "${path}"`);
    parent.splice(i, 1);
  } else {
    if (!(last in (parent as object))) throw new PatchError(`the path "${path}" does not exist; cannot remove it`);
    delete (parent as Record<string, Json>)[last];
  }
  return doc;
}

/** RFC 6902. */
export function applyJsonPatch(target: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch)) throw new PatchError('a JSON patch must be a list of operations', 400);
  let doc = structuredClone(target) as Json;
  for (const [i, raw] of patch.entries()) {
    if (!isObj(raw) || typeof raw.op !== 'string' || typeof raw.path !== 'string')
      throw new PatchError(`operation ${i}: needs "op" and "path"`, 400);
    const op = raw.op;
    const path = raw.path;
    switch (op) {
      case 'add':
        doc = add(doc, path, structuredClone(raw.value ?? null));
        break;
      case 'remove':
        doc = remove(doc, path);
        break;
      case 'replace':
        if (getAt(doc, parsePointer(path)) === undefined)
          throw new PatchError(`the path "${path}" does not exist; cannot replace it`);
        doc = add(remove(doc, path), path, structuredClone(raw.value ?? null));
        break;
      case 'move':
      case 'copy': {
        if (typeof raw.from !== 'string') throw new PatchError(`operation ${i}: ${op} needs "from"`, 400);
        const v = getAt(doc, parsePointer(raw.from));
        if (v === undefined) throw new PatchError(`the path "${raw.from}" does not exist`);
        if (op === 'move') doc = remove(doc, raw.from);
        doc = add(doc, path, structuredClone(v));
        break;
      }
      case 'test': {
        const v = getAt(doc, parsePointer(path));
        // kube-apiserver answers a failed test with its generic 422 text and empty details.
        if (JSON.stringify(v) !== JSON.stringify(raw.value))
          throw new PatchError('the server rejected our request due to an error in our request', 422, {});
        break;
      }
      default:
        throw new PatchError(`operation ${i}: unknown op "${op}"`, 400);
    }
  }
  return doc;
}

/** RFC 7386: objects merge, null deletes, anything else replaces. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObj(patch)) return structuredClone(patch);
  const out: Record<string, Json> = isObj(target) ? (structuredClone(target) as Record<string, Json>) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v) as Json;
  }
  return out;
}

/** List fields Kubernetes merges by key (patchMergeKey), by field name wherever they occur. */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  env: 'name',
  ports: 'containerPort',
  imagePullSecrets: 'name',
  ownerReferences: 'uid',
  conditions: 'type',
  tolerations: 'key',
  hostAliases: 'ip',
};
/** Primitive lists merged as sets. */
const SET_LISTS = new Set(['finalizers']);

function smp(target: Json | undefined, patch: Json, field?: string): Json {
  if (Array.isArray(patch)) {
    const key = field ? MERGE_KEYS[field] : undefined;
    if (field && SET_LISTS.has(field) && Array.isArray(target)) {
      return [...target, ...patch.filter((p) => !target.includes(p))];
    }
    if (!key || !Array.isArray(target))
      return structuredClone(patch.filter((p) => !(isObj(p) && p.$patch === 'delete')));
    const out = structuredClone(target) as Json[];
    for (const item of patch) {
      if (!isObj(item)) continue;
      if (item.$patch === 'replace') return structuredClone(patch.filter((p) => !(isObj(p) && p.$patch)));
      const idx = out.findIndex((t) => isObj(t) && t[key] === item[key]);
      if (item.$patch === 'delete') {
        if (idx >= 0) out.splice(idx, 1);
        continue;
      }
      if (idx >= 0) out[idx] = smp(out[idx], item);
      else out.push(smp(undefined, item));
    }
    return out;
  }
  if (!isObj(patch)) return structuredClone(patch);
  if (patch.$patch === 'replace') {
    const { $patch: _drop, ...rest } = patch;
    void _drop;
    return structuredClone(rest);
  }
  if (patch.$patch === 'delete') return null;
  const out: Record<string, Json> = isObj(target) ? (structuredClone(target) as Record<string, Json>) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const listName = k.slice('$deleteFromPrimitiveList/'.length);
      const cur = out[listName];
      if (Array.isArray(cur) && Array.isArray(v)) out[listName] = cur.filter((x) => !v.includes(x));
      continue;
    }
    if (k.startsWith('$setElementOrder/') || k === '$retainKeys') continue;
    if (v === null) delete out[k];
    else out[k] = smp(out[k], v, k);
  }
  return out;
}

/** Strategic merge patch for built-in kinds. */
export function applyStrategicMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObj(patch)) throw new PatchError('a strategic merge patch must be a JSON object', 400);
  return smp(target as Json, patch);
}
