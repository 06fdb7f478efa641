// The install options OpenShift's console adds on an OpenShift cluster, as rules: cloud token
// authentication (the cluster in short-lived-token mode and the version declaring support),
// console plugins the CSV declares, and the cluster-monitoring opt-in. Facts come from OpenShift's
// own sources (openshift/console's operator-hub-subscribe.tsx and operator-hub-utils.ts,
// openshift/api's config/v1 and operator/v1 types); docs/using/operatorhub.md ("OpenShift options") lists them.
// Pure: lib/server reads the cluster objects as the person, this decides what they mean.

import { monitoringOption, requestsMonitoring } from './cluster-monitoring';

/** The clouds whose short-lived tokens OpenShift's console knows, named as it names them. */
export type TokenAuthProvider = 'AWS' | 'Azure' | 'GCP';
export const TOKEN_AUTH_PROVIDERS: readonly TokenAuthProvider[] = ['AWS', 'Azure', 'GCP'];

/** CSV annotations (features.operators.openshift.io/*) by which a version declares support. */
export const TOKEN_AUTH_ANNOTATIONS: Record<TokenAuthProvider, string> = {
  AWS: 'features.operators.openshift.io/token-auth-aws',
  Azure: 'features.operators.openshift.io/token-auth-azure',
  GCP: 'features.operators.openshift.io/token-auth-gcp',
};
export const CONSOLE_PLUGINS_ANNOTATION = 'console.openshift.io/plugins';
// Cluster monitoring's rules live in their own module; these are re-exported for existing callers.
export {
  CLUSTER_MONITORING_ANNOTATION,
  CLUSTER_MONITORING_LABEL,
  PROMETHEUS_ACCOUNT,
  prometheusRbac,
} from './cluster-monitoring';
/** The one catalog whose plugins OpenShift's console enables by default (its isCatalogSourceTrusted). */
export const TRUSTED_PLUGIN_CATALOG = 'redhat-operators';

export interface TokenAuthField {
  /** The request's key for it. */
  key: string;
  /** The variable OpenShift's console writes into the Subscription's spec.config.env. */
  env: string;
  label: string;
  required: boolean;
}

/**
 * The values each cloud asks for, in the order OpenShift's console writes them. The console
 * drops empty ones; the fields its notice names are required here so an install cannot go ahead
 * with an operator that has no way to reach its cloud.
 */
export const TOKEN_AUTH_FIELDS: Record<TokenAuthProvider, readonly TokenAuthField[]> = {
  AWS: [{ key: 'roleARN', env: 'ROLEARN', label: 'Role ARN', required: true }],
  Azure: [
    { key: 'clientID', env: 'CLIENTID', label: 'Azure client ID', required: true },
    { key: 'tenantID', env: 'TENANTID', label: 'Azure tenant ID', required: true },
    { key: 'subscriptionID', env: 'SUBSCRIPTIONID', label: 'Azure subscription ID', required: true },
    { key: 'resourceGroup', env: 'RESOURCEGROUP', label: 'Azure resource group', required: false },
  ],
  GCP: [
    { key: 'projectNumber', env: 'PROJECT_NUMBER', label: 'GCP project number', required: true },
    { key: 'poolID', env: 'POOL_ID', label: 'GCP pool ID', required: true },
    { key: 'providerID', env: 'PROVIDER_ID', label: 'GCP provider ID', required: true },
    { key: 'serviceAccountEmail', env: 'SERVICE_ACCOUNT_EMAIL', label: 'GCP service account email', required: true },
  ],
};

const MODE_NAME: Record<TokenAuthProvider, string> = {
  AWS: 'AWS STS',
  Azure: 'Azure Workload Identity',
  GCP: 'GCP Workload Identity',
};

/** What a version's CSV says about these options. */
export interface CsvOpenShiftOptions {
  tokenAuth: TokenAuthProvider[];
  plugins: string[];
  clusterMonitoring: boolean;
}

export function csvOpenShiftOptions(annotations: Record<string, unknown> | undefined): CsvOpenShiftOptions {
  const ann = annotations ?? {};
  const isTrue = (k: string) => typeof ann[k] === 'string' && (ann[k] as string).trim().toLowerCase() === 'true';
  return {
    tokenAuth: TOKEN_AUTH_PROVIDERS.filter((p) => isTrue(TOKEN_AUTH_ANNOTATIONS[p])),
    plugins: pluginList(ann[CONSOLE_PLUGINS_ANNOTATION]),
    clusterMonitoring: requestsMonitoring(ann),
  };
}

/** A JSON array of plugin names; anything else declares none (OpenShift's console drops it too). */
function pluginList(v: unknown): string[] {
  if (typeof v !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(v);
    return Array.isArray(parsed) && parsed.every((p) => typeof p === 'string')
      ? [...new Set(parsed.filter((p) => p.length > 0))]
      : [];
  } catch {
    return [];
  }
}

/** One cluster object as read by the person: its content, or why it is not known. */
export type Read<T> = { state: 'read'; object: T } | { state: 'absent' } | { state: 'forbidden'; reason: string };

export interface InfrastructureLike {
  status?: { platform?: string; platformStatus?: { type?: string } };
}
export interface AuthenticationLike {
  spec?: { serviceAccountIssuer?: string };
}
export interface CloudCredentialLike {
  spec?: { credentialsMode?: string };
}
export interface ConsoleOperatorLike {
  metadata?: { resourceVersion?: string };
  spec?: { plugins?: string[] };
}

export interface OpenShiftClusterFacts {
  infrastructure: Read<InfrastructureLike>;
  authentication: Read<AuthenticationLike>;
  cloudCredential: Read<CloudCredentialLike>;
  console: Read<ConsoleOperatorLike>;
  /** Why the person may not patch Console `cluster`, if they may not. */
  pluginsDenied?: string;
}

export type TokenAuthMode =
  { provider: TokenAuthProvider; text: string } | { provider?: undefined; text: string; unknown?: boolean };

const describeRead = (what: string, r: Read<unknown>) =>
  r.state === 'forbidden' ? `you may not read ${what} (${r.reason})` : `${what} does not exist`;

/**
 * Whether the cluster runs in short-lived-token mode, and for which cloud: the cloud credential
 * operator in Manual mode, a service account issuer set, and the platform AWS, Azure or GCP
 * (openshift/console's isAWSSTSCluster and siblings). The platform is read from
 * `status.platformStatus.type`, falling back to the deprecated `status.platform` that console reads.
 */
export function tokenAuthMode(
  f: Pick<OpenShiftClusterFacts, 'infrastructure' | 'authentication' | 'cloudCredential'>,
): TokenAuthMode {
  const unread = (
    [
      ['Infrastructure cluster', f.infrastructure],
      ['Authentication cluster', f.authentication],
      ['CloudCredential cluster', f.cloudCredential],
    ] as const
  ).filter(([, r]) => r.state !== 'read');
  if (unread.length)
    return {
      text: `whether the cluster uses short-lived cloud tokens is not known: ${unread.map(([w, r]) => describeRead(w, r)).join('; ')}`,
      unknown: true,
    };
  const infra = (f.infrastructure as { object: InfrastructureLike }).object;
  const platform = infra.status?.platformStatus?.type || infra.status?.platform || '';
  const issuer = (f.authentication as { object: AuthenticationLike }).object.spec?.serviceAccountIssuer ?? '';
  const mode = (f.cloudCredential as { object: CloudCredentialLike }).object.spec?.credentialsMode ?? '';
  const provider = TOKEN_AUTH_PROVIDERS.find((p) => p === platform);
  if (!provider)
    return {
      text: `the cluster's platform is ${platform || 'not reported'}: short-lived cloud tokens exist only on AWS, Azure and GCP`,
    };
  if (mode !== 'Manual')
    return {
      text: `the cloud credential operator is in ${mode || 'its default'} mode, not Manual: operators get cloud credentials from it, not short-lived tokens`,
    };
  if (!issuer)
    return {
      text: 'Authentication cluster names no service account issuer: the cluster does not issue tokens a cloud can trust',
    };
  return {
    provider,
    text: `the cluster uses short-lived cloud tokens (${MODE_NAME[provider]}): Manual credentials mode, service account issuer ${issuer}`,
  };
}

/** What the wizard may offer, each with why not when it cannot. */
export interface OpenShiftOptionsView {
  tokenAuth: { offered: boolean; provider?: TokenAuthProvider; fields: readonly TokenAuthField[]; reason: string };
  plugins: { names: string[]; offered: boolean; trusted: boolean; alreadyEnabled: string[]; reason?: string };
  monitoring: { offered: boolean; reason?: string };
}

export interface OptionsContext {
  csv: CsvOpenShiftOptions;
  cluster: OpenShiftClusterFacts;
  catalogName: string;
  namespace: string;
  /** The install creates the namespace (it does not exist yet). */
  createsNamespace: boolean;
  /** False when the version's CSV could not be read, so `csv` is a stand-in that says nothing. */
  csvKnown?: boolean;
}

export function openShiftOptions(c: OptionsContext): OpenShiftOptionsView {
  const mode = tokenAuthMode(c.cluster);
  let tokenAuth: OpenShiftOptionsView['tokenAuth'];
  if (!mode.provider) tokenAuth = { offered: false, fields: [], reason: mode.text };
  else if (!c.csv.tokenAuth.includes(mode.provider)) {
    tokenAuth = {
      offered: false,
      provider: mode.provider,
      fields: [],
      reason: `${mode.text}; this version does not declare ${TOKEN_AUTH_ANNOTATIONS[mode.provider]}: "true", so it is installed as on any cluster`,
    };
  } else
    tokenAuth = {
      offered: true,
      provider: mode.provider,
      fields: TOKEN_AUTH_FIELDS[mode.provider],
      reason: `${mode.text}, and this version declares support`,
    };

  const trusted = c.catalogName === TRUSTED_PLUGIN_CATALOG;
  const enabled = c.cluster.console.state === 'read' ? (c.cluster.console.object.spec?.plugins ?? []) : [];
  let pluginReason: string | undefined;
  if (!c.csv.plugins.length) pluginReason = `this version declares no console plugin (${CONSOLE_PLUGINS_ANNOTATION})`;
  else if (c.cluster.console.state !== 'read')
    pluginReason = `plugins are enabled in Console cluster (operator.openshift.io/v1), and ${describeRead('Console cluster', c.cluster.console)}`;
  else if (c.cluster.pluginsDenied) pluginReason = `you may not change Console cluster: ${c.cluster.pluginsDenied}`;
  const plugins = {
    names: c.csv.plugins,
    offered: !pluginReason,
    trusted,
    alreadyEnabled: c.csv.plugins.filter((p) => enabled.includes(p)),
    ...(pluginReason ? { reason: pluginReason } : {}),
  };

  const monitoring = monitoringOption({
    requested: c.csvKnown === false ? 'unknown' : c.csv.clusterMonitoring,
    namespace: c.namespace,
    createsNamespace: c.createsNamespace,
  });
  return { tokenAuth, plugins, monitoring };
}

/** The variables a token-auth choice adds to spec.config.env, in OpenShift's order, empty ones left out. */
export function tokenAuthEnv(
  provider: TokenAuthProvider,
  values: Record<string, string | undefined>,
): { name: string; value: string }[] {
  return TOKEN_AUTH_FIELDS[provider].flatMap((f) => {
    const v = values[f.key]?.trim();
    return v ? [{ name: f.env, value: v }] : [];
  });
}

/** Required values left empty, by label. */
export function missingTokenValues(provider: TokenAuthProvider, values: Record<string, string | undefined>): string[] {
  return TOKEN_AUTH_FIELDS[provider].filter((f) => f.required && !values[f.key]?.trim()).map((f) => f.label);
}

/** Console `cluster`'s plugins after enabling some: the current list, the new names added once. */
export function pluginsAfter(current: readonly string[], enable: readonly string[]): string[] {
  return [...current, ...enable.filter((p, i) => !current.includes(p) && enable.indexOf(p) === i)];
}
