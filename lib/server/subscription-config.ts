// An operator's pod placement and configuration (Subscription `spec.config`), read and written as
// the person: the config, what the operator's Deployments actually carry (OLM writes the config
// into them, lib/olm/resources/subscription-config.ts), and the cluster proxy OLM passes on by
// default on OpenShift. A write replaces the whole config, and only if it is still what the person
// saw; the cluster's refusal comes back with its reason.
import { z } from 'zod';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import {
  formFromConfig,
  OPENSHIFT_INJECT_CA_LABEL,
  validateForm,
  type FieldProblem,
} from '../olm/install/operator-config-form';
import {
  sameConfig,
  type ClusterProxy,
  type DeploymentSpec,
  type SubscriptionConfig,
} from '../olm/resources/subscription-config';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import { ApiError } from './api-error';
import { nodeFacts } from './node-platforms';
import type { DeploymentConfigView, OperatorConfigView, PodPlacementFacts } from '../api/operator-config';
import { CONFIG_MAP_TYPE, DEPLOYMENT_TYPE, PROXY_TYPE } from '../k8s/core-kinds';
export type { DeploymentConfigView, OperatorConfigView, PodPlacementFacts } from '../api/operator-config';

const str = z.string().max(4096);
const name = z.string().min(1, 'must not be empty').max(253);
const ref = z.strictObject({ name: name.optional(), optional: z.boolean().optional() });
const quantity = z.union([z.string().max(64), z.number()]);
const resources = z.strictObject({
  limits: z.record(z.string().max(253), quantity).optional(),
  requests: z.record(z.string().max(253), quantity).optional(),
  claims: z.array(z.strictObject({ name })).max(20).optional(),
});
// Kubernetes' own types where the config is free-form (affinity, a volume's source): the API
// server checks them when the Subscription and the Deployment are written.
const loose = z.record(z.string(), z.unknown());

/** A Subscription's `spec.config`, in the shape OLM's CRD gives it. */
export const SubscriptionConfigSchema = z.strictObject({
  selector: loose.optional(),
  nodeSelector: z.record(z.string().max(317), z.string().max(63)).optional(),
  tolerations: z
    .array(
      z.strictObject({
        key: str.optional(),
        operator: z.enum(['Equal', 'Exists']).optional(),
        value: str.optional(),
        effect: z.enum(['', 'NoSchedule', 'PreferNoSchedule', 'NoExecute']).optional(),
        tolerationSeconds: z.number().int().optional(),
      }),
    )
    .max(50)
    .optional(),
  resources: resources.optional(),
  envFrom: z
    .array(z.strictObject({ prefix: str.optional(), configMapRef: ref.optional(), secretRef: ref.optional() }))
    .max(50)
    .optional(),
  env: z
    .array(z.strictObject({ name, value: z.string().max(32768).optional(), valueFrom: loose.optional() }))
    .max(200)
    .optional(),
  volumes: z.array(z.looseObject({ name })).max(50).optional(),
  volumeMounts: z
    .array(z.looseObject({ name, mountPath: z.string().min(1).max(4096) }))
    .max(50)
    .optional(),
  affinity: z
    .strictObject({ nodeAffinity: loose.optional(), podAffinity: loose.optional(), podAntiAffinity: loose.optional() })
    .optional(),
  annotations: z.record(z.string().max(317), z.string().max(65536)).optional(),
});

/** What the form would refuse in a config sent by any client, by field. */
export function configProblems(config: SubscriptionConfig | undefined): FieldProblem[] {
  return config ? validateForm(formFromConfig(config)) : [];
}

export function assertValidConfig(config: SubscriptionConfig | undefined): void {
  const problems = configProblems(config);
  if (problems.length)
    throw new ApiError(
      400,
      'BadRequest',
      `the configuration is not valid: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`,
      { problems },
    );
}

export async function podPlacementFacts(client: KubeClient): Promise<PodPlacementFacts> {
  const [proxy, nodes] = await Promise.all([clusterProxy(client), nodeFacts(client)]);
  return {
    openshift: proxy.openshift,
    ...(proxy.proxy ? { clusterProxy: proxy.proxy } : {}),
    ...(nodes ? { nodes } : {}),
  };
}

type Deployment = {
  metadata?: { name?: string; annotations?: Record<string, string> };
  spec?: DeploymentSpec & { replicas?: number };
  status?: { availableReplicas?: number };
};

function volumeSource(v: Record<string, unknown>): string {
  const kind = Object.keys(v).find((k) => k !== 'name') ?? 'unknown';
  const src = v[kind] as { name?: string; secretName?: string; claimName?: string } | undefined;
  const named = src?.name ?? src?.secretName ?? src?.claimName;
  return named ? `${kind} ${named}` : kind;
}

function deploymentView(d: Deployment): DeploymentConfigView {
  const pod = d.spec?.template?.spec ?? {};
  return {
    name: d.metadata?.name ?? '',
    available: (d.status?.availableReplicas ?? 0) >= (d.spec?.replicas ?? 1),
    ...(pod.nodeSelector ? { nodeSelector: pod.nodeSelector } : {}),
    ...(pod.tolerations ? { tolerations: pod.tolerations } : {}),
    ...(pod.affinity ? { affinity: pod.affinity } : {}),
    volumes: (pod.volumes ?? []).map((v) => ({ name: v.name, source: volumeSource(v) })),
    containers: (pod.containers ?? []).map((c) => ({
      name: c.name,
      // A value from a Secret is named, never shown.
      env: (c.env ?? []).map((e) =>
        e.valueFrom
          ? { name: e.name, from: Object.keys(e.valueFrom)[0] ?? 'valueFrom' }
          : { name: e.name, value: e.value ?? '' },
      ),
      envFrom: (c.envFrom ?? []).map(
        (e) =>
          `${e.configMapRef ? `ConfigMap ${e.configMapRef.name}` : `Secret ${e.secretRef?.name}`}${e.prefix ? ` (prefix ${e.prefix})` : ''}`,
      ),
      ...(c.resources ? { resources: c.resources } : {}),
      volumeMounts: (c.volumeMounts ?? []).map((m) => ({ name: m.name, mountPath: m.mountPath })),
    })),
    annotations: d.metadata?.annotations ?? {},
  };
}

/** The cluster proxy, on a cluster that has OpenShift's Proxy API; undefined elsewhere or unreadable. */
export async function clusterProxy(client: KubeClient): Promise<{ openshift: boolean; proxy?: ClusterProxy }> {
  try {
    const p = await client.get<{ status?: { httpProxy?: string; httpsProxy?: string; noProxy?: string } }>(
      PROXY_TYPE,
      'cluster',
    );
    const st = p.status ?? {};
    return {
      openshift: true,
      proxy: { HTTP_PROXY: st.httpProxy ?? '', HTTPS_PROXY: st.httpsProxy ?? '', NO_PROXY: st.noProxy ?? '' },
    };
  } catch (err) {
    if (isKubeError(err, 404)) return { openshift: false };
    if (isKubeError(err, 403)) return { openshift: true };
    throw err;
  }
}

export async function operatorConfig(client: KubeClient, namespace: string, name: string): Promise<OperatorConfigView> {
  const sub = await client.get<Subscription>(SUBSCRIPTION_TYPE, name, namespace);
  const installed = sub.status?.installedCSV;
  const proxy = await clusterProxy(client);
  const view: OperatorConfigView = {
    subscription: { namespace, name, ...(installed ? { installedCSV: installed } : {}) },
    ...(sub.spec.config ? { config: sub.spec.config as SubscriptionConfig } : {}),
    // The nodes are not read here: this view is read again every few seconds, and listing every
    // node of a large cluster that often is waste (GET /api/pod-placement, read once a minute).
    openshift: proxy.openshift,
    ...(proxy.proxy ? { clusterProxy: proxy.proxy } : {}),
  };
  const cm = formFromConfig(view.config).caBundle.configMap;
  if (cm) view.caBundle = await caBundleState(client, namespace, cm);
  if (!installed) return { ...view, deployments: [] };
  try {
    const list = await client.listAll<Deployment>(DEPLOYMENT_TYPE, {
      namespace,
      labelSelector: `olm.owner=${installed},olm.owner.namespace=${namespace}`,
    });
    return { ...view, deployments: list.items.map(deploymentView).sort((a, b) => a.name.localeCompare(b.name)) };
  } catch (err) {
    if (isKubeError(err, 403))
      return { ...view, deploymentsDenied: `you may not list Deployments in ${namespace}: ${(err as Error).message}` };
    throw err;
  }
}

/**
 * Replaces the Subscription's config with `config` (none: the config is removed), if it is still
 * `seen`. OLM then writes the operator's Deployments again.
 */
export async function saveOperatorConfig(
  client: KubeClient,
  namespace: string,
  name: string,
  config: SubscriptionConfig | null,
  seen: SubscriptionConfig | null,
): Promise<{ config?: SubscriptionConfig; changed: boolean }> {
  assertValidConfig(config ?? undefined);
  for (let attempt = 1; ; attempt++) {
    const sub = await client.get<Subscription>(SUBSCRIPTION_TYPE, name, namespace);
    const now = sub.spec.config as SubscriptionConfig | undefined;
    if (!sameConfig(now, seen))
      throw new ApiError(
        409,
        'Conflict',
        `the configuration of Subscription ${name} was changed meanwhile; reload it and try again`,
        { config: now ?? null },
      );
    if (sameConfig(now, config)) return { ...(now ? { config: now } : {}), changed: false };
    const spec = { ...sub.spec };
    if (config && Object.keys(config).length) spec.config = config as Record<string, unknown>;
    else delete spec.config;
    try {
      const updated = await client.replace<Subscription>(SUBSCRIPTION_TYPE, { ...sub, spec });
      return { ...(updated.spec.config ? { config: updated.spec.config as SubscriptionConfig } : {}), changed: true };
    } catch (err) {
      // OLM writes the status all the time: read again, the person's view is checked again.
      if (!isKubeError(err, 409) || attempt >= 5) throw err;
    }
  }
}

async function caBundleState(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<NonNullable<OperatorConfigView['caBundle']>> {
  try {
    const cm = await client.get<{ metadata?: { labels?: Record<string, string> } }>(CONFIG_MAP_TYPE, name, namespace);
    return { configMap: name, state: 'present', injected: cm.metadata?.labels?.[OPENSHIFT_INJECT_CA_LABEL] === 'true' };
  } catch (err) {
    if (isKubeError(err, 404)) return { configMap: name, state: 'missing' };
    if (isKubeError(err, 403)) return { configMap: name, state: 'unknown' };
    throw err;
  }
}

/**
 * On OpenShift, the ConfigMap a config mounts as its trusted CA bundle, created empty with the
 * label that makes OpenShift fill it with the cluster's trusted CAs (key ca-bundle.crt). Elsewhere
 * nobody fills it, so it is refused: the person supplies their own certificates.
 */
export async function createCaBundleConfigMap(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<{ configMap: string; namespace: string }> {
  const { openshift } = await clusterProxy(client);
  if (!openshift)
    throw new ApiError(
      409,
      'Conflict',
      `this cluster is not OpenShift: nothing fills a ConfigMap labelled ${OPENSHIFT_INJECT_CA_LABEL}; create ${name} in ${namespace} with your CA certificates instead`,
    );
  await client.create(
    CONFIG_MAP_TYPE,
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace, labels: { [OPENSHIFT_INJECT_CA_LABEL]: 'true' } },
    },
    { namespace },
  );
  return { configMap: name, namespace };
}
