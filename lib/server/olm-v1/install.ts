// Installing a package as a ClusterExtension, as the person: the request's body (checked here),
// the facts read with their identity (install-facts.ts) for lib/olm/v1/install-plan.ts, and the
// plan applied in order with lib/server/install-apply.ts, which removes what it created when a
// later write fails. The dry run and the install plan the same way, so what the wizard previews
// is what POST /api/olm-v1/clusterextensions checks again before writing. Once the extension
// exists, the account and roles the install created get the console's mark for it
// (install-mark.ts): what an uninstall may offer and a version change may widen.
import { z } from 'zod';
import type { V1InstallAnswer, V1PlanAnswer } from '../../api/olm-v1-install';
import type { KubeClient } from '../../k8s/client';
import { planV1Install } from '../../olm/v1/install-plan';
import { ApiError, dnsLabel, dnsSubdomain } from '../api-error';
import { applyPlan } from '../install-apply';
import { gatherV1InstallFacts } from './install-facts';
import { markInstall } from './install-mark';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from './resources';

// Helm's release name rule (chartutil/validate_name.go): operator-controller names the release
// after the ClusterExtension, and a longer name fails every reconcile with "release name is invalid".
const extensionName = z
  .string()
  .min(1, 'must not be empty')
  .max(53, 'must be at most 53 characters (v1 names its Helm release after the ClusterExtension)')
  .regex(
    /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/,
    'must be lowercase letters, digits, "-" and ".", starting and ending with a letter or digit',
  );

export const V1InstallBody = z.strictObject({
  /** The ClusterCatalog the wizard was opened from: its channels and versions are offered. */
  catalog: dnsSubdomain,
  packageName: dnsSubdomain,
  name: extensionName,
  namespace: dnsLabel,
  serviceAccount: z.strictObject({ name: dnsSubdomain, grant: z.boolean() }),
  /** spec.source.catalog.version; absent: any version. The API server checks the expression. */
  version: z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters').optional(),
  channels: z.array(dnsSubdomain).max(256, 'at most 256 channels').default([]),
  /** Resolve from this catalog only (a selector on catalogd's metadata.name label), or from every catalog. */
  onlyThisCatalog: z.boolean().default(false),
  upgradeConstraintPolicy: z.enum(['CatalogProvided', 'SelfCertified'], {
    message: 'must be CatalogProvided or SelfCertified',
  }),
});
export type V1InstallBody = z.infer<typeof V1InstallBody>;

export async function planV1InstallAsPerson(client: KubeClient, body: V1InstallBody): Promise<V1PlanAnswer> {
  const { facts, pkg } = await gatherV1InstallFacts(client, body);
  return { plan: planV1Install(facts), package: pkg };
}

/** Plans again (never trusting a plan the browser holds) and applies it, or says why not. */
export async function installV1AsPerson(client: KubeClient, body: V1InstallBody): Promise<V1InstallAnswer> {
  const { plan } = await planV1InstallAsPerson(client, body);
  const first = plan.blockers[0];
  if (first) {
    const code = first.code === 'forbidden' ? 403 : first.code === 'invalid' ? 422 : 409;
    const reason = code === 403 ? 'Forbidden' : code === 422 ? 'Invalid' : 'Conflict';
    throw new ApiError(code, reason, plan.blockers.map((b) => b.message).join('; '), {
      blockers: plan.blockers,
      warnings: plan.warnings,
    });
  }
  const result = await applyPlan(client, plan);
  return {
    ...result,
    name: body.name,
    warnings: [...plan.warnings, ...(await markCreated(client, body.name, result))],
  };
}

/**
 * The mark goes on after the extension is created, because it names the extension's uid. The
 * install is made by then: a mark that could not be written is a warning saying what follows.
 */
async function markCreated(
  client: KubeClient,
  name: string,
  result: Awaited<ReturnType<typeof applyPlan>>,
): Promise<V1InstallAnswer['warnings']> {
  const access = result.created.filter((c) => c.kind !== 'Namespace' && c.kind !== 'ClusterExtension');
  if (!access.length) return [];
  let failed: { ref: { kind: string; name: string }; message: string }[];
  try {
    const ce = await client.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, name);
    failed = await markInstall(client, ce, access);
  } catch (err) {
    failed = access.map((ref) => ({ ref, message: (err as Error).message }));
  }
  if (!failed.length) return [];
  const them = failed.length === 1 ? 'it' : 'them';
  return [
    {
      code: 'unmarked',
      message:
        `The install is made, but ${failed.map((f) => `${f.ref.kind} ${f.ref.name}`).join(', ')} could not be ` +
        `marked as made for ${name} (${failed[0]!.message}): uninstalling will not offer to delete ${them}, ` +
        `and a version change that needs more rights will not widen ${them} (it is refused, saying why).`,
    },
  ];
}
