// Installing a package as a ClusterExtension, as the person: the request's body (checked here),
// the facts read with their identity (install-facts.ts) for lib/olm/v1/install-plan.ts, and the
// plan applied in order with lib/server/install-apply.ts, which removes what it created when a
// later write fails. The dry run and the install plan the same way, so what the wizard previews
// is what POST /api/olm-v1/clusterextensions checks again before writing.
import { z } from 'zod';
import type { V1InstallAnswer, V1PlanAnswer } from '../../api/olm-v1-install';
import type { KubeClient } from '../../k8s/client';
import { planV1Install } from '../../olm/v1/install-plan';
import { ApiError, dnsLabel, dnsSubdomain } from '../api-error';
import { applyPlan } from '../install-apply';
import { gatherV1InstallFacts } from './install-facts';

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
  return { ...result, name: body.name, warnings: plan.warnings };
}
