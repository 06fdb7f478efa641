// One cluster's OLM v1 installs of a package for its rollout row: each ClusterExtension with its
// installed bundle and the walk OLM v1 would take from it (lib/olm/v1/upgrade-walk.ts), computed
// from the content catalogd serves on that cluster, read as the person through that cluster's API
// server (content is cached by address, digest and unpack time, so one cluster's content answers
// for another only where both serve the very same image). Catalog selection follows
// operator-controller (lib/olm/v1/catalog-selection.ts); where the package comes from several
// catalogs the walk is not shown, since OLM v1 then compares bundles across them.
import type { RolloutInstall } from '../../api/fleet-rollout';
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { v1UpgradeWalk } from '../../olm/v1/upgrade-walk';
import { parseVersionConstraints } from '../../olm/v1/version-range';
import { extensionRow } from '../olm-v1/extension-rows';
import { packageInCatalogs, readableCatalogs, type ReadableCatalog } from '../olm-v1/readable-catalogs';
import type { ClusterExtension } from '../olm-v1/resources';

type PathPart = Pick<RolloutInstall, 'catalog' | 'head' | 'path' | 'pathUnknown'>;

async function pathOf(
  ce: ClusterExtension,
  catalogs: readonly ReadableCatalog[] | string,
  pkgName: string,
): Promise<PathPart> {
  if (typeof catalogs === 'string') return { pathUnknown: catalogs };
  const source = ce.spec?.source?.catalog;
  const found = await packageInCatalogs(catalogs, pkgName, source?.selector);
  if ('error' in found) return { pathUnknown: found.error };
  const failed = found.filter((f) => 'error' in f.pkg.fbc);
  const holding = found.filter((f) => !('error' in f.pkg.fbc) && f.pkg.fbc.bundles.length > 0);
  if (holding.length === 0) {
    const why = failed.map((f) => `${f.pkg.catalog}: ${(f.pkg.fbc as { error: string }).error}`).join('; ');
    return {
      pathUnknown: `no ClusterCatalog you may read here offers package ${pkgName}${why ? ` (${why})` : ''}`,
    };
  }
  if (holding.length > 1 || failed.length > 0) {
    const names = [...holding, ...failed].map((f) => f.pkg.catalog).join(', ');
    return {
      pathUnknown:
        `package ${pkgName} may come from several ClusterCatalogs here (${names}); OLM v1 compares their ` +
        'bundles by version and priority, and the console shows a path only where one catalog offers it',
    };
  }
  const one = holding[0]!;
  const fbc = one.pkg.fbc as Exclude<typeof one.pkg.fbc, { error: string }>;
  const wanted = source?.channels ?? [];
  const channels = wanted.length > 0 ? fbc.channels.filter((c) => wanted.includes(c.name)) : fbc.channels;
  let constraint;
  if (source?.version) {
    const parsed = parseVersionConstraints(source.version);
    if ('error' in parsed) return { catalog: one.pkg.catalog, pathUnknown: parsed.error };
    constraint = parsed;
  }
  const bundle = ce.status?.install?.bundle;
  const walk =
    bundle?.name && bundle.version
      ? v1UpgradeWalk({ name: bundle.name, version: bundle.version }, channels, fbc.bundles, constraint)
      : undefined;
  const head = walk?.head ?? v1UpgradeWalk({ name: '', version: '0.0.0' }, channels, fbc.bundles, constraint).head;
  const base = { catalog: one.pkg.catalog, ...(head ? { head } : {}) };
  if (!walk) return { ...base, pathUnknown: 'nothing is installed yet, so there is no path to walk' };
  if (source?.upgradeConstraintPolicy === 'SelfCertified')
    return {
      ...base,
      pathUnknown:
        "upgradeConstraintPolicy is SelfCertified: OLM v1 ignores the catalog's upgrade edges and moves to " +
        'whichever version the extension names',
    };
  return {
    ...base,
    path: {
      steps: walk.steps.map((s) => ({ from: s.from, to: s.to, toVersion: s.toVersion })),
      reachesHead: walk.reachesHead,
      ...(walk.reachesHead ? {} : { end: walk.steps.at(-1)?.to ?? bundle!.name! }),
      ...(walk.error ? { error: walk.error } : {}),
    },
  };
}

/** The ClusterExtensions of `pkg` on this cluster (none where OLM v1 is absent), each with its walk. */
export async function v1Rollout(
  client: KubeClient,
  extensions: readonly ClusterExtension[],
  pkg: string,
): Promise<RolloutInstall[]> {
  if (extensions.length === 0) return [];
  let catalogs: ReadableCatalog[] | string;
  try {
    catalogs = (await readableCatalogs(client)) ?? 'this cluster does not serve OLM v1 ClusterCatalogs';
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    catalogs = `you may not list ClusterCatalogs here, so the catalog's edges cannot be read: ${err.message}`;
  }
  return Promise.all(
    extensions.map(async (ce): Promise<RolloutInstall> => {
      const row = extensionRow(ce);
      const source = ce.spec?.source?.catalog;
      return {
        olm: 'v1',
        name: row.name,
        ...(row.namespace ? { namespace: row.namespace } : {}),
        ...(row.version ? { version: row.version } : {}),
        ...(row.bundle ? { bundle: row.bundle } : {}),
        ...(source?.channels?.length ? { channel: source.channels.join(', ') } : {}),
        ...(source?.version ? { versionConstraint: source.version } : {}),
        health: {
          severity: row.status.severity,
          label: row.status.label,
          ...(row.status.detail ? { detail: row.status.detail } : {}),
        },
        ...(await pathOf(ce, catalogs, pkg)),
      };
    }),
  );
}
