// The bodies of the ClusterCatalog writes, with catalogd v1.2.0's CRD limits
// (config/base/catalogd/crd/bases/olm.operatorframework.io_clustercatalogs.yaml): priority is an
// int32 with no bound of its own, pollIntervalMinutes an integer of at least 1, availabilityMode
// Available or Unavailable, the image reference at most 1000 characters. The name and the form of
// the reference are left to the API server, whose reasons the person then reads as it gave them.
import { z } from 'zod';

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

const priority = z
  .number({ message: 'a whole number' })
  .int('a whole number')
  .min(INT32_MIN, `at least ${INT32_MIN} (a 32-bit integer)`)
  .max(INT32_MAX, `at most ${INT32_MAX} (a 32-bit integer)`);
const pollIntervalMinutes = z
  .number({ message: 'a whole number of minutes' })
  .int('a whole number of minutes')
  .min(1, 'at least 1 minute (catalogd never polls more often)')
  .max(Number.MAX_SAFE_INTEGER, 'too large');

export const CreateBody = z.strictObject({
  name: z.string({ message: 'the new catalog’s name' }).min(1, 'must not be empty').max(253, 'at most 253 characters'),
  imageRef: z
    .string({ message: 'the catalog image’s reference' })
    .min(1, 'must not be empty')
    .max(1000, 'at most 1000 characters'),
  priority: priority.optional(),
  pollIntervalMinutes: pollIntervalMinutes.optional(),
});

export const ChangeBody = z.strictObject({
  seen: z.number({ message: 'the generation you saw' }).int().min(0),
  availabilityMode: z.enum(['Available', 'Unavailable'], { message: 'Available or Unavailable' }).optional(),
  priority: priority.optional(),
  pollIntervalMinutes: pollIntervalMinutes.nullable().optional(),
});
