// Install as the person: the request's body (checked here), the cluster's facts gathered as them
// for lib/olm's planner (install-facts.ts), and the plan applied in order, undone on failure
// (install-apply.ts).
import { z } from 'zod';
import { INSTALL_MODE_TYPES } from '../olm/resources/cluster-service-version';
import { dnsLabel, dnsSubdomain } from './api-error';
import { packageName } from './package-lookup';
import { SubscriptionConfigSchema } from './subscription-config';
import { OpenShiftInstallFields } from './openshift-install';

export { NAMESPACE_TYPE, SERVICE_ACCOUNT_TYPE } from '../k8s/core-kinds';
export { gatherInstallFacts } from './install-facts';
export { applyPlan, type ApplyResult, type ObjectRef } from './install-apply';
export { step } from './install-step';

export const InstallBody = z.strictObject({
  catalog: z.strictObject({ namespace: dnsLabel, name: dnsSubdomain }),
  package: packageName,
  channel: z.string().min(1, 'must not be empty').max(253),
  /** A version or CSV name; the channel head when absent. */
  version: z.string().min(1).max(253).optional(),
  namespace: dnsLabel,
  installMode: z.enum(['AllNamespaces', 'OwnNamespace', 'SingleNamespace', 'MultiNamespace'], {
    message: `must be one of ${INSTALL_MODE_TYPES.join(', ')}`,
  }),
  targetNamespaces: z.array(dnsLabel).max(100, 'at most 100 namespaces').optional(),
  approval: z.enum(['Automatic', 'Manual'], { message: 'must be Automatic or Manual' }),
  /** Where the person sees the catalog, when they cannot read its namespace. */
  viewerNamespace: dnsLabel.optional(),
  /** The Subscription's `spec.config`: the operator's pod placement and configuration. */
  config: SubscriptionConfigSchema.optional(),
  /** Install with a service account's rights; `grant` creates the Role and bindings it needs. */
  serviceAccount: z.strictObject({ name: dnsSubdomain, grant: z.boolean() }).optional(),
  ...OpenShiftInstallFields,
});
export type InstallBody = z.infer<typeof InstallBody>;
