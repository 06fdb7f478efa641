// `kubectl get` columns of the workload and networking kinds, as kube-apiserver's built-in
// printers compute them (k8s.io/kubernetes pkg/printers/internalversion): several cells are
// made of more than one field ("1/3" ready), and the wide ones (priority 1) list containers,
// images and the selector. Ages come from humanAge, as for every built-in.
import { humanAge, type TableColumn } from '../apimachinery/table';
import type { KObject } from '../store/types';

type Obj = Record<string, unknown>;

const get = (o: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((cur, k) => (cur && typeof cur === 'object' ? (cur as Obj)[k] : undefined), o);
const int = (v: unknown) => (typeof v === 'number' ? v : 0);

/** metav1.FormatLabelSelector: `a=b,c in (x,y)`, `<none>` for an empty or missing selector. */
export function formatSelector(sel: unknown): string {
  if (!sel || typeof sel !== 'object') return '<none>';
  const s = sel as { matchLabels?: Record<string, string>; matchExpressions?: Obj[] };
  const parts = Object.entries(s.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of s.matchExpressions ?? []) {
    const values = ((e.values as string[] | undefined) ?? []).join(',');
    const key = String(e.key);
    if (e.operator === 'In') parts.push(`${key} in (${values})`);
    else if (e.operator === 'NotIn') parts.push(`${key} notin (${values})`);
    else if (e.operator === 'Exists') parts.push(key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${key}`);
  }
  return parts.length ? parts.join(',') : '<none>';
}

function templateContainers(o: KObject, ...templatePath: string[]): Obj[] {
  return (get(o, ...templatePath, 'spec', 'containers') as Obj[] | undefined) ?? [];
}

/** CONTAINERS, IMAGES and (unless told not to) SELECTOR, shown by `-o wide`. */
function wide(templatePath: string[], selector = true): TableColumn[] {
  const cols: TableColumn[] = [
    {
      name: 'Containers',
      type: 'string',
      jsonPath: '.spec.template.spec.containers[*].name',
      priority: 1,
      value: (o) =>
        templateContainers(o, ...templatePath)
          .map((c) => c.name)
          .join(','),
    },
    {
      name: 'Images',
      type: 'string',
      jsonPath: '.spec.template.spec.containers[*].image',
      priority: 1,
      value: (o) =>
        templateContainers(o, ...templatePath)
          .map((c) => c.image)
          .join(','),
    },
  ];
  if (selector)
    cols.push({
      name: 'Selector',
      type: 'string',
      jsonPath: '.spec.selector',
      priority: 1,
      value: (o) => formatSelector(get(o, 'spec', 'selector')),
    });
  return cols;
}

const age: TableColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };
const ratio = (o: KObject) => `${int(get(o, 'status', 'readyReplicas'))}/${get(o, 'spec', 'replicas') ?? 1}`;
const template = ['spec', 'template'];

export const DEPLOYMENT_COLUMNS: TableColumn[] = [
  { name: 'Ready', type: 'string', jsonPath: '.status.readyReplicas', value: ratio },
  { name: 'Up-to-date', type: 'integer', jsonPath: '.status.updatedReplicas' },
  { name: 'Available', type: 'integer', jsonPath: '.status.availableReplicas' },
  age,
  ...wide(template),
];

export const REPLICASET_COLUMNS: TableColumn[] = [
  { name: 'Desired', type: 'integer', jsonPath: '.spec.replicas', value: (o) => get(o, 'spec', 'replicas') ?? 1 },
  { name: 'Current', type: 'integer', jsonPath: '.status.replicas' },
  { name: 'Ready', type: 'integer', jsonPath: '.status.readyReplicas' },
  age,
  ...wide(template),
];

export const STATEFULSET_COLUMNS: TableColumn[] = [
  { name: 'Ready', type: 'string', jsonPath: '.status.readyReplicas', value: ratio },
  age,
  ...wide(template, false),
];

export const DAEMONSET_COLUMNS: TableColumn[] = [
  { name: 'Desired', type: 'integer', jsonPath: '.status.desiredNumberScheduled' },
  { name: 'Current', type: 'integer', jsonPath: '.status.currentNumberScheduled' },
  { name: 'Ready', type: 'integer', jsonPath: '.status.numberReady' },
  { name: 'Up-to-date', type: 'integer', jsonPath: '.status.updatedNumberScheduled' },
  { name: 'Available', type: 'integer', jsonPath: '.status.numberAvailable' },
  {
    name: 'Node Selector',
    type: 'string',
    jsonPath: '.spec.template.spec.nodeSelector',
    value: (o) => {
      const sel = (get(o, 'spec', 'template', 'spec', 'nodeSelector') ?? {}) as Record<string, string>;
      const parts = Object.entries(sel)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => `${k}=${v}`);
      return parts.length ? parts.join(',') : '<none>';
    },
  },
  age,
  ...wide(template),
];

function condition(o: KObject, type: string): boolean {
  const conds = (get(o, 'status', 'conditions') as Obj[] | undefined) ?? [];
  return conds.some((c) => c.type === type && c.status === 'True');
}

/** The Job printer's STATUS: the first of its terminal or paused states that holds, else Running. */
function jobStatus(o: KObject): string {
  for (const t of ['Failed', 'Complete', 'Suspended', 'FailureTarget', 'SuccessCriteriaMet'])
    if (condition(o, t)) return t;
  return 'Running';
}

/** Go's duration.HumanDuration between two RFC 3339 times, or since the first. */
function jobDuration(o: KObject): string {
  const start = get(o, 'status', 'startTime');
  if (typeof start !== 'string') return '';
  const end = get(o, 'status', 'completionTime');
  const now = typeof end === 'string' ? Date.parse(end) : Date.now();
  return humanAge(start, now);
}

export const JOB_COLUMNS: TableColumn[] = [
  { name: 'Status', type: 'string', jsonPath: '.status.conditions', value: jobStatus },
  {
    name: 'Completions',
    type: 'string',
    jsonPath: '.status.succeeded',
    value: (o) => {
      const completions = get(o, 'spec', 'completions');
      const succeeded = int(get(o, 'status', 'succeeded'));
      if (typeof completions === 'number') return `${succeeded}/${completions}`;
      const parallelism = int(get(o, 'spec', 'parallelism') ?? 1);
      return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
    },
  },
  { name: 'Duration', type: 'string', jsonPath: '.status.completionTime', value: jobDuration },
  age,
  ...wide(template),
];

export const CRONJOB_COLUMNS: TableColumn[] = [
  { name: 'Schedule', type: 'string', jsonPath: '.spec.schedule' },
  {
    name: 'Timezone',
    type: 'string',
    jsonPath: '.spec.timeZone',
    value: (o) => get(o, 'spec', 'timeZone') ?? '<none>',
  },
  {
    name: 'Suspend',
    type: 'boolean',
    jsonPath: '.spec.suspend',
    value: (o) => (get(o, 'spec', 'suspend') === true ? 'True' : 'False'),
  },
  {
    name: 'Active',
    type: 'integer',
    jsonPath: '.status.active',
    value: (o) => ((get(o, 'status', 'active') as unknown[] | undefined) ?? []).length,
  },
  {
    name: 'Last Schedule',
    type: 'string',
    jsonPath: '.status.lastScheduleTime',
    value: (o) => {
      const t = get(o, 'status', 'lastScheduleTime');
      return typeof t === 'string' ? humanAge(t) : '<none>';
    },
  },
  age,
  ...wide(['spec', 'jobTemplate', 'spec', 'template']),
];

export const NETWORKPOLICY_COLUMNS: TableColumn[] = [
  {
    name: 'Pod-Selector',
    type: 'string',
    jsonPath: '.spec.podSelector',
    value: (o) => formatSelector(get(o, 'spec', 'podSelector')),
  },
  age,
];

export const INGRESS_COLUMNS: TableColumn[] = [
  {
    name: 'Class',
    type: 'string',
    jsonPath: '.spec.ingressClassName',
    value: (o) => get(o, 'spec', 'ingressClassName') ?? '<none>',
  },
  {
    name: 'Hosts',
    type: 'string',
    jsonPath: '.spec.rules[*].host',
    value: (o) => {
      const hosts = ((get(o, 'spec', 'rules') as Obj[] | undefined) ?? []).map((r) => r.host).filter(Boolean);
      if (!hosts.length) return '*';
      return hosts.length > 3 ? `${hosts.slice(0, 3).join(',')} + ${hosts.length - 3} more...` : hosts.join(',');
    },
  },
  {
    name: 'Address',
    type: 'string',
    jsonPath: '.status.loadBalancer.ingress',
    value: (o) =>
      ((get(o, 'status', 'loadBalancer', 'ingress') as Obj[] | undefined) ?? [])
        .map((i) => i.ip ?? i.hostname)
        .filter(Boolean)
        .join(','),
  },
  {
    name: 'Ports',
    type: 'string',
    jsonPath: '.spec.tls',
    value: (o) => (((get(o, 'spec', 'tls') as unknown[] | undefined) ?? []).length ? '80, 443' : '80'),
  },
  age,
];

/** The pod printer's STATUS: a container's waiting or terminated reason over the phase. */
function podStatus(o: KObject): string {
  if (o.metadata.deletionTimestamp) return 'Terminating';
  let reason = String(get(o, 'status', 'reason') ?? get(o, 'status', 'phase') ?? '');
  for (const cs of (get(o, 'status', 'containerStatuses') as Obj[] | undefined) ?? []) {
    const waiting = get(cs, 'state', 'waiting', 'reason');
    const terminated = get(cs, 'state', 'terminated') as Obj | undefined;
    if (typeof waiting === 'string' && waiting) reason = waiting;
    else if (terminated)
      reason = typeof terminated.reason === 'string' ? terminated.reason : `ExitCode:${int(terminated.exitCode)}`;
  }
  return reason;
}

const orNone = (v: unknown) => (typeof v === 'string' && v ? v : '<none>');

export const POD_COLUMNS: TableColumn[] = [
  {
    name: 'Ready',
    type: 'string',
    jsonPath: '.status.containerStatuses',
    value: (o) => {
      const statuses = (get(o, 'status', 'containerStatuses') as Obj[] | undefined) ?? [];
      const total = ((get(o, 'spec', 'containers') as unknown[] | undefined) ?? []).length;
      return `${statuses.filter((c) => c.ready === true).length}/${total}`;
    },
  },
  { name: 'Status', type: 'string', jsonPath: '.status.phase', value: podStatus },
  {
    name: 'Restarts',
    type: 'string',
    jsonPath: '.status.containerStatuses',
    value: (o) =>
      String(
        ((get(o, 'status', 'containerStatuses') as Obj[] | undefined) ?? []).reduce(
          (n, c) => n + int(c.restartCount),
          0,
        ),
      ),
  },
  age,
  {
    name: 'IP',
    type: 'string',
    jsonPath: '.status.podIP',
    priority: 1,
    value: (o) => orNone(get(o, 'status', 'podIP')),
  },
  {
    name: 'Node',
    type: 'string',
    jsonPath: '.spec.nodeName',
    priority: 1,
    value: (o) => orNone(get(o, 'spec', 'nodeName')),
  },
  {
    name: 'Nominated Node',
    type: 'string',
    jsonPath: '.status.nominatedNodeName',
    priority: 1,
    value: (o) => orNone(get(o, 'status', 'nominatedNodeName')),
  },
  {
    name: 'Readiness Gates',
    type: 'string',
    jsonPath: '.spec.readinessGates',
    priority: 1,
    value: (o) => (((get(o, 'spec', 'readinessGates') as unknown[] | undefined) ?? []).length ? 'set' : '<none>'),
  },
];
