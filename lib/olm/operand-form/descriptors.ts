// The CSV's spec descriptors as the form reads them: a descriptor's path (`a.b`, `a[0].b`) turned
// into the schema path it labels (`a.b`, `a[*].b`: a descriptor on one list item labels them all,
// as consoles read it), and the `urn:alm:descriptor:*` x-descriptors this form honours
// (operator-framework's descriptor list), `fieldDependency` among them, and the
// `io.kubernetes:<Kind>` references a picker can offer names for (Namespace, Secret, ConfigMap,
// StorageClass, PriorityClass). Others (fieldGroup, selector, affinities, tolerations…) are
// ignored: the schema's own fields stand in for them.

export interface SpecDescriptor {
  path: string;
  displayName?: string;
  description?: string;
  'x-descriptors'?: string[];
}

const X = 'urn:alm:descriptor:';

export type DescriptorHint =
  | 'text'
  | 'number'
  | 'podCount'
  | 'switch'
  | 'checkbox'
  | 'select'
  | 'password'
  | 'resources'
  | 'namespace'
  | 'secret'
  | 'configmap'
  | 'storageclass'
  | 'priorityclass'
  | 'imagePullPolicy';

export interface DescriptorInfo {
  /** Index in the CSV's list: the form's order. */
  order: number;
  displayName?: string;
  description?: string;
  hint?: DescriptorHint;
  /** Values of `com.tectonic.ui:select:<value>`. */
  options: string[];
  hidden: boolean;
  advanced: boolean;
  /** `com.tectonic.ui:fieldDependency:<path>:<value>`: shown only while the field at `path` (dotted, from the spec) holds `value`. */
  dependsOn?: { path: string; value: string };
}

/** The values Kubernetes accepts for a container's imagePullPolicy (core/v1 PullPolicy). */
export const IMAGE_PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];

const DEPENDENCY = `${X}com.tectonic.ui:fieldDependency:`;

function dependencyOf(xs: readonly string[]): DescriptorInfo['dependsOn'] {
  const x = xs.find((s) => s.startsWith(DEPENDENCY));
  if (!x) return undefined;
  // A path has no colon; the value may (everything after the path's colon).
  const rest = x.slice(DEPENDENCY.length);
  const i = rest.indexOf(':');
  return i > 0 ? { path: rest.slice(0, i), value: rest.slice(i + 1) } : undefined;
}

/** `a[0].b` and `a.b[3]` → `a[*].b`, `a.b[*]`: the schema path a descriptor labels. */
export function schemaPathOf(descriptorPath: string): string {
  return descriptorPath.replace(/\[\d+\]/g, '[*]');
}

function hintOf(xs: readonly string[]): DescriptorHint | undefined {
  const has = (x: string) => xs.includes(`${X}${x}`);
  if (has('com.tectonic.ui:resourceRequirements')) return 'resources';
  if (has('io.kubernetes:Namespace')) return 'namespace';
  if (has('io.kubernetes:Secret')) return 'secret';
  if (has('io.kubernetes:ConfigMap')) return 'configmap';
  if (has('io.kubernetes:StorageClass')) return 'storageclass';
  if (has('io.kubernetes:PriorityClass')) return 'priorityclass';
  if (has('com.tectonic.ui:password')) return 'password';
  if (has('com.tectonic.ui:imagePullPolicy')) return 'imagePullPolicy';
  if (has('com.tectonic.ui:booleanSwitch')) return 'switch';
  if (has('com.tectonic.ui:checkbox')) return 'checkbox';
  if (xs.some((x) => x.startsWith(`${X}com.tectonic.ui:select:`))) return 'select';
  if (has('com.tectonic.ui:podCount')) return 'podCount';
  if (has('com.tectonic.ui:number')) return 'number';
  if (has('com.tectonic.ui:text')) return 'text';
  return undefined;
}

/** The spec descriptors by schema path; the first descriptor of a path wins, as in a list. */
export function descriptorIndex(descriptors: readonly unknown[] | undefined): Map<string, DescriptorInfo> {
  const out = new Map<string, DescriptorInfo>();
  (descriptors ?? []).forEach((raw, order) => {
    if (!raw || typeof raw !== 'object') return;
    const d = raw as SpecDescriptor;
    if (typeof d.path !== 'string' || !d.path) return;
    const key = schemaPathOf(d.path);
    if (out.has(key)) return;
    const xs = Array.isArray(d['x-descriptors'])
      ? d['x-descriptors'].filter((x): x is string => typeof x === 'string')
      : [];
    out.set(key, {
      order,
      ...(typeof d.displayName === 'string' && d.displayName ? { displayName: d.displayName } : {}),
      ...(typeof d.description === 'string' && d.description ? { description: d.description } : {}),
      hint: hintOf(xs),
      options: xs
        .filter((x) => x.startsWith(`${X}com.tectonic.ui:select:`))
        .map((x) => x.slice(`${X}com.tectonic.ui:select:`.length)),
      hidden: xs.includes(`${X}com.tectonic.ui:hidden`),
      advanced: xs.includes(`${X}com.tectonic.ui:advanced`),
      ...(dependencyOf(xs) ? { dependsOn: dependencyOf(xs) } : {}),
    });
  });
  return out;
}
