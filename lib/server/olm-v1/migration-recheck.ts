// The move's last look before it marks objects for OLM v1 to take over. The plan is made again
// when the move starts, but the adopt step comes after the Subscription and the CSV are deleted
// (seconds to a minute later), and the cluster may change meanwhile: an object deleted and made
// again by someone else under the same name, relabelled into a shared role, or marked for another
// Helm release; an object the plan said v1 would create made by someone. Each planned object is
// read again as the person and must be the very object planned (its uid: the CSV is gone by now,
// and with it the ownerReferences that said OLM v0 installed it); the patch then carries the
// resourceVersion just read, so a change between this read and the write is a 409, not an
// adoption. An object gone by now (OLM v0's finalizer deletes the cluster-scoped RBAC it made for
// the CSV) is left for v1 to create.
// The bundle read from an image is asked for again too: operator-controller pulls what the catalog
// names when the ClusterExtension is made, so the catalog must still name an image of the digest
// whose content the plan rendered and checked (a tag may have moved, the catalog been updated).
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import type { MigrationTarget } from '../../olm/v1/migration-check';
import { typeOf, type MigrationStep, type MigrationWrite } from '../../olm/v1/migration-plan';
import { appearedRefusal, recheckRefusal } from '../../olm/v1/v0-ownership';
import { catalogsFor, existingObject, type MigrationAnalysis } from './migration';
import { bundleDigestNow } from './migration-bundle';

type Live = Parameters<typeof existingObject>[1] & { metadata?: { resourceVersion?: string } };

async function read(client: KubeClient, w: Pick<MigrationWrite, 'type' | 'name' | 'namespace'>) {
  try {
    return await client.get<Live>(w.type, w.name, w.namespace);
  } catch (err) {
    if (isKubeError(err, 404)) return undefined;
    throw err;
  }
}

export interface Rechecked {
  /** The adopt step's patches, each bound to the resourceVersion just read. */
  writes: MigrationWrite[];
  /** Planned objects gone since: v1 creates them, so a rollback deletes them. */
  vanished: MigrationWrite[];
}

/**
 * The adopt step's writes as they may be made now, or why the move must stop. `created` are the
 * objects the plan said v1 would create (as the deletes that would undo them).
 */
export async function recheckAdoption(
  client: KubeClient,
  adopt: MigrationStep,
  created: MigrationWrite[],
  ctx: { csv: string; extension: string; namespace: string },
): Promise<Rechecked | { refused: string }> {
  const refusals: string[] = [];
  const out: Rechecked = { writes: [], vanished: [] };
  for (const w of adopt.writes) {
    const live = await read(client, w);
    const planned = {
      kind: w.type.kind,
      name: w.name,
      ...(w.namespace ? { namespace: w.namespace } : {}),
      uid: w.uid,
      ...(w.rules ? { rules: w.rules } : {}),
    };
    if (!live) {
      out.vanished.push({ verb: 'delete', type: w.type, name: w.name, namespace: w.namespace });
      continue;
    }
    const why = recheckRefusal(planned, existingObject(w.type.kind, live, ''), {
      name: ctx.extension,
      namespace: ctx.namespace,
    });
    if (why) refusals.push(why);
    else {
      const body = structuredClone(w.body!) as { metadata: Record<string, unknown> };
      body.metadata.resourceVersion = live.metadata?.resourceVersion;
      out.writes.push({ ...w, body });
    }
  }
  for (const c of created)
    if (await read(client, c))
      refusals.push(
        appearedRefusal(
          { kind: c.type.kind, name: c.name, ...(c.namespace ? { namespace: c.namespace } : {}) },
          ctx.csv,
        ),
      );
  return refusals.length ? { refused: refusals.join('; ') } : out;
}

/** v1's objects that did not exist at the plan (its ClusterRoles and bindings, mostly), as deletes undoing them. */
export function createdByV1(a: MigrationAnalysis): MigrationWrite[] {
  return (a.objects ?? [])
    .filter((o) => !a.existingKeys?.has(`${o.kind}/${String(o.metadata.name)}`))
    .map((o) => ({
      verb: 'delete' as const,
      type: typeOf(o as never),
      name: String(o.metadata.name),
      ...(o.metadata.namespace ? { namespace: String(o.metadata.namespace) } : {}),
    }));
}

/** Why the bundle v1 would pull now is not the image whose content the plan checked, or undefined. */
export async function recheckContent(client: KubeClient, target: MigrationTarget): Promise<string | undefined> {
  const planned = target.source;
  if (planned.from !== 'image') return undefined;
  const catalogs = await catalogsFor(client, target.packageName);
  if (!Array.isArray(catalogs))
    return `ClusterCatalog ${target.catalog} cannot be read again: ${catalogs ?? 'OLM v1 is not served'}`;
  const fbc = catalogs.find((c) => c.catalog === target.catalog)?.fbc;
  const bundle = fbc && !('error' in fbc) ? fbc.bundles.find((b) => b.name === target.bundle) : undefined;
  if (!bundle) return `ClusterCatalog ${target.catalog} no longer serves bundle ${target.bundle}`;
  const now = await bundleDigestNow(bundle, { client, catalog: { kind: 'ClusterCatalog', name: target.catalog } });
  if (!now) return `ClusterCatalog ${target.catalog} now gives bundle ${target.bundle} inline, not by the image read`;
  if ('unknown' in now) return `which image bundle ${target.bundle} is now cannot be told: ${now.unknown}`;
  if (now.digest !== planned.digest)
    return (
      `bundle image ${bundle.image ?? ''} now resolves to ${now.digest}, not to ${planned.digest}, ` +
      'whose content the plan checked'
    );
  return undefined;
}
