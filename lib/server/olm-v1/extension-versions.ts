// An installed ClusterExtension's versions as v1 would treat them, and a version change previewed
// and applied as the person. The preview walks the catalogs operator-controller would walk (the
// extension's selector over the ClusterCatalogs the person may read) and resolves with
// lib/olm/v1/resolve.ts, so it names the bundle v1 will install or v1's own refusal. The change is a
// merge patch of spec.source.catalog.version (and upgradeConstraintPolicy when asked) carrying the
// resourceVersion the person saw: the API server answers 409 when the extension changed since.
// Before it, the roles this console granted the installer are widened where the new bundle needs
// more (extension-rights.ts); when they need more but are not the console's to widen, the change
// is a 409 with the reason, and nothing is written. The preview also says what the change does
// against the installed bundle (lib/server/upgrade-changes/v1-changes.ts).
import type { VersionOption, VersionPlan } from '../../api/olm-v1-extensions';
import type { KubeClient } from '../../k8s/client';
import type { DeclarativeConfig, FbcBundle } from '../../olm/fbc/types';
import { compareVersions, parseVersion } from '../../olm/semver/version';
import { versionOptions } from '../../olm/v1/extension-versions';
import { resolveBundle, type UpgradeConstraintPolicy } from '../../olm/v1/resolve';
import { parseVersionConstraints } from '../../olm/v1/version-range';
import { ApiError } from '../api-error';
import { checkFresh } from '../operators';
import { rightsForChange, type RightsWrite } from './extension-rights';
import { packageInCatalogs, readableCatalogs } from './readable-catalogs';
import { versionChangeSides } from '../upgrade-changes/v1-changes';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from './resources';

export interface VersionChange {
  version: string;
  /** Set to change the policy with the version (SelfCertified for a rollback); absent keeps it. */
  upgradeConstraintPolicy?: UpgradeConstraintPolicy;
  /** The extension's resourceVersion when the person looked. */
  seen: string;
}

const policyOf = (ce: ClusterExtension): UpgradeConstraintPolicy =>
  ce.spec?.source?.catalog?.upgradeConstraintPolicy ?? 'CatalogProvided';

async function walk(client: KubeClient, ce: ClusterExtension) {
  const cat = ce.spec?.source?.catalog;
  const catalogs = await readableCatalogs(client);
  if (!catalogs) return { error: 'the cluster does not serve OLM v1' };
  return packageInCatalogs(catalogs, cat?.packageName ?? '', cat?.selector);
}

/** The versions the catalogs offer, each with how v1 reaches it from the installed bundle. */
export async function extensionVersionOptions(
  client: KubeClient,
  ce: ClusterExtension,
): Promise<VersionOption[] | { problem: string }> {
  const installed = ce.status?.install?.bundle;
  if (!installed?.name || !installed.version) return { problem: 'nothing is installed yet' };
  let walked;
  try {
    walked = await walk(client, ce);
  } catch (err) {
    return { problem: `the ClusterCatalogs could not be read: ${(err as Error).message}` };
  }
  if ('error' in walked) return { problem: walked.error };
  const readable = walked.flatMap((w) =>
    'error' in w.pkg.fbc ? [] : [{ catalog: w.pkg.catalog, fbc: w.pkg.fbc as DeclarativeConfig }],
  );
  const unread = walked.filter((w) => 'error' in w.pkg.fbc).map((w) => w.pkg.catalog);
  if (!readable.length)
    return { problem: `no catalog's content could be read (${unread.join(', ') || 'none selected'})` };
  return versionOptions(
    { name: installed.name, version: installed.version },
    readable,
    ce.spec?.source?.catalog?.channels ?? [],
    policyOf(ce),
  );
}

/** A 400 in v1's words for a version expression operator-controller could not read. */
function checkVersion(version: string): void {
  const parsed = parseVersionConstraints(version);
  if ('error' in parsed)
    throw new ApiError(400, 'BadRequest', `desired version range "${version}" is invalid: ${parsed.error}`);
}

/** The change resolved as v1 would resolve it, with the bundle it picks. */
async function resolveChange(
  client: KubeClient,
  ce: ClusterExtension,
  change: Omit<VersionChange, 'seen'>,
): Promise<{ plan: VersionPlan; bundle?: FbcBundle; bundles?: FbcBundle[] }> {
  const cat = ce.spec?.source?.catalog;
  const policy = change.upgradeConstraintPolicy ?? policyOf(ce);
  const installed = ce.status?.install?.bundle;
  const plan: VersionPlan = { version: change.version, policy };
  const walked = await walk(client, ce);
  if ('error' in walked) return { plan: { ...plan, error: walked.error } };
  const r = resolveBundle(
    {
      packageName: cat?.packageName ?? '',
      version: change.version,
      channels: cat?.channels ?? [],
      upgradeConstraintPolicy: policy,
      ...(installed?.name && installed.version
        ? { installed: { name: installed.name, version: installed.version } }
        : {}),
    },
    walked.map((w) => w.pkg),
  );
  if ('error' in r) return { plan: { ...plan, error: r.error } };
  let direction: VersionPlan['change'];
  if (installed?.version) {
    const d = compareVersions(parseVersion(r.version), parseVersion(installed.version));
    direction = d === 0 ? 'same' : d > 0 ? 'upgrade' : 'downgrade';
  }
  return {
    plan: {
      ...plan,
      resolved: { bundle: r.bundle.name, version: r.version, catalog: r.catalog },
      ...(direction ? { change: direction } : {}),
    },
    bundle: r.bundle,
    bundles: walked.flatMap((w) => ('error' in w.pkg.fbc ? [] : w.pkg.fbc.bundles)),
  };
}

export async function planVersionChange(
  client: KubeClient,
  name: string,
  change: Omit<VersionChange, 'seen'>,
): Promise<VersionPlan> {
  checkVersion(change.version);
  const ce = await client.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, name);
  const { plan, bundle, bundles } = await resolveChange(client, ce, change);
  if (!bundle) return plan;
  const [rights, changes] = await Promise.all([
    rightsForChange(client, ce, bundle, plan.resolved?.catalog),
    plan.change === 'same'
      ? undefined
      : versionChangeSides(client, ce.status?.install?.bundle?.name, bundle, bundles ?? []),
  ]);
  return { ...plan, rights: rights.view, ...(changes ? { changes } : {}) };
}

/**
 * Widens the installer's roles where the new bundle needs more (extension-rights.ts), then patches
 * the version. A refused write, the patch's included, takes back the writes before it, so a
 * refusal changes nothing.
 */
export async function changeVersion(
  client: KubeClient,
  name: string,
  change: VersionChange,
): Promise<ClusterExtension> {
  checkVersion(change.version);
  const ce = await client.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, name);
  // Before any role is widened: the patch would be refused for the same reason.
  checkFresh('ClusterExtension', name, ce.metadata?.resourceVersion, change.seen, 'it changed');
  const { plan, bundle } = await resolveChange(client, ce, change);
  const rights = bundle ? await rightsForChange(client, ce, bundle, plan.resolved?.catalog) : undefined;
  if (rights?.view.state === 'refused') throw new ApiError(409, 'Conflict', rights.view.why);
  const writes = rights?.writes ?? [];
  const done: RightsWrite[] = [];
  try {
    for (const w of writes) {
      await w.apply(client);
      done.push(w);
    }
    return await client.patch<ClusterExtension>(CLUSTER_EXTENSION_TYPE, name, {
      metadata: { resourceVersion: change.seen },
      spec: {
        source: {
          catalog: {
            version: change.version,
            ...(change.upgradeConstraintPolicy ? { upgradeConstraintPolicy: change.upgradeConstraintPolicy } : {}),
          },
        },
      },
    });
  } catch (err) {
    for (const w of done.reverse()) await w.undo(client).catch(() => undefined);
    throw err;
  }
}
