// OpenShift's install options on the server: the request's fields (zod), the cluster objects
// they read, gathered as the person (Infrastructure, Authentication, CloudCredential and Console,
// each tolerated when absent or forbidden, and said so), and Console `cluster`'s plugins patched
// at the resourceVersion just read. The rules are lib/olm/install/openshift-options.ts.
import { z } from 'zod';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import type { ResourceType } from '../olm/resources/common';
import {
  pluginsAfter,
  type AuthenticationLike,
  type CloudCredentialLike,
  type ConsoleOperatorLike,
  type InfrastructureLike,
  type OpenShiftClusterFacts,
  type Read,
} from '../olm/install/openshift-options';
import type { OpenShiftChoices } from '../olm/install/openshift-plan';
import { dnsSubdomain } from './api-error';
import { accessReview } from './permissions';
import { clusterProxy } from './subscription-config';

const clusterType = (group: string, plural: string, kind: string): ResourceType => ({
  group,
  version: 'v1',
  plural,
  namespaced: false,
  kind,
});
export const INFRASTRUCTURE_TYPE = clusterType('config.openshift.io', 'infrastructures', 'Infrastructure');
export const AUTHENTICATION_TYPE = clusterType('config.openshift.io', 'authentications', 'Authentication');
export const CLOUD_CREDENTIAL_TYPE = clusterType('operator.openshift.io', 'cloudcredentials', 'CloudCredential');
export const CONSOLE_OPERATOR_TYPE = clusterType('operator.openshift.io', 'consoles', 'Console');

// Values are checked only as far as their clouds define them, so a typo is caught before OLM
// hands it to the operator: an IAM role's ARN, Azure's GUIDs, GCP's project number and email.
const text = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(512)
  .regex(/^[^\s]+$/, 'must not contain spaces');
const guid = z
  .string()
  .trim()
  .regex(
    /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
    'must be a GUID (8-4-4-4-12 hexadecimal digits)',
  );
export const TokenAuthBody = z.union([
  z.strictObject({
    aws: z.strictObject({
      roleARN: z
        .string()
        .trim()
        .regex(
          /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]+$/,
          'must be an IAM role ARN: arn:aws:iam::<12-digit account>:role/<name>',
        ),
    }),
  }),
  z.strictObject({
    azure: z.strictObject({ clientID: guid, tenantID: guid, subscriptionID: guid, resourceGroup: text.optional() }),
  }),
  z.strictObject({
    gcp: z.strictObject({
      projectNumber: z
        .string()
        .trim()
        .regex(/^\d{6,20}$/, 'must be the project number (digits), not its name'),
      poolID: text,
      providerID: text,
      serviceAccountEmail: z.email('must be an email address'),
    }),
  }),
]);

export const OpenShiftInstallFields = {
  /** Cloud token authentication (OpenShift in short-lived-token mode, the version declaring support). */
  tokenAuth: TokenAuthBody.optional(),
  /** Console plugins the CSV declares, to add to Console `cluster`'s spec.plugins. */
  enablePlugins: z.array(dnsSubdomain).max(20, 'at most 20 plugins').optional(),
  /** Label the new openshift-* namespace for cluster monitoring and let Prometheus read it. */
  clusterMonitoring: z.boolean().optional(),
};

export function openShiftChoices(body: {
  tokenAuth?: z.infer<typeof TokenAuthBody>;
  enablePlugins?: string[];
  clusterMonitoring?: boolean;
}): OpenShiftChoices | undefined {
  const t = body.tokenAuth;
  const tokenAuth: OpenShiftChoices['tokenAuth'] = !t
    ? undefined
    : 'aws' in t
      ? { provider: 'AWS', values: t.aws }
      : 'azure' in t
        ? { provider: 'Azure', values: t.azure as Record<string, string> }
        : { provider: 'GCP', values: t.gcp };
  const choices: OpenShiftChoices = {
    ...(tokenAuth ? { tokenAuth } : {}),
    ...(body.enablePlugins?.length ? { enablePlugins: body.enablePlugins } : {}),
    ...(body.clusterMonitoring ? { clusterMonitoring: true } : {}),
  };
  return Object.keys(choices).length ? choices : undefined;
}

async function read<T>(client: KubeClient, t: ResourceType, name: string): Promise<Read<T>> {
  try {
    return { state: 'read', object: await client.get<T & object>(t, name) };
  } catch (err) {
    if (isKubeError(err, 404)) return { state: 'absent' };
    if (isKubeError(err, 403)) return { state: 'forbidden', reason: (err as Error).message };
    throw err;
  }
}

/** The objects OpenShift's options read, as the person; undefined on a cluster that is not OpenShift. */
export async function gatherOpenShiftFacts(client: KubeClient): Promise<OpenShiftClusterFacts | undefined> {
  if (!(await clusterProxy(client)).openshift) return undefined;
  const [infrastructure, authentication, cloudCredential, console, patch] = await Promise.all([
    read<InfrastructureLike>(client, INFRASTRUCTURE_TYPE, 'cluster'),
    read<AuthenticationLike>(client, AUTHENTICATION_TYPE, 'cluster'),
    read<CloudCredentialLike>(client, CLOUD_CREDENTIAL_TYPE, 'cluster'),
    read<ConsoleOperatorLike>(client, CONSOLE_OPERATOR_TYPE, 'cluster'),
    accessReview(client, 'patch', CONSOLE_OPERATOR_TYPE.group, CONSOLE_OPERATOR_TYPE.plural, undefined, 'cluster'),
  ]);
  return {
    infrastructure,
    authentication,
    cloudCredential,
    console,
    ...(patch.allowed ? {} : { pluginsDenied: patch.reason }),
  };
}

/**
 * Adds the plugins to Console `cluster`'s spec.plugins as the person: a merge patch carrying the
 * resourceVersion just read, so a change made meanwhile by someone else is read again and kept
 * rather than overwritten (at most three tries).
 */
export async function enableConsolePlugins(client: KubeClient, plugins: readonly string[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const c = await client.get<ConsoleOperatorLike>(CONSOLE_OPERATOR_TYPE, 'cluster');
    const current = c.spec?.plugins ?? [];
    const after = pluginsAfter(current, plugins);
    if (after.length === current.length) return;
    try {
      await client.patch(
        CONSOLE_OPERATOR_TYPE,
        'cluster',
        { metadata: { resourceVersion: c.metadata?.resourceVersion }, spec: { plugins: after } },
        { type: 'merge' },
      );
      return;
    } catch (err) {
      if (!isKubeError(err, 409) || attempt >= 3) throw err;
    }
  }
}
