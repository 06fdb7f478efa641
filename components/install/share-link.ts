// A shared install: every choice of the wizard in its address, so someone who may not install
// can hand an administrator a link that opens the wizard with everything chosen, and nothing is
// stored in the cluster. A link is anyone's text: each parameter is read defensively, and each
// bad value is named with what is wrong, and left to the wizard's default.
import type { InstallModeType } from '@/lib/olm/resources/cluster-service-version';
import type { SubscriptionConfig } from '@/lib/olm/resources/subscription-config';
import { namespaceNameOk, serviceAccountNameOk, type Approval, type InstallChoices } from './install-request';

const MODES: readonly InstallModeType[] = ['AllNamespaces', 'OwnNamespace', 'SingleNamespace', 'MultiNamespace'];
/** The longest config a link carries; a longer one belongs in a GitOps export. */
export const MAX_CONFIG_CHARS = 8000;
const MAX_WATCHED = 100;

export interface SharedChoices {
  channel?: string;
  version?: string;
  namespace?: string;
  installMode?: InstallModeType;
  watched?: string[];
  approval?: Approval;
  config?: SubscriptionConfig;
  serviceAccount?: { name: string; grant: boolean };
}

export interface LinkProblem {
  param: string;
  message: string;
}

/** The wizard's address for the choices, relative to the console. */
export function shareLink(c: InstallChoices): string {
  const q = new URLSearchParams();
  q.set('channel', c.channel);
  q.set('version', c.version);
  if (c.viewerNamespace) q.set('namespace', c.viewerNamespace);
  q.set('into', c.namespace);
  q.set('mode', c.installMode);
  if (c.installMode === 'SingleNamespace' || c.installMode === 'MultiNamespace')
    for (const w of c.watched) q.append('watch', w);
  q.set('approval', c.approval);
  if (c.config && Object.keys(c.config).length) q.set('config', JSON.stringify(c.config));
  if (c.serviceAccount) {
    q.set('serviceAccount', c.serviceAccount.name);
    q.set('grant', String(c.serviceAccount.grant));
  }
  const path = [c.catalog.namespace, c.catalog.name, c.package].map(encodeURIComponent).join('/');
  return `/operatorhub/${path}/install?${q}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const stringMap = (v: unknown) => isObject(v) && Object.values(v).every((x) => typeof x === 'string');
const listOf = (v: unknown, item: (x: Record<string, unknown>) => boolean) =>
  Array.isArray(v) && v.every((x) => isObject(x) && item(x));
const optional = (o: Record<string, unknown>, key: string, type: string) =>
  o[key] === undefined || typeof o[key] === type;
const quantities = (v: unknown) =>
  isObject(v) &&
  Object.values(v).every((x) => typeof x === 'string' || typeof x === 'number') &&
  Object.keys(v).length <= 20;

// The shape the wizard's form reads; the server checks every value again (lib/server/install.ts).
const CONFIG_FIELDS: Record<keyof SubscriptionConfig, { ok: (v: unknown) => boolean; expect: string }> = {
  selector: { ok: isObject, expect: 'an object' },
  nodeSelector: { ok: stringMap, expect: 'an object of strings' },
  annotations: { ok: stringMap, expect: 'an object of strings' },
  tolerations: {
    ok: (v) =>
      listOf(
        v,
        (t) =>
          ['key', 'operator', 'value', 'effect'].every((k) => optional(t, k, 'string')) &&
          optional(t, 'tolerationSeconds', 'number'),
      ),
    expect: 'a list of tolerations',
  },
  resources: {
    ok: (v) =>
      isObject(v) && Object.entries(v).every(([k, x]) => (k === 'requests' || k === 'limits') && quantities(x)),
    expect: 'an object of requests and limits',
  },
  env: {
    ok: (v) =>
      listOf(
        v,
        (e) => typeof e.name === 'string' && optional(e, 'value', 'string') && optional(e, 'valueFrom', 'object'),
      ),
    expect: 'a list of {name, value}',
  },
  envFrom: { ok: (v) => listOf(v, () => true), expect: 'a list of objects' },
  volumes: { ok: (v) => listOf(v, (x) => typeof x.name === 'string'), expect: 'a list of named volumes' },
  volumeMounts: {
    ok: (v) => listOf(v, (x) => typeof x.name === 'string' && typeof x.mountPath === 'string'),
    expect: 'a list of {name, mountPath}',
  },
  affinity: { ok: isObject, expect: 'an object' },
};

function readConfig(text: string): { config: SubscriptionConfig } | { message: string } {
  if (text.length > MAX_CONFIG_CHARS)
    return { message: `is longer than ${MAX_CONFIG_CHARS} characters; share such a config as a GitOps export` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { message: 'is not JSON' };
  }
  if (!isObject(value)) return { message: 'must be a JSON object (a Subscription spec.config)' };
  for (const [key, v] of Object.entries(value)) {
    const field = CONFIG_FIELDS[key as keyof SubscriptionConfig] as (typeof CONFIG_FIELDS)['env'] | undefined;
    if (!field) return { message: `has ${JSON.stringify(key.slice(0, 40))}, which is no field of spec.config` };
    if (!field.ok(v)) return { message: `${key} must be ${field.expect}` };
  }
  return { config: value as SubscriptionConfig };
}

const text = (v: string) => v.length > 0 && v.length <= 253 && !/[\u0000-\u001f]/.test(v);

// Channel and version alone are how a package's page opens the wizard; these only a shared link sets.
const SHARED_ONLY = ['into', 'mode', 'watch', 'approval', 'config', 'serviceAccount', 'grant'];

/**
 * The choices a wizard address carries, what is wrong with each value it cannot use, and whether
 * it is a shared install (it sets more than the channel and version a package's page passes).
 */
export function readShareLink(params: URLSearchParams): {
  choices: SharedChoices;
  problems: LinkProblem[];
  shared: boolean;
} {
  const choices: SharedChoices = {};
  const problems: LinkProblem[] = [];
  const bad = (param: string, message: string) => problems.push({ param, message });
  const one = (param: string): string | undefined => {
    const all = params.getAll(param);
    if (all.length > 1) bad(param, 'is given more than once');
    return all.length === 1 ? all[0] : undefined;
  };
  const channel = one('channel');
  if (channel !== undefined) {
    if (text(channel)) choices.channel = channel;
    else bad('channel', 'must be a channel name of 1 to 253 characters');
  }
  const version = one('version');
  if (version !== undefined) {
    if (text(version)) choices.version = version;
    else bad('version', 'must be a version or CSV name of 1 to 253 characters');
  }
  const into = one('into');
  if (into !== undefined) {
    if (namespaceNameOk(into)) choices.namespace = into;
    else bad('into', `${JSON.stringify(into.slice(0, 70))} is no namespace name (lowercase letters, digits and "-")`);
  }
  const mode = one('mode');
  if (mode !== undefined) {
    if ((MODES as readonly string[]).includes(mode)) choices.installMode = mode as InstallModeType;
    else bad('mode', `must be one of ${MODES.join(', ')}`);
  }
  const watch = params.getAll('watch');
  if (watch.length > MAX_WATCHED) bad('watch', `names more than ${MAX_WATCHED} namespaces`);
  else if (watch.some((w) => !namespaceNameOk(w))) bad('watch', 'every watched namespace must be a namespace name');
  else if (watch.length) choices.watched = [...new Set(watch)];
  const approval = one('approval');
  if (approval !== undefined) {
    if (approval === 'Automatic' || approval === 'Manual') choices.approval = approval;
    else bad('approval', 'must be Automatic or Manual');
  }
  const config = one('config');
  if (config !== undefined) {
    const r = readConfig(config);
    if ('config' in r) choices.config = r.config;
    else bad('config', r.message);
  }
  const account = one('serviceAccount');
  const grant = one('grant');
  if (grant !== undefined && grant !== 'true' && grant !== 'false') bad('grant', 'must be true or false');
  if (account !== undefined) {
    if (serviceAccountNameOk(account)) choices.serviceAccount = { name: account, grant: grant === 'true' };
    else bad('serviceAccount', 'must be a service account name (lowercase letters, digits, "-" and ".")');
  } else if (grant !== undefined) bad('grant', 'means nothing without serviceAccount');
  return { choices, problems, shared: SHARED_ONLY.some((p) => params.has(p)) };
}
