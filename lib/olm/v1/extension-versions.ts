// Which versions of its package an installed ClusterExtension can move to, and the path v1 would
// take, from the catalogs' channels. Under CatalogProvided operator-controller accepts only a
// successor of the installed bundle (replaces, skips or skipRange: one hop, lib/olm/v1/successors.ts)
// or the same version; a range wider than one hop is walked hop by hop, one upgrade per reconcile
// (each upgrade's writes wake its managed-object watches). A version with no chain of edges, an
// older one included, is refused. Under SelfCertified no edge is checked: every version is allowed
// (resolve/catalog.go; docs/olm-v1/extensions.md#versions). Only bundles and edges of the channels
// spec names count when it names any.
import type { DeclarativeConfig, FbcBundle } from '../fbc/types';
import { compareVersions, formatVersion, type SemVer } from '../semver/version';
import { bundleVersion } from './bundle-version';
import type { UpgradeConstraintPolicy } from './resolve';
import { successorsOf, type InstalledBundle } from './successors';

export type Reach =
  | { kind: 'installed' }
  /** One hop: setting this exact version installs it. */
  | { kind: 'next' }
  /** Several hops: `path` are the versions v1 installs in turn (ending with this one); only a range lets it walk them. */
  | { kind: 'path'; path: string[] }
  /** SelfCertified: allowed without checking the catalog's edges. */
  | { kind: 'unchecked' }
  | { kind: 'refused'; why: string };

export interface VersionOption {
  version: string;
  bundle: string;
  catalog: string;
  newer: boolean;
  reach: Reach;
}

interface Node {
  bundle: FbcBundle;
  version: SemVer;
  catalog: string;
}

function nodesOf(catalog: string, fbc: DeclarativeConfig, channels: readonly string[]) {
  const chans = channels.length ? fbc.channels.filter((c) => channels.includes(c.name)) : fbc.channels;
  const inChannel = new Set(chans.flatMap((c) => c.entries.map((e) => e.name)));
  const nodes: Node[] = [];
  for (const b of fbc.bundles) {
    if (channels.length && !inChannel.has(b.name)) continue;
    const v = bundleVersion(b);
    if (!('error' in v)) nodes.push({ bundle: b, version: v.version, catalog });
  }
  return { nodes, chans };
}

/**
 * Every version the catalogs offer under the extension's channels, newest first, each with how v1
 * would reach it from `installed`.
 */
export function versionOptions(
  installed: InstalledBundle,
  catalogs: readonly { catalog: string; fbc: DeclarativeConfig }[],
  channels: readonly string[],
  policy: UpgradeConstraintPolicy,
): VersionOption[] {
  const seen = new Map<string, VersionOption & { semver: SemVer }>();
  for (const { catalog, fbc } of catalogs) {
    const { nodes, chans } = nodesOf(catalog, fbc, channels);
    // Breadth first from the installed bundle over one-hop successor edges: the shortest walk.
    const pathTo = new Map<string, string[]>([[installed.name, []]]);
    let frontier: InstalledBundle[] = [installed];
    while (frontier.length) {
      const next: InstalledBundle[] = [];
      for (const from of frontier) {
        const isSuccessor = successorsOf(from, chans);
        if ('error' in isSuccessor) continue;
        for (const n of nodes) {
          if (pathTo.has(n.bundle.name) || !isSuccessor(n.bundle)) continue;
          const version = formatVersion(n.version);
          pathTo.set(n.bundle.name, [...pathTo.get(from.name)!, version]);
          next.push({ name: n.bundle.name, version });
        }
      }
      frontier = next;
    }
    const installedVersion = nodes.find((n) => n.bundle.name === installed.name)?.version;
    for (const n of nodes) {
      const version = formatVersion(n.version);
      if (seen.has(version)) continue;
      const newer = installedVersion ? compareVersions(n.version, installedVersion) > 0 : version !== installed.version;
      const path = pathTo.get(n.bundle.name);
      let reach: Reach;
      if (n.bundle.name === installed.name || version === installed.version) reach = { kind: 'installed' };
      else if (policy === 'SelfCertified') reach = { kind: 'unchecked' };
      else if (path?.length === 1) reach = { kind: 'next' };
      else if (path) reach = { kind: 'path', path };
      else
        reach = {
          kind: 'refused',
          why: newer
            ? `no chain of upgrade edges leads from ${installed.version} to ${version} in these channels`
            : `an older version: under CatalogProvided v1 installs only successors of ${installed.version}`,
        };
      seen.set(version, { version, bundle: n.bundle.name, catalog, newer, reach, semver: n.version });
    }
  }
  return [...seen.values()]
    .sort((a, b) => compareVersions(b.semver, a.semver))
    .map((o) => ({ version: o.version, bundle: o.bundle, catalog: o.catalog, newer: o.newer, reach: o.reach }));
}
