// `olm.maxOpenShiftVersion`: the newest OpenShift minor an operator runs on. OLM on OpenShift
// (operator-lifecycle-manager v0.38.0, pkg/controller/operators/openshift/helpers.go) reads it
// from the CSV's projected properties annotation, accepts major.minor only, treats a second
// property, an empty or unparsable value as an error that blocks by itself, and blocks a minor
// upgrade when the value is below the next minor (ClusterOperator operator-lifecycle-manager,
// Upgradeable=False, IncompatibleOperatorsInstalled).

export interface Minor {
  major: number;
  minor: number;
}

export type MaxOpenShift =
  { kind: 'none' } | { kind: 'max'; max: Minor; text: string } | { kind: 'invalid'; error: string };

const PROPERTY = 'olm.maxOpenShiftVersion';
const ANNOTATION = 'operatorframework.io/properties';

/** Go semver's ParseTolerant, as far as this rule needs it: v-prefix, missing minor/patch. */
function parseTolerant(text: string): { major: number; minor: number; patch: number; rest: string } | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?([-+].*)?$/.exec(text.trim());
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2] ?? 0), patch: Number(m[3] ?? 0), rest: m[4] ?? '' };
}

/** One property value (a string, or a YAML number a catalog wrote unquoted) as OLM judges it. */
export function judgeValue(raw: unknown): MaxOpenShift {
  const value = String(raw ?? '').replace(/^"+|"+$/g, '');
  if (value === '') return { kind: 'invalid', error: 'value cannot be "" (an empty string)' };
  const v = parseTolerant(value);
  if (!v) return { kind: 'invalid', error: `failed to parse "${value}" as semver` };
  if (v.patch !== 0 || v.rest)
    return {
      kind: 'invalid',
      error: `property ${PROPERTY} must specify only <major>.<minor> version, got invalid value ${value}`,
    };
  return { kind: 'max', max: { major: v.major, minor: v.minor }, text: `${v.major}.${v.minor}` };
}

/** From a CSV's annotations, as OLM's maxOpenShiftVersion() reads them. */
export function maxOpenShiftVersionOf(annotations: Record<string, string> | undefined): MaxOpenShift {
  const text = annotations?.[ANNOTATION];
  if (!text) return { kind: 'none' };
  let props: { type?: string; value?: unknown }[];
  try {
    props = (JSON.parse(text) as { properties?: { type?: string; value?: unknown }[] }).properties ?? [];
  } catch (err) {
    return { kind: 'invalid', error: `the ${ANNOTATION} annotation is not JSON: ${(err as Error).message}` };
  }
  const found = props.filter((p) => p?.type === PROPERTY);
  if (found.length === 0) return { kind: 'none' };
  if (found.length > 1)
    return { kind: 'invalid', error: `defining more than one "${PROPERTY}" property is not allowed` };
  return judgeValue(found[0]!.value);
}

/** A minor version as a person writes it ("4.19", "4.19.3"), or undefined. */
export function parseMinor(text: string | undefined): Minor | undefined {
  const v = text ? parseTolerant(text) : undefined;
  return v ? { major: v.major, minor: v.minor } : undefined;
}

export function nextMinor(v: Minor): Minor {
  return { major: v.major, minor: v.minor + 1 };
}

/** Whether an operator whose max is `max` blocks moving the cluster to `target`. */
export function blocksTarget(max: Minor, target: Minor): boolean {
  return max.major < target.major || (max.major === target.major && max.minor < target.minor);
}

export const formatMinor = (m: Minor) => `${m.major}.${m.minor}`;
