// The "pod placement and configuration" form of an operator: the parts of a Subscription's
// `spec.config` a cluster administrator sets by hand (node selector, tolerations, resources,
// environment, proxy, a trusted CA bundle), turned into the config and back. Whatever else the
// config holds (affinity, annotations, envFrom, other volumes, env from Secrets) is kept as it is,
// so editing through the form never loses a field it does not show. Validation answers, per
// field, what the API server or the kubelet would refuse, before anything is written.
import type { EnvVar, SubscriptionConfig, Toleration, Volume, VolumeMount } from '../resources/subscription-config';
import { PROXY_ENV_NAMES } from '../resources/subscription-config';

export const TOLERATION_EFFECTS = ['', 'NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;
export type TolerationEffect = (typeof TOLERATION_EFFECTS)[number];

export interface TolerationRow {
  key: string;
  operator: 'Equal' | 'Exists';
  value: string;
  effect: TolerationEffect;
  /** Whole seconds, NoExecute only; empty for none. */
  seconds: string;
}

export interface ConfigForm {
  nodeSelector: { key: string; value: string }[];
  tolerations: TolerationRow[];
  resources: { requestsCpu: string; requestsMemory: string; limitsCpu: string; limitsMemory: string };
  env: { name: string; value: string }[];
  /** Set: the Subscription names the proxy itself, and the cluster's proxy is not passed on. */
  proxy: { set: boolean; HTTP_PROXY: string; HTTPS_PROXY: string; NO_PROXY: string };
  /** A ConfigMap key mounted as the operator's trusted CA bundle; no ConfigMap, none. */
  caBundle: { configMap: string; key: string; mountPath: string };
  /** Every part of the config the form does not edit, written back unchanged. */
  kept: SubscriptionConfig;
}

/** The volume (and mount) name the form gives the CA bundle, and by which it finds it again. */
export const CA_BUNDLE_VOLUME = 'trusted-ca-bundle';
/** Where Red Hat based images read extra trusted CAs (update-ca-trust's extracted PEM folder). */
export const CA_BUNDLE_MOUNT_PATH = '/etc/pki/ca-trust/extracted/pem';
const CA_BUNDLE_FILE = 'tls-ca-bundle.pem';
/** The key OpenShift fills in a ConfigMap labelled for trusted CA bundle injection. */
export const OPENSHIFT_CA_BUNDLE_KEY = 'ca-bundle.crt';
export const OPENSHIFT_INJECT_CA_LABEL = 'config.openshift.io/inject-trusted-cabundle';

const RESOURCE_FIELDS = [
  ['requests', 'cpu', 'requestsCpu'],
  ['requests', 'memory', 'requestsMemory'],
  ['limits', 'cpu', 'limitsCpu'],
  ['limits', 'memory', 'limitsMemory'],
] as const;

export function emptyForm(): ConfigForm {
  return {
    nodeSelector: [],
    tolerations: [],
    resources: { requestsCpu: '', requestsMemory: '', limitsCpu: '', limitsMemory: '' },
    env: [],
    proxy: { set: false, HTTP_PROXY: '', HTTPS_PROXY: '', NO_PROXY: '' },
    caBundle: { configMap: '', key: '', mountPath: CA_BUNDLE_MOUNT_PATH },
    kept: {},
  };
}

const isProxy = (name: string) => (PROXY_ENV_NAMES as readonly string[]).includes(name);

export function formFromConfig(config: SubscriptionConfig | undefined): ConfigForm {
  const f = emptyForm();
  const c: SubscriptionConfig = structuredClone(config ?? {});
  f.nodeSelector = Object.entries(c.nodeSelector ?? {}).map(([key, value]) => ({ key, value }));
  delete c.nodeSelector;
  f.tolerations = (c.tolerations ?? []).map((t) => ({
    key: t.key ?? '',
    operator: t.operator === 'Exists' ? 'Exists' : 'Equal',
    value: t.value ?? '',
    effect: (TOLERATION_EFFECTS as readonly string[]).includes(t.effect ?? '') ? (t.effect as TolerationEffect) : '',
    seconds: t.tolerationSeconds === undefined ? '' : String(t.tolerationSeconds),
  }));
  delete c.tolerations;
  if (c.resources) {
    const rest = structuredClone(c.resources);
    for (const [kind, res, field] of RESOURCE_FIELDS) {
      const v = rest[kind]?.[res];
      if (v === undefined) continue;
      f.resources[field] = String(v);
      delete rest[kind]![res];
      if (Object.keys(rest[kind]!).length === 0) delete rest[kind];
    }
    if (Object.keys(rest).length) c.resources = rest;
    else delete c.resources;
  }
  const keptEnv: EnvVar[] = [];
  for (const e of c.env ?? []) {
    if (e.valueFrom !== undefined) keptEnv.push(e);
    else if (isProxy(e.name)) {
      f.proxy.set = true;
      f.proxy[e.name as (typeof PROXY_ENV_NAMES)[number]] = e.value ?? '';
    } else f.env.push({ name: e.name, value: e.value ?? '' });
  }
  if (keptEnv.length) c.env = keptEnv;
  else delete c.env;
  const vol = c.volumes?.find((v) => v.name === CA_BUNDLE_VOLUME);
  const cm = vol?.configMap as { name?: string; items?: { key: string; path: string }[] } | undefined;
  const mount = c.volumeMounts?.find((m) => m.name === CA_BUNDLE_VOLUME);
  if (cm?.name && mount) {
    f.caBundle = { configMap: cm.name, key: cm.items?.[0]?.key ?? '', mountPath: mount.mountPath };
    c.volumes = c.volumes!.filter((v) => v.name !== CA_BUNDLE_VOLUME);
    c.volumeMounts = c.volumeMounts!.filter((m) => m.name !== CA_BUNDLE_VOLUME);
    if (!c.volumes.length) delete c.volumes;
    if (!c.volumeMounts.length) delete c.volumeMounts;
  }
  f.kept = c;
  return f;
}

/** The config the form stands for; nothing set, undefined (the Subscription gets no config). */
export function configFromForm(f: ConfigForm): SubscriptionConfig | undefined {
  const c: SubscriptionConfig = structuredClone(f.kept);
  const nodeSelector = f.nodeSelector.filter((r) => r.key.trim());
  if (nodeSelector.length) c.nodeSelector = Object.fromEntries(nodeSelector.map((r) => [r.key.trim(), r.value.trim()]));
  const tolerations: Toleration[] = f.tolerations
    .filter((t) => t.key.trim() || t.operator === 'Exists')
    .map((t) => ({
      ...(t.key.trim() ? { key: t.key.trim() } : {}),
      operator: t.operator,
      ...(t.operator === 'Equal' ? { value: t.value.trim() } : {}),
      ...(t.effect ? { effect: t.effect } : {}),
      ...(t.seconds.trim() ? { tolerationSeconds: Number(t.seconds.trim()) } : {}),
    }));
  if (tolerations.length) c.tolerations = tolerations;
  for (const [kind, res, field] of RESOURCE_FIELDS) {
    const v = f.resources[field].trim();
    if (!v) continue;
    c.resources = { ...(c.resources ?? {}), [kind]: { ...(c.resources?.[kind] ?? {}), [res]: v } };
  }
  const env: EnvVar[] = f.env.filter((e) => e.name.trim()).map((e) => ({ name: e.name.trim(), value: e.value }));
  if (f.proxy.set) for (const n of PROXY_ENV_NAMES) env.push({ name: n, value: f.proxy[n].trim() });
  if (env.length || c.env?.length) c.env = [...env, ...(c.env ?? [])];
  if (f.caBundle.configMap.trim()) {
    const volume: Volume = {
      name: CA_BUNDLE_VOLUME,
      configMap: {
        name: f.caBundle.configMap.trim(),
        ...(f.caBundle.key.trim() ? { items: [{ key: f.caBundle.key.trim(), path: CA_BUNDLE_FILE }] } : {}),
      },
    };
    const mount: VolumeMount = {
      name: CA_BUNDLE_VOLUME,
      mountPath: f.caBundle.mountPath.trim() || CA_BUNDLE_MOUNT_PATH,
      readOnly: true,
    };
    c.volumes = [...(c.volumes ?? []), volume];
    c.volumeMounts = [...(c.volumeMounts ?? []), mount];
  }
  return Object.keys(c).length ? c : undefined;
}

export interface FieldProblem {
  /** The form field: `nodeSelector.0.key`, `resources.limitsCpu`, `caBundle.configMap`… */
  field: string;
  message: string;
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_NAME = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)$/;
const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
const QUANTITY = /^(\d+(\.\d+)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;
const SUFFIX: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** A quantity's value (CPU cores, bytes), or undefined when Kubernetes would not parse it. */
export function quantityValue(q: string): number | undefined {
  const m = QUANTITY.exec(q.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const s = m[3] ?? '';
  return /^[eE]/.test(s) ? n * 10 ** Number(s.slice(1)) : n * SUFFIX[s]!;
}

/** A label key: an optional DNS subdomain prefix and `/`, then a name of at most 63 characters. */
function labelKeyProblem(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length > 2) return 'a label key has at most one "/"';
  const [prefix, name] = parts.length === 2 ? parts : [undefined, parts[0]!];
  if (prefix !== undefined && (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix)))
    return `prefix ${prefix} must be a DNS subdomain (lowercase letters, digits, "-" and ".")`;
  if (!name || name.length > 63 || !LABEL_NAME.test(name))
    return 'the name part must be 1–63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';
  return undefined;
}

function labelValueProblem(v: string): string | undefined {
  if (v === '') return undefined;
  return v.length <= 63 && LABEL_NAME.test(v)
    ? undefined
    : 'a label value is empty or 1–63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit';
}

export function validateForm(f: ConfigForm): FieldProblem[] {
  const out: FieldProblem[] = [];
  const seenKeys = new Set<string>();
  f.nodeSelector.forEach((r, i) => {
    const key = r.key.trim();
    if (!key) {
      if (r.value.trim()) out.push({ field: `nodeSelector.${i}.key`, message: 'a node label needs a key' });
      return;
    }
    const kp = labelKeyProblem(key);
    if (kp) out.push({ field: `nodeSelector.${i}.key`, message: kp });
    if (seenKeys.has(key)) out.push({ field: `nodeSelector.${i}.key`, message: `${key} is given twice` });
    seenKeys.add(key);
    const vp = labelValueProblem(r.value.trim());
    if (vp) out.push({ field: `nodeSelector.${i}.value`, message: vp });
  });
  f.tolerations.forEach((t, i) => {
    const key = t.key.trim();
    if (!key && t.operator === 'Equal' && !t.value.trim() && !t.effect && !t.seconds.trim()) return;
    if (!key && t.operator !== 'Exists')
      out.push({
        field: `tolerations.${i}.key`,
        message: 'with no key, the operator must be Exists (it then tolerates every taint)',
      });
    if (key && labelKeyProblem(key)) out.push({ field: `tolerations.${i}.key`, message: labelKeyProblem(key)! });
    if (t.operator === 'Exists' && t.value.trim())
      out.push({ field: `tolerations.${i}.value`, message: 'Exists matches any value: leave the value empty' });
    if (t.operator === 'Equal' && t.value.trim() && labelValueProblem(t.value.trim()))
      out.push({ field: `tolerations.${i}.value`, message: labelValueProblem(t.value.trim())! });
    if (t.seconds.trim()) {
      if (!/^\d+$/.test(t.seconds.trim()))
        out.push({ field: `tolerations.${i}.seconds`, message: 'whole seconds, 0 or more' });
      else if (t.effect !== 'NoExecute')
        out.push({ field: `tolerations.${i}.seconds`, message: 'only a NoExecute toleration has a time limit' });
    }
  });
  for (const [, res, field] of RESOURCE_FIELDS) {
    const v = f.resources[field].trim();
    if (v && quantityValue(v) === undefined)
      out.push({
        field: `resources.${field}`,
        message: `${v} is not a Kubernetes quantity (${res === 'cpu' ? 'for example 500m or 2' : 'for example 256Mi or 1Gi'})`,
      });
  }
  for (const [req, lim, res] of [
    ['requestsCpu', 'limitsCpu', 'CPU'],
    ['requestsMemory', 'limitsMemory', 'memory'],
  ] as const) {
    const r = quantityValue(f.resources[req]);
    const l = quantityValue(f.resources[lim]);
    if (r !== undefined && l !== undefined && f.resources[req].trim() && f.resources[lim].trim() && r > l)
      out.push({
        field: `resources.${req}`,
        message: `the ${res} request is more than its limit: the API server would refuse the operator's pods`,
      });
  }
  const names = new Set<string>();
  f.env.forEach((e, i) => {
    const name = e.name.trim();
    if (!name) {
      if (e.value) out.push({ field: `env.${i}.name`, message: 'a variable needs a name' });
      return;
    }
    if (!ENV_NAME.test(name))
      out.push({ field: `env.${i}.name`, message: 'letters, digits, "_", "-" and ".", not starting with a digit' });
    else if (isProxy(name)) out.push({ field: `env.${i}.name`, message: `set ${name} in the proxy fields` });
    if (names.has(name)) out.push({ field: `env.${i}.name`, message: `${name} is given twice` });
    names.add(name);
  });
  if (f.proxy.set) {
    for (const n of ['HTTP_PROXY', 'HTTPS_PROXY'] as const) {
      const v = f.proxy[n].trim();
      if (v && !/^https?:\/\/[^\s/]+/.test(v))
        out.push({ field: `proxy.${n}`, message: 'a proxy URL starts with http:// or https://' });
    }
    if (/\s/.test(f.proxy.NO_PROXY.trim()))
      out.push({ field: 'proxy.NO_PROXY', message: 'a comma-separated list, without spaces' });
  }
  const cm = f.caBundle.configMap.trim();
  if (cm) {
    if (cm.length > 253 || !DNS_SUBDOMAIN.test(cm))
      out.push({ field: 'caBundle.configMap', message: 'a ConfigMap name is lowercase letters, digits, "-" and "."' });
    if (f.caBundle.key.trim() && !/^[-._a-zA-Z0-9]+$/.test(f.caBundle.key.trim()))
      out.push({ field: 'caBundle.key', message: 'a ConfigMap key is letters, digits, "-", "_" and "."' });
    if (!f.caBundle.mountPath.trim().startsWith('/'))
      out.push({ field: 'caBundle.mountPath', message: 'an absolute path' });
  }
  return out;
}

/** What the config will do, in a few words per part, for a plan or a summary. */
export function describeConfig(c: SubscriptionConfig | undefined): string[] {
  if (!c) return [];
  const out: string[] = [];
  if (c.nodeSelector && Object.keys(c.nodeSelector).length)
    out.push(
      `runs only on nodes labelled ${Object.entries(c.nodeSelector)
        .map(([k, v]) => (v ? `${k}=${v}` : k))
        .join(', ')}`,
    );
  if (c.tolerations?.length)
    out.push(
      `tolerates ${c.tolerations.map((t) => `${t.key ?? 'every taint'}${t.operator === 'Exists' ? '' : `=${t.value ?? ''}`}${t.effect ? `:${t.effect}` : ''}`).join(', ')}`,
    );
  if (c.resources)
    out.push(
      `every container gets ${[...Object.entries(c.resources.requests ?? {}).map(([k, v]) => `${k} request ${v}`), ...Object.entries(c.resources.limits ?? {}).map(([k, v]) => `${k} limit ${v}`)].join(', ') || 'no requests or limits'} (replacing the bundle's)`,
    );
  const env = c.env ?? [];
  const proxy = env.filter((e) => isProxy(e.name));
  const plain = env.filter((e) => !isProxy(e.name));
  if (plain.length) out.push(`environment ${plain.map((e) => e.name).join(', ')} in every container`);
  if (proxy.length)
    out.push(
      `proxy set here (${proxy.map((e) => `${e.name}=${e.value || '""'}`).join(', ')}): the cluster's proxy is not passed on`,
    );
  if (c.volumes?.some((v) => v.name === CA_BUNDLE_VOLUME))
    out.push(
      `trusted CA bundle from ConfigMap ${(c.volumes.find((v) => v.name === CA_BUNDLE_VOLUME)!.configMap as { name: string }).name}`,
    );
  const others: string[] = (['affinity', 'annotations', 'envFrom', 'selector'] as const).filter(
    (k) => c[k] !== undefined,
  );
  const volumes = (c.volumes ?? []).filter((v) => v.name !== CA_BUNDLE_VOLUME);
  if (volumes.length) others.push(`volumes ${volumes.map((v) => v.name).join(', ')}`);
  if (others.length) out.push(`also sets ${others.join(', ')}`);
  return out;
}
