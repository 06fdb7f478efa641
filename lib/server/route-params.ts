// Path parameters shared by the day-two routes: a namespace and an object name.
import { z } from 'zod';
import { dnsLabel, dnsSubdomain } from './api-error';
import { parseParams } from './package-lookup';

export const ObjectParams = z.strictObject({ namespace: dnsLabel, name: dnsSubdomain });
export type ObjectParams = z.infer<typeof ObjectParams>;

export async function objectParams(ctx: { params: Promise<Record<string, string>> }): Promise<ObjectParams> {
  return parseParams(ObjectParams, await ctx.params);
}

export const Optimistic = z.strictObject({
  resourceVersion: z.string().min(1, 'must not be empty').max(64).optional(),
});

/** An InstallPlan decision names the plan the person saw: its version and the CSVs it installs. */
export const SeenPlan = Optimistic.extend({
  clusterServiceVersionNames: z.array(dnsSubdomain).min(1).max(1000).optional(),
});
export type SeenPlan = z.infer<typeof SeenPlan>;
