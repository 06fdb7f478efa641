// Subscription `spec.config` and what OLM does with it: when it writes an operator's Deployment
// from the CSV's install strategy, the olm operator's deployment initializer
// (pkg/controller/operators/olm/overrides) merges the config of the Subscription whose installed
// CSV this is into the pod template. Each field has its own merge rule, below as OLM has it
// (overrides/inject/inject.go); on OpenShift the cluster proxy's values are added to the env
// unless the config names one of the three proxy variables itself (pkg/lib/proxy IsOverridden).

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: Record<string, unknown>;
}

export interface LocalRef {
  name?: string;
  optional?: boolean;
}

export interface EnvFromSource {
  prefix?: string;
  configMapRef?: LocalRef;
  secretRef?: LocalRef;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface ResourceRequirements {
  limits?: Record<string, string | number>;
  requests?: Record<string, string | number>;
  claims?: { name: string }[];
}

export interface Volume {
  name: string;
  [source: string]: unknown;
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  subPath?: string;
  [more: string]: unknown;
}

export interface Affinity {
  nodeAffinity?: Record<string, unknown>;
  podAffinity?: Record<string, unknown>;
  podAntiAffinity?: Record<string, unknown>;
}

export interface SubscriptionConfig {
  selector?: Record<string, unknown>;
  nodeSelector?: Record<string, string>;
  tolerations?: Toleration[];
  resources?: ResourceRequirements;
  envFrom?: EnvFromSource[];
  env?: EnvVar[];
  volumes?: Volume[];
  volumeMounts?: VolumeMount[];
  affinity?: Affinity;
  annotations?: Record<string, string>;
}

export interface Container {
  name: string;
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  resources?: ResourceRequirements;
  volumeMounts?: VolumeMount[];
  [more: string]: unknown;
}

export interface PodSpec {
  containers?: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
  tolerations?: Toleration[];
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
  [more: string]: unknown;
}

export interface DeploymentSpec {
  template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: PodSpec };
  [more: string]: unknown;
}

/** The variables through which OLM passes the cluster proxy on. */
export const PROXY_ENV_NAMES = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'] as const;

/** The cluster proxy's values (OpenShift's Proxy `cluster` status), by variable. */
export type ClusterProxy = Partial<Record<(typeof PROXY_ENV_NAMES)[number], string>>;

/** Any of the three proxy variables in the config, even empty, turns the cluster's proxy off. */
export function proxyOverridden(env: readonly EnvVar[] | undefined): boolean {
  return (env ?? []).some((e) => (PROXY_ENV_NAMES as readonly string[]).includes(e.name));
}

/** The env OLM injects: the config's, then the cluster proxy's non-empty values unless overridden. */
export function injectedEnv(config: SubscriptionConfig | undefined, proxy: ClusterProxy | undefined): EnvVar[] {
  const own = config?.env ?? [];
  if (proxyOverridden(own) || !proxy) return own;
  return [...own, ...PROXY_ENV_NAMES.filter((n) => proxy[n]).map((n) => ({ name: n, value: proxy[n]! }))];
}

/** Same name: the new one wins in place; new names go last, in the order given. */
function mergeEnv(have: readonly EnvVar[] | undefined, add: readonly EnvVar[]): EnvVar[] | undefined {
  if (add.length === 0) return have ? [...have] : undefined;
  const byName = new Map(add.map((e) => [e.name, e]));
  const out = (have ?? []).map((e) => byName.get(e.name) ?? e);
  const had = new Set((have ?? []).map((e) => e.name));
  // A name the config repeats is appended each time, with its last value, as OLM does.
  for (const e of add) if (!had.has(e.name)) out.push(byName.get(e.name)!);
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const sameRef = (a: LocalRef | undefined, b: LocalRef | undefined) =>
  (!a && !b) || (!!a && !!b && a.name === b.name && a.optional === b.optional);

/** An envFrom source already there (same prefix and references) is not added twice. */
function mergeEnvFrom(
  have: readonly EnvFromSource[] | undefined,
  add: readonly EnvFromSource[],
): EnvFromSource[] | undefined {
  if (add.length === 0) return have ? [...have] : undefined;
  const out = [...(have ?? [])];
  for (const e of add) {
    const there = (have ?? []).some(
      (h) =>
        (h.prefix ?? '') === (e.prefix ?? '') &&
        sameRef(h.configMapRef, e.configMapRef) &&
        sameRef(h.secretRef, e.secretRef),
    );
    if (!there) out.push(e);
  }
  return out;
}

/** By name: a config entry replaces the one of the same name, or is appended. */
function mergeByName<T extends { name: string }>(have: readonly T[] | undefined, add: readonly T[]): T[] | undefined {
  if (add.length === 0) return have ? [...have] : undefined;
  const out = [...(have ?? [])];
  for (const e of add) {
    const i = (have ?? []).findIndex((h) => h.name === e.name);
    if (i >= 0) out[i] = e;
    else out.push(e);
  }
  return out;
}

/** Appended unless an identical toleration is there already. */
function mergeTolerations(
  have: readonly Toleration[] | undefined,
  add: readonly Toleration[],
): Toleration[] | undefined {
  if (add.length === 0) return have ? [...have] : undefined;
  const out = [...(have ?? [])];
  for (const t of add) if (!(have ?? []).some((h) => same(h, t))) out.push(t);
  return out;
}

const isEmpty = (o: object | undefined) => !!o && Object.keys(o).length === 0;

/**
 * Affinity: each of the three parts given replaces the Deployment's; a part given empty removes
 * it (and an empty affinity removes them all). Nothing left means no affinity.
 */
function overrideAffinity(have: Affinity | undefined, given: Affinity | undefined): Affinity | undefined {
  if (!given) return have;
  if (isEmpty(given)) return undefined;
  if (!have || isEmpty(have)) return given;
  let out: Affinity | undefined = { ...have };
  for (const part of ['nodeAffinity', 'podAffinity'] as const) {
    if (given[part] === undefined) continue;
    if (isEmpty(given[part])) delete out[part];
    else out[part] = given[part];
  }
  if (given.podAntiAffinity !== undefined) {
    // OLM drops the whole affinity, not only the part, when podAntiAffinity is given empty.
    if (isEmpty(given.podAntiAffinity)) out = undefined;
    else out.podAntiAffinity = given.podAntiAffinity;
  }
  return out && Object.keys(out).length ? out : undefined;
}

function withoutUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export interface ConfiguredDeployment {
  spec: DeploymentSpec;
  /** The Deployment's own annotations after the config's are added. */
  annotations: Record<string, string>;
}

/**
 * The Deployment OLM writes for one entry of the install strategy, given the config of the
 * CSV's Subscription and, on OpenShift, the cluster proxy. Only regular containers get env,
 * envFrom, mounts and resources; init containers are left as the bundle has them.
 */
export function configureDeployment(
  spec: DeploymentSpec,
  annotations: Record<string, string>,
  config: SubscriptionConfig | undefined,
  proxy?: ClusterProxy,
): ConfiguredDeployment {
  const c = config ?? {};
  const env = injectedEnv(c, proxy);
  const pod: PodSpec = { ...(spec.template?.spec ?? {}) };
  pod.containers = (pod.containers ?? []).map((k) =>
    withoutUndefined({
      ...k,
      env: mergeEnv(k.env, env),
      envFrom: mergeEnvFrom(k.envFrom, c.envFrom ?? []),
      volumeMounts: mergeByName(k.volumeMounts, c.volumeMounts ?? []),
      resources: c.resources ?? k.resources,
    }),
  );
  pod.volumes = mergeByName(pod.volumes, c.volumes ?? []);
  pod.tolerations = mergeTolerations(pod.tolerations, c.tolerations ?? []);
  if (c.nodeSelector) pod.nodeSelector = c.nodeSelector;
  pod.affinity = overrideAffinity(pod.affinity, c.affinity);
  const template = { ...(spec.template ?? {}), spec: withoutUndefined(pod) };
  let outAnnotations = annotations;
  if (c.annotations) {
    // The config's annotations never replace ones the Deployment or its pods already have.
    outAnnotations = { ...c.annotations, ...annotations };
    template.metadata = {
      ...(template.metadata ?? {}),
      annotations: { ...c.annotations, ...(template.metadata?.annotations ?? {}) },
    };
  }
  return { spec: { ...spec, template }, annotations: outAnnotations };
}

/**
 * The Deployment spec OLM writes for one entry of a CSV's install strategy
 * (install/deployment.go deploymentForSpec, v0.38.0): the CSV's annotations on the pod template
 * (over the bundle's), the Subscription's config (configureDeployment), then
 * OPERATOR_CONDITION_NAME in every container, and one old ReplicaSet kept.
 */
export function operatorDeployment(
  spec: DeploymentSpec,
  csv: { name: string; annotations?: Record<string, string> },
  config: SubscriptionConfig | undefined,
  proxy?: ClusterProxy,
): ConfiguredDeployment {
  const template = {
    ...(spec.template ?? {}),
    metadata: {
      ...(spec.template?.metadata ?? {}),
      annotations: { ...(spec.template?.metadata?.annotations ?? {}), ...(csv.annotations ?? {}) },
    },
  };
  const configured = configureDeployment({ ...spec, template }, {}, config, proxy);
  const withCondition = configureDeployment(
    configured.spec,
    {},
    { env: [{ name: 'OPERATOR_CONDITION_NAME', value: csv.name }] },
  );
  return { spec: { ...withCondition.spec, revisionHistoryLimit: 1 }, annotations: configured.annotations };
}

function stable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stable);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, stable((v as Record<string, unknown>)[k])]),
    );
  return v;
}

/** Key order aside (a real API server sorts a custom resource's keys), the same config; none and an empty one are the same. */
export function sameConfig(a: unknown, b: unknown): boolean {
  const norm = (c: unknown) => JSON.stringify(c && typeof c === 'object' && Object.keys(c).length ? stable(c) : null);
  return norm(a) === norm(b);
}
