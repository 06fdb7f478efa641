// The bundle an InstallPlan would install for one CSV, read as the person, best source first: the
// objects in its steps when OLM put them there; when the steps point at the ConfigMap OLM unpacked
// the bundle image into, that ConfigMap; when the person may not read it (it lives in the catalog's
// namespace), the bundle as the catalog gives it, inline or by its image (bundleManifests). The
// answer says which source it came from and why an earlier one was passed over.
import { GLOBAL_CATALOG_NAMESPACES } from '../../catalog/catalog-index';
import type { KubeClient } from '../../k8s/client';
import type { BundleObject } from '../../olm/bundle/registry-v1-files';
import { planBundle } from '../../olm/install/plan-bundle';
import type { InstallPlan } from '../../olm/resources/install-plan';
import type { Subscription } from '../../olm/resources/subscription';
import { bundleManifests } from '../bundle-images/bundle-manifests';
import { fromManifests, type ReadBundle } from './read-bundle';
import { readUnpackConfigMap } from './unpack-configmap';
import { catalogIndexOf } from '../fleet/catalog-indexes';

interface CatalogRef {
  namespace: string;
  name: string;
}

/** The bundle `csv` of `pkg` as catalog `ref` gives it, found as the person, or why not. */
export async function catalogBundle(
  client: KubeClient,
  ref: CatalogRef,
  sub: Subscription,
  csv: string,
  fallback: string,
): Promise<ReadBundle> {
  const pkg = sub.spec.name;
  const viewers = [sub.metadata?.namespace ?? '', ...GLOBAL_CATALOG_NAMESPACES].filter(Boolean);
  const index = catalogIndexOf(client);
  const lookup = await index.lookupPackage(
    client,
    { namespace: ref.namespace, catalog: ref.name, package: pkg },
    viewers,
  );
  const where = `catalog ${ref.namespace}/${ref.name}`;
  if (!lookup) return { unknown: `${fallback}; and package ${pkg} is not in ${where}, or you may not see it` };
  if (lookup.source !== 'registry')
    return {
      unknown:
        `${fallback}; and you see ${where} only through its PackageManifests, which carry neither a bundle's ` +
        'objects nor its image',
    };
  const model = lookup.pkg.bundles.get(csv);
  if (!model) return { unknown: `${fallback}; and ${where} no longer has bundle ${csv}` };
  const channel = sub.spec.channel || model.channels[0] || '';
  const served = await index.bundleObjects(lookup.address, pkg, channel, csv);
  const csvObject = Array.isArray(served) ? served.find((o) => o.kind === 'ClusterServiceVersion') : undefined;
  if (Array.isArray(served) && csvObject) {
    const objects = served as BundleObject[];
    return {
      bundle: csv,
      source: 'catalog',
      csv: csvObject as BundleObject,
      others: objects.filter((o) => o !== csvObject),
      gaps: [],
      fallback,
    };
  }
  return fromManifests(
    csv,
    await bundleManifests({ name: csv, image: model.image, properties: model.properties }, undefined, {
      client,
      catalog: { kind: 'CatalogSource', namespace: ref.namespace, name: ref.name },
    }),
    fallback,
  );
}

export async function planTargetBundle(
  client: KubeClient,
  plan: InstallPlan,
  csv: string,
  sub: Subscription,
): Promise<ReadBundle> {
  const pb = planBundle(plan, csv);
  if (pb.form === 'unreadable') return { unknown: pb.why };
  if (pb.form === 'objects') return { bundle: csv, source: 'plan', csv: pb.csv, others: pb.others, gaps: [] };
  const ref = pb.reference;
  const read = await readUnpackConfigMap(client, ref);
  if ('csv' in read) return { bundle: csv, source: 'unpack-configmap', csv: read.csv, others: read.others, gaps: [] };
  const why = 'refused' in read ? read.refused : read.unknown;
  const fallback =
    `the plan's steps point at the bundle OLM unpacked into ConfigMap ${ref.namespace}/${ref.name}, ` + `but ${why}`;
  return catalogBundle(
    client,
    {
      namespace: ref.catalogSourceNamespace || sub.spec.sourceNamespace,
      name: ref.catalogSourceName || sub.spec.source,
    },
    sub,
    csv,
    fallback,
  );
}
