// The catalog snapshot's file format, and its checks when read back. A snapshot is written by the
// console, but it lies on a volume anyone with the pod's filesystem can change, and it restores
// content that is shown to people: it is read as untrusted input. Its header and tiles are checked
// field by field with bounds; its graph is plain FBC, parsed and validated by the same code as any
// catalog (lib/olm/fbc), so a snapshot can never say more than a catalog could.
import { z } from 'zod';
import type { PackageSummary } from './package-summary';

export const SNAPSHOT_FORMAT = 'olm-console.catalog-snapshot/v1';

/** The largest snapshot file read (gzipped) and what it may inflate to. */
export const MAX_SNAPSHOT_FILE_BYTES = 32 * 1024 * 1024;
export const MAX_SNAPSHOT_TEXT_BYTES = 160 * 1024 * 1024;
/** More packages than any catalog seen (OpenShift's four default catalogs hold ~1,200 together). */
const MAX_PACKAGES = 20_000;

const text = (max = 4096) => z.string().max(max);
const list = (max = 1024) => z.array(text(1024)).max(max);

/** Who the snapshot is of and which read it holds; see catalog-entries.ts for the fields. */
export const SnapshotHeader = z.strictObject({
  format: z.literal(SNAPSHOT_FORMAT),
  key: text(507),
  address: text(1024),
  version: text(1024),
  fetchedAt: z.number().int().nonnegative(),
  freshForMs: z
    .number()
    .int()
    .nonnegative()
    .max(24 * 60 * 60_000),
  bytes: z.number().int().nonnegative(),
  packages: z.number().int().nonnegative().max(MAX_PACKAGES),
});
export type SnapshotHeader = z.infer<typeof SnapshotHeader>;

const Summary = z.strictObject({
  name: text(253),
  catalog: z.strictObject({ name: text(253), namespace: text(63), displayName: text(1024).optional() }),
  displayName: text(1024),
  provider: text(1024),
  shortDescription: text(1024),
  categories: list(),
  capability: text(253).optional(),
  keywords: list(),
  defaultChannel: text(253).optional(),
  headVersion: text(253).optional(),
  headBundle: text(1024).optional(),
  installModes: z.array(z.enum(['OwnNamespace', 'SingleNamespace', 'MultiNamespace', 'AllNamespaces'])).max(4),
  infrastructureFeatures: list(),
  validSubscription: list(),
  deprecation: text(64 * 1024).optional(),
  nonStandalone: z.boolean(),
  arch: list(),
  os: list(),
  hasIcon: z.boolean().optional(),
});

/** The tiles, as the index had summarized them: one per package of the catalog. */
export const SnapshotSummaries = z.array(Summary).max(MAX_PACKAGES);

// The schema and the type the rest of the console uses must not drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<z.infer<typeof Summary>, Omit<PackageSummary, 'installedIn' | 'installedAs'>> = true;
void sameShape;
