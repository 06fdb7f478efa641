// The rollout form's state as a person types it, the choices the rollout routes take built from
// it, and the routes' refusals put back beside the field each is about. The routes judge every
// choice (lib/server/rollouts/body.ts shapes them, lib/olm/rollout/choices.ts checks their
// meaning); this file only turns text fields into that shape and never decides what is valid.
import type { ApiErrorBody } from '@/lib/client/api';
import type { LabelRequirement, RolloutChoices } from '@/lib/olm/rollout/choices';

export type Field =
  | 'name'
  | 'hubNamespace'
  | 'olm'
  | 'package'
  | 'catalog'
  | 'channel'
  | 'version'
  | 'approval'
  | 'installNamespace'
  | 'clusterSets'
  | 'labels'
  | 'claims'
  | 'canary'
  | 'waveSize'
  | 'progressDeadline'
  | 'minSuccessTime'
  | 'operatorPolicy';

export interface ClaimRow {
  key: string;
  operator: LabelRequirement['operator'];
  /** Comma-separated, for In and NotIn. */
  values: string;
}

export interface RolloutForm {
  name: string;
  hubNamespace: string;
  olm: 'v0' | 'v1';
  package: string;
  /** v0: `<namespace>/<name>` of a CatalogSource; v1: a ClusterCatalog's name. */
  catalog: string;
  channel: string;
  version: string;
  approval: 'Automatic' | 'Manual';
  installNamespace: string;
  /** Comma-separated ManagedClusterSet names. */
  clusterSets: string;
  /** `key=value` pairs, comma-separated. */
  labels: string;
  claims: ClaimRow[];
  canary: string;
  waveSize: string;
  progressDeadline: string;
  minSuccessTime: string;
  /** OLM v0: install through an OperatorPolicy on each cluster instead of a Subscription of the rollout's own. */
  policy: { on: boolean; namespace: string; allowedVersions: string; upgradeApproval: 'Automatic' | 'None' };
}

export type FieldProblems = Partial<Record<Field, string[]>>;

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** `a=b, c=d` as labels; a pair without `=` is said to be one, in the field's words. */
function labelPairs(text: string): { labels?: Record<string, string>; problem?: string } {
  const pairs = list(text);
  if (!pairs.length) return {};
  const labels: Record<string, string> = {};
  for (const p of pairs) {
    const at = p.indexOf('=');
    if (at <= 0) return { problem: `"${p}" is not key=value` };
    labels[p.slice(0, at).trim()] = p.slice(at + 1).trim();
  }
  return { labels };
}

/**
 * The choices the routes take, or what keeps the text from being read as them at all (a label
 * pair without `=`, a wave size that is no number). Everything else is for the server to judge.
 */
export function choicesOf(f: RolloutForm): { choices: RolloutChoices } | { problems: FieldProblems } {
  const problems: FieldProblems = {};
  const labels = labelPairs(f.labels);
  const canary = labelPairs(f.canary);
  if (labels.problem) problems.labels = [labels.problem];
  if (canary.problem) problems.canary = [canary.problem];
  const waveSize = Number(f.waveSize.trim());
  if (!f.waveSize.trim() || Number.isNaN(waveSize)) problems.waveSize = ['must be a number of clusters'];
  if (!f.catalog) problems.catalog = [`choose a ${f.olm === 'v0' ? 'CatalogSource' : 'ClusterCatalog'}`];
  if (Object.keys(problems).length) return { problems };
  const [catalogNamespace, catalogName] = f.olm === 'v0' ? f.catalog.split('/') : [undefined, f.catalog];
  const claims = f.claims
    .filter((c) => c.key.trim())
    .map((c) => ({
      key: c.key.trim(),
      operator: c.operator,
      ...(c.operator === 'In' || c.operator === 'NotIn' ? { values: list(c.values) } : {}),
    }));
  const choices: RolloutChoices = {
    name: f.name.trim(),
    hubNamespace: f.hubNamespace.trim(),
    olm: f.olm,
    package: f.package.trim(),
    ...(f.channel ? { channel: f.channel } : {}),
    ...(f.version.trim() ? { version: f.version.trim() } : {}),
    ...(f.olm === 'v0' ? { approval: f.approval } : {}),
    installNamespace: f.installNamespace.trim(),
    catalog: { name: catalogName ?? '', ...(catalogNamespace !== undefined ? { namespace: catalogNamespace } : {}) },
    placement: {
      clusterSets: list(f.clusterSets),
      ...(labels.labels ? { labels: labels.labels } : {}),
      ...(claims.length ? { claims } : {}),
    },
    ...(canary.labels ? { canary: canary.labels } : {}),
    waveSize,
    ...(f.progressDeadline.trim() ? { progressDeadline: f.progressDeadline.trim() } : {}),
    ...(f.minSuccessTime.trim() ? { minSuccessTime: f.minSuccessTime.trim() } : {}),
    ...(f.olm === 'v0' && f.policy.on
      ? {
          operatorPolicy: {
            namespace: f.policy.namespace.trim(),
            allowedVersions: list(f.policy.allowedVersions),
            upgradeApproval: f.policy.upgradeApproval,
          },
        }
      : {}),
  };
  return { choices };
}

// Where a field of the request body is on the form: a 400's `details` give each refusal's path, the
// schema's issues and the rollout's own refusals (lib/olm/rollout/choices.ts) alike.
const PATH_FIELDS: Record<string, Field> = {
  name: 'name',
  hubNamespace: 'hubNamespace',
  olm: 'olm',
  package: 'package',
  catalog: 'catalog',
  channel: 'channel',
  version: 'version',
  approval: 'approval',
  installNamespace: 'installNamespace',
  canary: 'canary',
  waveSize: 'waveSize',
  progressDeadline: 'progressDeadline',
  minSuccessTime: 'minSuccessTime',
  operatorPolicy: 'operatorPolicy',
  clusterSets: 'clusterSets',
  labels: 'labels',
  claims: 'claims',
};

interface Issue {
  path?: unknown[];
  message?: string;
}

/**
 * A 400 from the rollout routes, each refusal beside its field; what names no field of the form
 * stays in `rest`, to be shown above it. Other errors are all `rest`.
 */
export function fieldProblemsOf(error: ApiErrorBody): { fields: FieldProblems; rest: string[] } {
  const fields: FieldProblems = {};
  const rest: string[] = [];
  const add = (field: Field | undefined, message: string) => {
    if (field) (fields[field] ??= []).push(message);
    else rest.push(message);
  };
  if (error.code !== 400) return { fields, rest: [error.message] };
  const issues = Array.isArray(error.details) ? (error.details as Issue[]) : undefined;
  if (issues?.length) {
    for (const i of issues) {
      const path = (i.path ?? []).map(String);
      const key = path[0] === 'placement' ? path[1] : path[0];
      const message = i.message ?? 'is not valid';
      const field = key ? PATH_FIELDS[key] : undefined;
      add(field, field ? message : `${path.join('.') || 'the request'}: ${message}`);
    }
    return { fields, rest };
  }
  return { fields, rest: [error.message] };
}
