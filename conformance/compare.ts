// Comparing what the sandbox and the real cluster answered: first both answers are normalised
// (what must differ between two clusters — uids, times, resourceVersions, generated suffixes,
// ports, server addresses — is replaced by a placeholder), then every remaining difference is
// listed by its JSON path.

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const UID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Keys whose values are per-cluster by nature. */
const VOLATILE_KEYS = new Set([
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'deletionTimestamp',
  'lastTransitionTime',
  'lastUpdateTime',
  'lastHeartbeatTime',
  'lastProbeTime',
  'selfLink',
  'continue',
  'remainingItemCount',
  'generation',
]);
/** Keys left out on both sides: the sandbox keeps no field ownership (it does not implement server-side apply; README). */
const DROPPED_KEYS = new Set(['managedFields']);

export interface NormaliseOptions {
  /** Strings to replace wherever they appear (ports, addresses, generated names), longest first. */
  replace?: [string, string][];
  /** Extra keys to drop entirely (e.g. `annotations` of a kind where only one side writes some). */
  dropKeys?: string[];
}

export function normalise(value: unknown, opts: NormaliseOptions = {}, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => normalise(v, opts, key));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) {
      if (opts.dropKeys?.includes(k) || DROPPED_KEYS.has(k)) continue;
      if (VOLATILE_KEYS.has(k) && v !== undefined && v !== null && v !== '') {
        out[k] = `<${k}>`;
        continue;
      }
      out[k] = normalise(v, opts, k);
    }
    return out;
  }
  if (typeof value === 'string') {
    let s = value;
    for (const [from, to] of opts.replace ?? []) s = s.split(from).join(to);
    if (TIME.test(s)) return '<time>';
    if (UID.test(s)) return '<uid>';
    return s;
  }
  return value;
}

export interface Difference {
  path: string;
  sandbox: unknown;
  real: unknown;
}

const show = (v: unknown) => (v === undefined ? undefined : v);

/** Every path where the two normalised values differ (at most `max`). */
export function differences(
  sandbox: unknown,
  real: unknown,
  path = '$',
  out: Difference[] = [],
  max = 50,
): Difference[] {
  if (out.length >= max) return out;
  if (Array.isArray(sandbox) && Array.isArray(real)) {
    if (sandbox.length !== real.length)
      out.push({ path: `${path}.length`, sandbox: sandbox.length, real: real.length });
    for (let i = 0; i < Math.min(sandbox.length, real.length); i++)
      differences(sandbox[i], real[i], `${path}[${i}]`, out, max);
    return out;
  }
  if (
    sandbox &&
    real &&
    typeof sandbox === 'object' &&
    typeof real === 'object' &&
    !Array.isArray(sandbox) &&
    !Array.isArray(real)
  ) {
    const keys = new Set([...Object.keys(sandbox), ...Object.keys(real)]);
    for (const k of [...keys].sort())
      differences(
        (sandbox as Record<string, unknown>)[k],
        (real as Record<string, unknown>)[k],
        `${path}.${k}`,
        out,
        max,
      );
    return out;
  }
  if (JSON.stringify(sandbox) !== JSON.stringify(real)) out.push({ path, sandbox: show(sandbox), real: show(real) });
  return out;
}
