// The OLM v1 version changes waiting for a person across the fleet: on each cluster, every
// ClusterExtension that could move to a newer version its channels offer but will not move by
// itself, pinned to an exact version or held by a range that leaves the newer one out. Which
// versions are successors is lib/olm/v1's (extension-versions.ts: one hop over replaces, skips,
// skipRange; resolve.ts: what v1 installs with the extension's spec as it stands), read from that
// cluster's own catalogd content as the person. The preview and the change are the single-cluster
// version page's (lib/server/olm-v1/extension-versions.ts): what the change does against the
// installed bundle, the installer's rights (widened only where the console's install made the
// roles), and a write on the extension as the person saw it. Each on its own cluster as the person.
import type { FleetVersionChange, FleetVersionChangeItem, FleetVersionChangeRef } from '../../api/fleet-approvals';
import type { FleetVersionChangeResult, FleetVersionPreview } from '../../api/fleet-approvals';
import type { ClusterError } from '../../api/fleet';
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import type { DeclarativeConfig } from '../../olm/fbc/types';
import { compareVersions, parseVersion } from '../../olm/semver/version';
import { versionOptions } from '../../olm/v1/extension-versions';
import { resolveBundle } from '../../olm/v1/resolve';
import { errorBody } from '../api-error';
import { changeVersion, planVersionChange } from '../olm-v1/extension-versions';
import { packageInCatalogs, readableCatalogs, type ReadableCatalog } from '../olm-v1/readable-catalogs';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '../olm-v1/resources';
import { boundedMap, FLEET_CONCURRENCY, FLEET_TIMEOUT_MS, forgetCluster, withDeadline } from './across';
import type { FleetMember } from './members';
import type { FleetPerson } from './person';

const sameVersion = (a: string, b: string) => {
  try {
    return compareVersions(parseVersion(a), parseVersion(b)) === 0;
  } catch {
    return a === b;
  }
};

/**
 * The change waiting for one extension, undefined when there is none: nothing installed, a
 * SelfCertified extension (v1 ignores the edges, so no version is its successor), no newer
 * successor on offer, or a spec that already lets v1 move there on its next pass.
 */
export async function waitingVersionChange(
  ce: ClusterExtension,
  catalogs: readonly ReadableCatalog[],
): Promise<FleetVersionChange | { note: string } | undefined> {
  const name = ce.metadata?.name ?? '';
  const cat = ce.spec?.source?.catalog;
  const installed = ce.status?.install?.bundle;
  if (!cat?.packageName || !installed?.name || !installed.version) return undefined;
  if ((cat.upgradeConstraintPolicy ?? 'CatalogProvided') !== 'CatalogProvided') return undefined;
  const walked = await packageInCatalogs(catalogs, cat.packageName, cat.selector);
  if ('error' in walked) return { note: `ClusterExtension ${name}: ${walked.error}` };
  const readable = walked.flatMap((w) =>
    'error' in w.pkg.fbc ? [] : [{ catalog: w.pkg.catalog, fbc: w.pkg.fbc as DeclarativeConfig }],
  );
  const unread = walked.filter((w) => 'error' in w.pkg.fbc).map((w) => w.pkg.catalog);
  if (readable.length === 0)
    return unread.length
      ? { note: `ClusterExtension ${name}: no catalog's content could be read (${unread.join(', ')})` }
      : undefined;
  const from = { name: installed.name, version: installed.version };
  const channels = cat.channels ?? [];
  // Newest first: the first one-hop successor is the one v1 installs when the version allows it.
  const options = versionOptions(from, readable, channels, 'CatalogProvided');
  const next = options.find((o) => o.newer && o.reach.kind === 'next');
  if (!next) return undefined;
  // What v1 does with the spec as it stands: moving already (no version, or a range that holds a
  // successor) is not a change waiting for anyone.
  const now = resolveBundle(
    {
      packageName: cat.packageName,
      ...(cat.version ? { version: cat.version } : {}),
      channels,
      upgradeConstraintPolicy: 'CatalogProvided',
      installed: from,
    },
    walked.map((w) => w.pkg),
  );
  if (!('error' in now) && !sameVersion(now.version, installed.version)) return undefined;
  const farthest = options.find((o) => o.newer && (o.reach.kind === 'next' || o.reach.kind === 'path'));
  return {
    name,
    package: cat.packageName,
    ...(ce.spec?.namespace ? { namespace: ce.spec.namespace } : {}),
    ...(ce.metadata?.resourceVersion ? { resourceVersion: ce.metadata.resourceVersion } : {}),
    installed: { bundle: installed.name, version: installed.version },
    ...(cat.version ? { constraint: cat.version } : {}),
    channels,
    to: { version: next.version, bundle: next.bundle, catalog: next.catalog },
    ...(farthest && farthest.reach.kind === 'path'
      ? { newest: { version: farthest.version, path: farthest.reach.path } }
      : {}),
  };
}

/** One cluster's ClusterExtensions with a newer version waiting, as the person may read them. */
export async function clusterVersionChanges(
  client: KubeClient,
): Promise<{ versionChanges: FleetVersionChange[]; notes: string[] }> {
  const notes: string[] = [];
  if (!(await client.serves(CLUSTER_EXTENSION_TYPE))) return { versionChanges: [], notes };
  let extensions: ClusterExtension[];
  let catalogs: ReadableCatalog[];
  try {
    extensions = (await client.listAll<ClusterExtension>(CLUSTER_EXTENSION_TYPE)).items;
    if (!extensions.some((ce) => ce.status?.install?.bundle)) return { versionChanges: [], notes };
    catalogs = (await readableCatalogs(client)) ?? [];
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    notes.push(err.message);
    return { versionChanges: [], notes };
  }
  const found = await Promise.all(extensions.map((ce) => waitingVersionChange(ce, catalogs)));
  const versionChanges: FleetVersionChange[] = [];
  for (const f of found) {
    if (!f) continue;
    if ('note' in f) notes.push(f.note);
    else versionChanges.push(f);
  }
  versionChanges.sort((a, b) => a.name.localeCompare(b.name));
  return { versionChanges, notes };
}

function failure(err: unknown, what: string): ClusterError {
  if ((err as { fleetTimeout?: boolean }).fleetTimeout)
    return { code: 504, reason: 'Timeout', message: `${(err as Error).message}; ${what}` };
  const { code, reason, message } = errorBody(err).error;
  return { code, reason, message };
}

/**
 * Each change previewed on its own cluster as the person, as the single-cluster version page
 * previews it (planVersionChange): the bundle v1 would install, what it changes, the installer's rights.
 */
export async function previewVersionChanges(
  members: readonly FleetMember[],
  person: FleetPerson,
  items: readonly FleetVersionChangeRef[],
): Promise<FleetVersionPreview[]> {
  return boundedMap(items, FLEET_CONCURRENCY, async (item): Promise<FleetVersionPreview> => {
    const member = members.find((m) => m.name === item.cluster)!;
    const where = { cluster: item.cluster, name: item.name };
    try {
      const plan = await withDeadline(
        Promise.resolve().then(() => planVersionChange(person.client(member), item.name, { version: item.version })),
        FLEET_TIMEOUT_MS,
        item.cluster,
      );
      return { ...where, ok: true, plan };
    } catch (err) {
      return { ...where, ok: false, error: failure(err, 'nothing was changed') };
    }
  });
}

/**
 * Each extension's version set on its own cluster as the person, through the single-cluster
 * version change (changeVersion: on the extension as the person saw it, the installer's roles
 * widened only where the console's install made them, every write taken back on a refusal). One
 * refusal never stops another.
 */
export async function changeVersionsAcross(
  members: readonly FleetMember[],
  person: FleetPerson,
  items: readonly FleetVersionChangeItem[],
): Promise<FleetVersionChangeResult[]> {
  const results = await boundedMap(items, FLEET_CONCURRENCY, async (item): Promise<FleetVersionChangeResult> => {
    const member = members.find((m) => m.name === item.cluster)!;
    const where = { cluster: item.cluster, name: item.name, version: item.version };
    try {
      const ce = await withDeadline(
        Promise.resolve().then(() =>
          changeVersion(person.client(member), item.name, { version: item.version, seen: item.seen }),
        ),
        FLEET_TIMEOUT_MS,
        item.cluster,
      );
      return {
        ...where,
        ok: true,
        ...(ce.metadata?.resourceVersion ? { resourceVersion: ce.metadata.resourceVersion } : {}),
      };
    } catch (err) {
      return { ...where, ok: false, error: failure(err, 'the change may or may not have been made') };
    }
  });
  // What the person was told of these clusters' extensions is out of date now.
  for (const cluster of new Set(items.map((i) => i.cluster))) forgetCluster(person, cluster);
  return results;
}
