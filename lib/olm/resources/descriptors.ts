// The CSV's spec and status descriptors, read against an operand: each field's label, where it is
// (a dotted path, with [n] for list items), its value and how consoles show it, from the
// `urn:alm:descriptor:*` x-descriptors (operator-framework's descriptor list, as the OpenShift
// console reads them). And an operand's state in a word, from what operators commonly report.
import type { Condition } from './common';

export interface DescriptorDefinition {
  path: string;
  displayName?: string;
  description?: string;
  'x-descriptors'?: string[];
}

export type DescriptorView =
  | { kind: 'conditions'; conditions: Condition[] }
  | { kind: 'podStatuses'; pods: Record<string, string[]> }
  | { kind: 'resource'; resource: 'Secret' | 'ConfigMap' | 'Service' | 'Pod' | 'Namespace'; name: string }
  | { kind: 'link'; url: string }
  | { kind: 'phase'; phase: string }
  | { kind: 'value'; value: unknown };

export interface DescriptorRow {
  path: string;
  displayName: string;
  description?: string;
  /** Absent from the object (not set, or not reported yet). */
  missing: boolean;
  view: DescriptorView;
}

const X = 'urn:alm:descriptor:';

/** `a.b[0].c` into keys; an empty path is the object itself. */
function readPath(obj: unknown, path: string): unknown {
  if (!path) return obj;
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) return undefined;
    if (m[1]) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[m[1]] : undefined;
    for (const idx of m[2]!.match(/\d+/g) ?? []) cur = Array.isArray(cur) ? cur[Number(idx)] : undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

function hasX(d: DescriptorDefinition, x: string): boolean {
  return (d['x-descriptors'] ?? []).includes(`${X}${x}`);
}

function viewOf(d: DescriptorDefinition, value: unknown): DescriptorView {
  if (hasX(d, 'io.kubernetes.conditions') && Array.isArray(value))
    return { kind: 'conditions', conditions: value as Condition[] };
  if (hasX(d, 'com.tectonic.ui:podStatuses') && value && typeof value === 'object' && !Array.isArray(value)) {
    const pods = Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([state, names]) => [
        state,
        Array.isArray(names) ? names.map(String) : [],
      ]),
    );
    return { kind: 'podStatuses', pods };
  }
  if (typeof value === 'string') {
    for (const resource of ['Secret', 'ConfigMap', 'Service', 'Pod', 'Namespace'] as const)
      if (hasX(d, `io.kubernetes:${resource}`)) return { kind: 'resource', resource, name: value };
    // A link only when it is http(s): catalog content and operand status are not trusted.
    if (hasX(d, 'org.w3:link') && /^https?:\/\//i.test(value)) return { kind: 'link', url: value };
    if (hasX(d, 'io.kubernetes.phase')) return { kind: 'phase', phase: value };
  }
  return { kind: 'value', value };
}

/** Descriptors a console should not show (hidden), or that describe nothing. */
function shown(d: DescriptorDefinition): boolean {
  return typeof d.path === 'string' && !hasX(d, 'com.tectonic.ui:hidden');
}

export function descriptorRows(section: unknown, descriptors: readonly unknown[] | undefined): DescriptorRow[] {
  return (descriptors ?? [])
    .filter(
      (d): d is DescriptorDefinition =>
        !!d && typeof d === 'object' && typeof (d as DescriptorDefinition).path === 'string',
    )
    .filter(shown)
    .map((d) => {
      const value = readPath(section, d.path);
      return {
        path: d.path,
        displayName: d.displayName || d.path,
        ...(d.description ? { description: d.description } : {}),
        missing: value === undefined,
        view: viewOf(d, value),
      };
    });
}

export interface OperandState {
  label: string;
  tone: 'ok' | 'warning' | 'error' | 'neutral';
  detail?: string;
}

const GOOD = new Set([
  'ready',
  'running',
  'available',
  'healthy',
  'succeeded',
  'complete',
  'completed',
  'active',
  'bound',
]);
const BAD = new Set(['failed', 'error', 'degraded', 'crashloopbackoff']);

/**
 * An operand's state in a word: its Ready (else Available) condition, else its phase (the phase
 * status descriptor's field, else `status.phase`), else unknown. Operators report this in no fixed
 * way; these are the forms most of them use.
 */
export function operandState(obj: { status?: unknown }, statusDescriptors?: readonly unknown[]): OperandState {
  const status = (obj.status ?? {}) as { conditions?: Condition[]; phase?: unknown };
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  const c = conditions.find((x) => x.type === 'Ready') ?? conditions.find((x) => x.type === 'Available');
  if (c) {
    const detail = [c.reason, c.message].filter(Boolean).join(': ') || undefined;
    if (c.status === 'True') return { label: c.type, tone: 'ok', ...(detail ? { detail } : {}) };
    return {
      label: c.status === 'False' ? `Not ${c.type.toLowerCase()}` : `${c.type} unknown`,
      tone: c.status === 'False' ? 'warning' : 'neutral',
      ...(detail ? { detail } : {}),
    };
  }
  const degraded = conditions.find((x) => x.type === 'Degraded' && x.status === 'True');
  if (degraded) return { label: 'Degraded', tone: 'error', ...(degraded.message ? { detail: degraded.message } : {}) };
  const phaseDescriptor = (statusDescriptors ?? []).find((d) =>
    hasX(d as DescriptorDefinition, 'io.kubernetes.phase'),
  ) as DescriptorDefinition | undefined;
  const phase = phaseDescriptor ? readPath(obj.status, phaseDescriptor.path) : status.phase;
  if (typeof phase === 'string' && phase) {
    const p = phase.toLowerCase();
    return { label: phase, tone: GOOD.has(p) ? 'ok' : BAD.has(p) ? 'error' : 'neutral' };
  }
  return {
    label: 'Unknown',
    tone: 'neutral',
    detail: 'the operator reports no Ready or Available condition and no phase',
  };
}
