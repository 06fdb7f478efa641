// The bodies of the ClusterExtension version change and its preview, with operator-controller
// v1.2.0's CRD limits (api/v1/clusterextension_types.go): the version expression is at most 64
// characters, the policy CatalogProvided or SelfCertified. Whether the expression reads as a range
// is checked by lib/server/olm-v1/extension-versions.ts in v1's own words.
import { z } from 'zod';
import { dnsSubdomain } from '@/lib/server/api-error';

export const Target = z.strictObject({ name: dnsSubdomain });

const change = {
  version: z
    .string({ message: 'the version or range to install (spec.source.catalog.version)' })
    .trim()
    .min(1, 'must not be empty')
    .max(64, 'at most 64 characters (the CRD’s limit)'),
  upgradeConstraintPolicy: z
    .enum(['CatalogProvided', 'SelfCertified'], { message: 'CatalogProvided or SelfCertified' })
    .optional(),
};

export const PlanBody = z.strictObject({
  ...change,
  seen: z.string().max(64).optional(),
});

export const ChangeBody = z.strictObject({
  ...change,
  seen: z
    .string({ message: 'the resourceVersion you saw' })
    .regex(/^[0-9A-Za-z_.-]{1,64}$/, 'the resourceVersion you saw'),
});
