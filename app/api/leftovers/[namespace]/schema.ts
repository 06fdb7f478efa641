// The input both leftovers routes read: the namespace, the operator named by its Subscription
// and/or CSV (at least one), and the parts chosen (`<Kind>:<name>` as the GET answered them).
import { z } from 'zod';
import { ApiError, dnsLabel, dnsSubdomain } from '@/lib/server/api-error';
import { parseParams } from '@/lib/server/package-lookup';
import type { LeftoverAnchor } from '@/lib/olm/install/leftovers';

export const Anchor = z.strictObject({ subscription: dnsSubdomain.optional(), csv: dnsSubdomain.optional() });
export const Parts = z
  .array(
    z
      .string()
      .regex(
        /^(Subscription|ClusterServiceVersion|InstallPlan|OperatorGroup|CustomResourceDefinition|Instances|Finalizers):[a-z0-9.-]{1,253}$/,
        'must be <Kind>:<name> as listed by what is left',
      ),
  )
  .max(500);

export function anchorOf(a: { subscription?: string; csv?: string }): LeftoverAnchor {
  if (!a.subscription && !a.csv)
    throw new ApiError(400, 'BadRequest', 'name the operator by subscription, csv or both');
  return { ...(a.subscription ? { subscription: a.subscription } : {}), ...(a.csv ? { csv: a.csv } : {}) };
}

export async function namespaceParam(ctx: { params: Promise<Record<string, string>> }): Promise<string> {
  return (await parseParams(z.strictObject({ namespace: dnsLabel }), await ctx.params)).namespace;
}
