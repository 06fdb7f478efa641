// The rollout routes' request body: a person's choices (lib/olm/rollout/choices.ts), shaped here
// and checked for meaning there (choicesProblems), so every refusal is a 400 naming the field.
import { z } from 'zod';
import type { RolloutChoices } from '../../olm/rollout/choices';
import { dnsLabel, dnsSubdomain } from '../api-error';

const text = (max: number) => z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const labels = z
  .record(text(316), z.string().max(63, 'must be at most 63 characters'))
  .refine((l) => Object.keys(l).length <= 32, 'at most 32 labels');

export const RolloutBody = z.strictObject({
  name: dnsLabel,
  hubNamespace: dnsLabel,
  olm: z.enum(['v0', 'v1'], { message: 'must be v0 or v1' }),
  package: dnsSubdomain,
  channel: dnsSubdomain.optional(),
  version: text(253).optional(),
  approval: z.enum(['Automatic', 'Manual'], { message: 'must be Automatic or Manual' }).optional(),
  installNamespace: dnsLabel,
  catalog: z.strictObject({ name: dnsSubdomain, namespace: dnsLabel.optional() }),
  placement: z.strictObject({
    clusterSets: z.array(dnsLabel).min(1, 'choose at least one cluster set').max(32),
    labels: labels.optional(),
    claims: z
      .array(
        z.strictObject({
          key: text(316),
          operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist']),
          values: z.array(z.string().max(63)).max(64).optional(),
        }),
      )
      .max(32)
      .optional(),
  }),
  canary: labels.optional(),
  waveSize: z.number().int('must be a whole number').min(1, 'must be 1 or more').max(10000),
  progressDeadline: text(16).optional(),
  minSuccessTime: text(16).optional(),
  operatorPolicy: z
    .strictObject({
      namespace: dnsLabel,
      allowedVersions: z.array(dnsSubdomain).max(64),
      upgradeApproval: z.enum(['Automatic', 'None'], { message: 'must be Automatic or None' }),
    })
    .optional(),
}) satisfies z.ZodType<RolloutChoices>;
