// OCM v1.0.0's work agent for the sandbox's member clusters, which run in this process: a
// ManifestWork in a member's namespace on the hub has its manifests applied on that member (made,
// or updated where they differ from what the work says), its status written as the agent writes it
// (per manifest: resourceMeta, Applied, Available, StatusFeedbackSynced and the values of its
// `manifestConfigs` feedback rules, then its condition rules (CEL or WellKnownConditions, with
// their message or messageExpression), each setting the condition it names with reason
// ConditionRuleEvaluated, so a rule named Available replaces "it exists"
// (ocm pkg/work/spoke/controllers/statuscontroller/availablestatus_controller.go, conditions/reader.go);
// for the work: Applied and Available), and its objects removed
// when it is deleted (the agent's finalizer), but for those its `deleteOption` orphans
// (propagationPolicy Orphan, or SelectivelyOrphan's rules: ocm pkg/work/helper OwnedByTheWork),
// which stay as they are. The applied objects carry no owner reference to an AppliedManifestWork
// (the sandbox's members have no such kind; OCM gives an orphaned object none either, so a later
// work applies over it as over any object: apply/update_apply.go merges owners and updates)
// (docs/sandbox.md#open-cluster-management).
import { evalJsonPath } from '../apimachinery/table';
import { evaluate } from '../olm-v1/cel/evaluate';
import { parseCel } from '../olm-v1/cel/parse';
import { setCondition, type Condition } from '../olm-v1/conditions';
import type { ApiServer } from '../server/api-server';
import type { ServedResource } from '../server/resources';
import type { KObject } from '../store/types';
import { writeStatus, WORK_CLEANUP_FINALIZER, type OcmKinds } from './objects';
import type { OcmMember } from './registration';

interface JsonPath {
  name: string;
  path: string;
  version?: string;
}
interface FeedbackRule {
  type: 'WellKnownStatus' | 'JSONPaths';
  jsonPaths?: JsonPath[];
}
interface ConditionRule {
  condition: string;
  type: 'CEL' | 'WellKnownConditions';
  celExpressions?: string[];
  message?: string;
  messageExpression?: string;
}
interface ManifestConfig {
  resourceIdentifier: { group?: string; resource: string; name: string; namespace?: string };
  feedbackRules?: FeedbackRule[];
  conditionRules?: ConditionRule[];
}
interface OrphaningRule {
  group?: string;
  resource: string;
  name: string;
  namespace?: string;
}
interface WorkSpec {
  workload?: { manifests?: KObject[] };
  manifestConfigs?: ManifestConfig[];
  deleteOption?: {
    propagationPolicy?: 'Foreground' | 'Orphan' | 'SelectivelyOrphan';
    selectivelyOrphans?: { orphaningRules?: OrphaningRule[] };
  };
}

/** Whether deleting the work leaves this object (OCM's OwnedByTheWork, negated). */
function orphaned(spec: WorkSpec, r: ServedResource, namespace: string, name: string): boolean {
  const d = spec.deleteOption;
  if (d?.propagationPolicy === 'Orphan') return true;
  if (d?.propagationPolicy !== 'SelectivelyOrphan') return false;
  return (d.selectivelyOrphans?.orphaningRules ?? []).some(
    (o) =>
      (o.group ?? '') === r.group && o.resource === r.resource && o.name === name && (o.namespace ?? '') === namespace,
  );
}
type ManifestStatus = {
  resourceMeta: Record<string, unknown>;
  statusFeedback: { values?: unknown[] };
  conditions: Condition[];
};

/** The statuses OCM's agent reads for a kind without rules of its own (its WellKnownStatus rules). */
const WELL_KNOWN: Record<string, JsonPath[]> = {
  'apps/v1/Deployment': [
    { name: 'ReadyReplicas', path: '.status.readyReplicas' },
    { name: 'Replicas', path: '.status.replicas' },
    { name: 'AvailableReplicas', path: '.status.availableReplicas' },
  ],
  'apps/v1/DaemonSet': [
    { name: 'NumberReady', path: '.status.numberReady' },
    { name: 'DesiredNumberScheduled', path: '.status.desiredNumberScheduled' },
    { name: 'NumberAvailable', path: '.status.numberAvailable' },
  ],
  'batch/v1/Job': [
    { name: 'JobComplete', path: '.status.conditions[?(@.type=="Complete")].status' },
    { name: 'JobSucceeded', path: '.status.succeeded' },
  ],
  'v1/Pod': [
    { name: 'PodReady', path: '.status.conditions[?(@.type=="Ready")].status' },
    { name: 'PodPhase', path: '.status.phase' },
  ],
};

/** One value as the agent reports it: integers, strings and booleans; anything else is an error. */
function fieldValue(name: string, v: unknown): { value?: unknown; error?: string } {
  if (v === undefined || v === null) return {};
  if (typeof v === 'number' && Number.isInteger(v))
    return { value: { name, fieldValue: { type: 'Integer', integer: v } } };
  if (typeof v === 'string') return { value: { name, fieldValue: { type: 'String', string: v } } };
  if (typeof v === 'boolean') return { value: { name, fieldValue: { type: 'Boolean', boolean: v } } };
  const goType = typeof v === 'number' ? 'float64' : Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}';
  return { error: `the type ${goType} of the value for ${name} is not found` };
}

function feedback(
  o: KObject,
  rules: FeedbackRule[] | undefined,
): { values: unknown[]; condition: Omit<Condition, 'lastTransitionTime'> } {
  const type = 'StatusFeedbackSynced';
  if (!rules?.length)
    return { values: [], condition: { type, status: 'True', reason: 'NoStatusFeedbackSynced', message: '' } };
  const values: unknown[] = [];
  const errors: string[] = [];
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
  for (const rule of rules) {
    let paths: JsonPath[] = [];
    if (rule.type === 'WellKnownStatus') {
      paths = WELL_KNOWN[`${o.apiVersion}/${o.kind}`] ?? [];
      if (!paths.length)
        errors.push(`cannot find the wellknown statuses for resource with gvk ${group}/${version}, Kind=${o.kind}`);
    } else
      for (const p of rule.jsonPaths ?? []) {
        if (p.version && p.version !== version) {
          errors.push(`version set in the path ${p.name} is not matched for the related resource`);
          continue;
        }
        paths.push(p);
      }
    for (const p of paths) {
      const r = fieldValue(p.name, evalJsonPath(o, p.path));
      if (r.error) errors.push(r.error);
      else if (r.value) values.push(r.value);
    }
  }
  if (errors.length)
    return {
      values,
      condition: {
        type,
        status: 'False',
        reason: 'StatusFeedbackSyncFailed',
        message: `Sync status feedback failed with error ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`,
      },
    };
  return { values, condition: { type, status: 'True', reason: 'StatusFeedbackSynced', message: '' } };
}

/**
 * OCM's WellKnownConditions: a `Complete` condition for a Job (finished: its Complete or Failed
 * condition True) and a Pod (in phase Succeeded or Failed), with the messages OCM's hardcoded
 * rules build (ocm pkg/work/spoke/conditions/rules). OCM writes the Job's test in CEL with its
 * own `hasConditions` function and a list literal the sandbox's CEL lacks, so it is TypeScript here.
 */
const WELL_KNOWN_CONDITIONS: Record<
  string,
  Record<string, { holds: (o: KObject) => boolean; messageExpression: string }>
> = {
  'batch/v1/Job': {
    Complete: {
      holds: (o) =>
        ((o.status as { conditions?: Condition[] })?.conditions ?? []).some(
          (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
        ),
      messageExpression: 'result ? "Job is finished" : "Job is not finished"',
    },
  },
  'v1/Pod': {
    Complete: {
      holds: (o) => ['Succeeded', 'Failed'].includes((o.status as { phase?: string })?.phase ?? ''),
      messageExpression: '"Pod is in phase " + object.status.phase',
    },
  },
};

type RuleCondition = Omit<Condition, 'lastTransitionTime'>;

/**
 * The condition's message as OCM's condition reader builds it: the rule's messageExpression over
 * `object` and `result` when it gives a non-empty string, else its message, else "Manifest is
 * (not) <condition>"; an expression that fails or gives no string puts its error in the message.
 */
function ruleMessage(o: KObject, rule: ConditionRule, result: boolean): string {
  if (rule.messageExpression) {
    let v: unknown;
    try {
      v = evaluate(parseCel(rule.messageExpression), { object: o, result });
    } catch (err) {
      return (err as Error).message;
    }
    if (typeof v !== 'string') return `expected message expression to have a string result, got ${goTypeName(v)}`;
    if (v !== '') return v;
  }
  return rule.message || `Manifest is ${result ? '' : 'not '}${rule.condition}`;
}

/**
 * The Go type of a CEL result in OCM's error message (reflect.TypeOf of cel-go's Value()): int64,
 * float64 and bool as cel-go gives them; a list or map as a CEL literal builds it (one read from
 * the object is a Go slice or map there, which the sandbox does not tell apart).
 */
function goTypeName(v: unknown): string {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || typeof v === 'bigint') return Number.isInteger(Number(v)) ? 'int64' : 'float64';
  if (v === null) return 'structpb.NullValue';
  return Array.isArray(v) ? '[]ref.Val' : 'map[ref.Val]ref.Val';
}

/**
 * A rule's condition as OCM's condition reader writes it. CEL: True when every expression is true
 * over `object`; False at the first false one, or at one that fails (ConditionRuleExpressionError,
 * the error as message). WellKnownConditions: OCM's own rule for the kind and condition, its
 * message or messageExpression overridden by the rule's; nothing for a kind or condition it has
 * no rule for.
 */
function ruleCondition(o: KObject, rule: ConditionRule): RuleCondition | undefined {
  if (rule.type === 'WellKnownConditions') {
    const known = WELL_KNOWN_CONDITIONS[`${o.apiVersion}/${o.kind}`]?.[rule.condition];
    if (!known) return undefined;
    const result = known.holds(o);
    const message = ruleMessage(
      o,
      { ...rule, messageExpression: rule.messageExpression || known.messageExpression },
      result,
    );
    return {
      type: rule.condition,
      status: result ? 'True' : 'False',
      reason: 'ConditionRuleEvaluated',
      message,
    };
  }
  if (rule.type !== 'CEL') return undefined;
  let holds = true;
  for (const expression of rule.celExpressions ?? []) {
    let v: unknown;
    try {
      v = evaluate(parseCel(expression), { object: o });
    } catch (err) {
      return {
        type: rule.condition,
        status: 'False',
        reason: 'ConditionRuleExpressionError',
        message: (err as Error).message,
      };
    }
    if (typeof v !== 'boolean')
      return {
        type: rule.condition,
        status: 'False',
        reason: 'ConditionRuleExpressionError',
        message: `expected bool result, got ${typeof v}`,
      };
    if (!v) {
      holds = false;
      break;
    }
  }
  return {
    type: rule.condition,
    status: holds ? 'True' : 'False',
    reason: 'ConditionRuleEvaluated',
    message: ruleMessage(o, rule, holds),
  };
}

/** Whether every field the manifest states has that value on the object (what the cluster added is kept). */
function covers(want: unknown, have: unknown): boolean {
  if (want === null || typeof want !== 'object') return want === have;
  if (Array.isArray(want))
    return Array.isArray(have) && want.length === have.length && want.every((w, i) => covers(w, have[i]));
  if (have === null || typeof have !== 'object' || Array.isArray(have)) return false;
  return Object.entries(want).every(([k, v]) => covers(v, (have as Record<string, unknown>)[k]));
}

function resourceFor(api: ApiServer, o: KObject): ServedResource | undefined {
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
  return api.resources.all().find((r) => r.group === group && r.versions.includes(version!) && r.kind === o.kind);
}

export class WorkAgent {
  constructor(
    private readonly hub: ApiServer,
    private readonly kinds: OcmKinds,
    private readonly members: readonly OcmMember[],
  ) {}

  /** The works the agent of `cluster` would see: those in its namespace on the hub. */
  worksOf(cluster: string): string[] {
    if (!this.members.some((m) => m.name === cluster)) return [];
    return this.hub.storeList(this.kinds.works, cluster).map((w) => w.metadata.name!);
  }

  reconcile(cluster: string, name: string): void {
    const member = this.members.find((m) => m.name === cluster);
    let work = this.hub.storeGet(this.kinds.works, cluster, name);
    if (!member || !work) return;
    if (work.metadata.deletionTimestamp) return this.remove(member, work);
    if (!work.metadata.finalizers?.includes(WORK_CLEANUP_FINALIZER))
      work = this.hub.updateObject(this.kinds.works, {
        ...work,
        metadata: { ...work.metadata, finalizers: [...(work.metadata.finalizers ?? []), WORK_CLEANUP_FINALIZER] },
      });
    const spec = (work.spec ?? {}) as WorkSpec;
    const manifests = spec.workload?.manifests ?? [];
    const old = ((work.status as { resourceStatus?: { manifests?: ManifestStatus[] } })?.resourceStatus?.manifests ??
      []) as ManifestStatus[];
    const statuses: ManifestStatus[] = manifests.map((m, ordinal) => {
      const before = old.find((s) => s.resourceMeta.ordinal === ordinal)?.conditions ?? [];
      return this.applyOne(member.api, m, ordinal, before, spec.manifestConfigs ?? []);
    });
    const applied = statuses.filter((s) => s.conditions.some((c) => c.type === 'Applied' && c.status === 'True'));
    const available = statuses.filter((s) => s.conditions.some((c) => c.type === 'Available' && c.status === 'True'));
    const generation = work.metadata.generation;
    let conditions = ((work.status as { conditions?: Condition[] })?.conditions ?? []) as Condition[];
    if (statuses.length) {
      const ok = applied.length === statuses.length;
      conditions = setCondition(conditions, {
        type: 'Applied',
        status: ok ? 'True' : 'False',
        reason: ok ? 'AppliedManifestWorkComplete' : 'AppliedManifestWorkFailed',
        message: ok ? 'Apply manifest work complete' : 'Failed to apply manifest work',
        observedGeneration: generation,
      });
      const missing = statuses.length - available.length;
      conditions = setCondition(conditions, {
        type: 'Available',
        status: missing ? 'False' : 'True',
        reason: missing ? 'ResourcesNotAvailable' : 'ResourcesAvailable',
        message: missing
          ? `${missing} of ${statuses.length} resources are not available`
          : 'All resources are available',
        observedGeneration: generation,
      });
    }
    writeStatus(this.hub, this.kinds.works, work, { conditions, resourceStatus: { manifests: statuses } });
  }

  private applyOne(
    api: ApiServer,
    m: KObject,
    ordinal: number,
    before: Condition[],
    configs: ManifestConfig[],
  ): ManifestStatus {
    const r = resourceFor(api, m);
    const [group, version] = m.apiVersion?.includes('/') ? m.apiVersion.split('/') : ['', m.apiVersion ?? ''];
    const resourceMeta = {
      group,
      kind: m.kind,
      name: m.metadata?.name ?? '',
      namespace: m.metadata?.namespace ?? '',
      ordinal,
      resource: r?.resource ?? '',
      version,
    };
    let conditions = before;
    let live: KObject | undefined;
    let error: string | undefined;
    if (!r) error = `no matches for kind "${m.kind}" in version "${m.apiVersion}"`;
    else {
      try {
        live = this.apply(api, r, m);
      } catch (err) {
        error = (err as Error).message;
      }
    }
    conditions = setCondition(
      conditions,
      error
        ? {
            type: 'Applied',
            status: 'False',
            reason: 'AppliedManifestFailed',
            message: `Failed to apply manifest: ${error}`,
          }
        : { type: 'Applied', status: 'True', reason: 'AppliedManifestComplete', message: 'Apply manifest complete' },
    );
    conditions = setCondition(
      conditions,
      live
        ? { type: 'Available', status: 'True', reason: 'ResourceAvailable', message: 'Resource is available' }
        : { type: 'Available', status: 'False', reason: 'ResourceNotAvailable', message: 'Resource is not available' },
    );
    let values: unknown[] = [];
    if (live) {
      const config = configs.find(
        (c) =>
          (c.resourceIdentifier.group ?? '') === group &&
          c.resourceIdentifier.resource === r!.resource &&
          c.resourceIdentifier.name === resourceMeta.name &&
          (c.resourceIdentifier.namespace ?? '') === resourceMeta.namespace,
      );
      const fb = feedback(live, config?.feedbackRules);
      values = fb.values;
      conditions = setCondition(conditions, fb.condition);
      for (const rule of config?.conditionRules ?? []) {
        const c = ruleCondition(live, rule);
        if (c) conditions = setCondition(conditions, c);
      }
    }
    return { resourceMeta, statusFeedback: values.length ? { values } : {}, conditions };
  }

  /** Made, or updated where the manifest's fields differ; the object as the member now has it. */
  private apply(api: ApiServer, r: ServedResource, m: KObject): KObject {
    const ns = r.namespaced ? m.metadata.namespace : undefined;
    const existing = api.storeGet(r, ns, m.metadata.name ?? '');
    if (!existing) return api.createObject(r, structuredClone(m));
    const { metadata, ...rest } = m;
    const body: Partial<KObject> = { ...rest };
    delete body.status;
    if (covers(body, existing) && covers(metadata.labels ?? {}, existing.metadata.labels ?? {})) return existing;
    return api.updateObject(r, {
      ...existing,
      ...structuredClone(body),
      metadata: {
        ...existing.metadata,
        labels: { ...existing.metadata.labels, ...metadata.labels },
        annotations: { ...existing.metadata.annotations, ...metadata.annotations },
      },
    } as KObject);
  }

  /** The agent's cleanup: the work's objects deleted from the member but the orphaned, then its finalizer let go. */
  private remove(member: OcmMember, work: KObject): void {
    const spec = (work.spec ?? {}) as WorkSpec;
    for (const m of (spec.workload?.manifests ?? []) as KObject[]) {
      const r = resourceFor(member.api, m);
      if (!r) continue;
      const ns = r.namespaced ? m.metadata.namespace : undefined;
      if (orphaned(spec, r, ns ?? '', m.metadata.name ?? '')) continue;
      if (member.api.storeGet(r, ns, m.metadata.name ?? ''))
        member.api.deleteObject(r, ns, m.metadata.name ?? '', { propagationPolicy: 'Foreground' });
    }
    if (work.metadata.finalizers?.includes(WORK_CLEANUP_FINALIZER))
      this.hub.updateObject(this.kinds.works, {
        ...work,
        metadata: {
          ...work.metadata,
          finalizers: work.metadata.finalizers.filter((f) => f !== WORK_CLEANUP_FINALIZER),
        },
      });
  }
}
