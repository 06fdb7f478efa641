// `kubectl get` asks for meta.k8s.io Table responses: the columns a resource declares (printer
// columns for CRDs), cells computed on the server, dates as human ages.
import type { KObject } from '../store/types';

export interface TableColumn {
  name: string;
  type: string;
  jsonPath: string;
  description?: string;
  format?: string;
  priority?: number;
  /** A cell a built-in printer computes from several fields ("1/3"); jsonPath is then only its name. */
  value?: (obj: KObject) => unknown;
}

type Step = string | number | { key: string; equals: string };

/**
 * `.a.b[0].c`, `.a['x.y']` and `.a[?(@.type=="Ready")].b` paths, as printer columns use them. A
 * filter keeps the first matching element: kube's table convertor prints only the first result.
 */
export function evalJsonPath(obj: unknown, path: string): unknown {
  const tokens: Step[] = [];
  const re =
    /\.([A-Za-z0-9_$-]+)|\[(\d+)\]|\['([^']+)'\]|\["([^"]+)"\]|\[\?\(@\.([A-Za-z0-9_$-]+)\s*==\s*(?:"([^"]*)"|'([^']*)')\)\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(path))) {
    if (m[5] !== undefined) tokens.push({ key: m[5], equals: m[6] ?? m[7]! });
    else tokens.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : (m[3] ?? m[4]!)));
  }
  let cur: unknown = obj;
  for (const t of tokens) {
    if (cur === null || cur === undefined) return undefined;
    if (typeof t === 'object') {
      cur = Array.isArray(cur)
        ? cur.find((e) => (e as Record<string, unknown> | null)?.[t.key] === t.equals)
        : undefined;
    } else cur = (cur as Record<string | number, unknown>)[t];
  }
  return cur;
}

export function humanAge(iso: string | undefined, now = Date.now()): string {
  if (!iso) return '<unknown>';
  const s = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return `${m}m${s % 60 ? `${s % 60}s` : ''}`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return `${h}h${m % 60 ? `${m % 60}m` : ''}`;
  if (h < 48) return `${h}h`;
  const d = Math.floor(h / 24);
  if (d < 8) return `${d}d${h % 24 ? `${h % 24}h` : ''}`;
  if (d < 365 * 2) return `${d}d`;
  return `${Math.floor(d / 365)}y`;
}

function cell(obj: KObject, c: TableColumn, customResource: boolean): unknown {
  const v = c.value ? c.value(obj) : evalJsonPath(obj, c.jsonPath);
  // A custom resource's missing cell is null (kubectl prints <none>); a built-in's Age is always set.
  if (c.type === 'date') return typeof v === 'string' ? humanAge(v) : customResource ? null : '<unknown>';
  if (v === undefined || v === null) {
    // A built-in's printer reads Go structs, where a field JSON omits is its zero value.
    if (!customResource && c.type === 'boolean') return false;
    if (!customResource && (c.type === 'integer' || c.type === 'number')) return 0;
    return c.type === 'integer' || c.type === 'number' ? null : '';
  }
  if (typeof v === 'object') return JSON.stringify(v);
  return v;
}

/**
 * A Table as kube-apiserver writes it. Custom resources keep their printer columns' `date` type;
 * built-in kinds' Age column is a `string` (their printers format it on the server).
 */
export function toTable(
  items: KObject[],
  columns: readonly TableColumn[],
  meta: { resourceVersion: string; continue?: string; remainingItemCount?: number },
  includeObject: 'None' | 'Metadata' | 'Object' = 'Metadata',
  customResource = false,
) {
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: {
      resourceVersion: meta.resourceVersion,
      ...(meta.continue ? { continue: meta.continue } : {}),
      ...(meta.remainingItemCount !== undefined ? { remainingItemCount: meta.remainingItemCount } : {}),
    },
    columnDefinitions: [
      {
        name: 'Name',
        type: 'string',
        format: 'name',
        description: 'Name must be unique within a namespace.',
        priority: 0,
      },
      ...columns.map((c) => ({
        name: c.name,
        type: c.type === 'date' && !customResource ? 'string' : c.type,
        format: c.format ?? '',
        description: c.description ?? '',
        priority: c.priority ?? 0,
      })),
    ],
    rows: items.map((o) => ({
      cells: [o.metadata.name ?? '', ...columns.map((c) => cell(o, c, customResource))],
      object:
        includeObject === 'None'
          ? undefined
          : includeObject === 'Object'
            ? o
            : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata },
    })),
  };
}
