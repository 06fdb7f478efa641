// What the fleet approval routes check of a request before any cluster is asked: every cluster
// named is one the console serves, and no object is named twice (two writes racing on one object
// would answer one of them with a conflict the person did not cause).
import { z } from 'zod';
import { ApiError, dnsSubdomain } from '../api-error';
import type { FleetMember } from './members';

export const ClusterName = z.string().min(1, 'must not be empty').max(253);

/** A ClusterExtension's version change, as the single-cluster version route reads it (64 characters, the CRD's limit). */
export const VersionChange = z.strictObject({
  cluster: ClusterName,
  name: dnsSubdomain,
  version: z
    .string({ message: 'the version to install (spec.source.catalog.version)' })
    .trim()
    .min(1, 'must not be empty')
    .max(64, 'at most 64 characters (the CRD’s limit)'),
});

export function checkClusters<T extends { cluster: string }>(
  members: readonly FleetMember[],
  field: string,
  items: readonly T[],
  describe: (item: T) => string,
): void {
  const seen = new Set<string>();
  for (const [i, item] of items.entries()) {
    if (!members.some((m) => m.name === item.cluster))
      throw new ApiError(
        400,
        'BadRequest',
        `${field}.${i}.cluster: the console serves no cluster "${item.cluster}" (it serves ${members.map((m) => m.name).join(', ')})`,
      );
    const key = describe(item);
    if (seen.has(key)) throw new ApiError(400, 'BadRequest', `${field}.${i}: ${key} is named twice`);
    seen.add(key);
  }
}
