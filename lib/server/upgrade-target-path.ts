// Where a Subscription with an upgrade target stands: the update path from its installed CSV by
// the catalog's graph (as OLM walks it), and the InstallPlan its status points to.
import { graphFromModel } from '../catalog/graph-view';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import type { UpdateStep } from '../olm/graph/update-path';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../olm/resources/install-plan';
import type { Subscription } from '../olm/resources/subscription';
import { catalogIndexOf } from './fleet/catalog-indexes';

/** The update path from the installed CSV, by the catalog's graph (as OLM walks it). */
export async function pathOf(
  client: KubeClient,
  sub: Subscription,
): Promise<{ steps: UpdateStep[]; problem?: string }> {
  const installed = sub.status?.installedCSV;
  if (!installed) return { steps: [], problem: 'nothing is installed yet' };
  const lookup = await catalogIndexOf(client).lookupPackage(
    client,
    { namespace: sub.spec.sourceNamespace, catalog: sub.spec.source, package: sub.spec.name },
    [sub.metadata?.namespace ?? ''],
  );
  if (!lookup)
    return {
      steps: [],
      problem: `package ${sub.spec.name} is not in catalog ${sub.spec.sourceNamespace}/${sub.spec.source} (or cannot be seen)`,
    };
  if (lookup.source !== 'registry')
    return {
      steps: [],
      problem: 'the catalog is readable only through PackageManifests, which carry no upgrade edges',
    };
  const view = graphFromModel(lookup.pkg, sub.spec.channel || undefined, installed);
  return { steps: view.path?.steps ?? [], ...(view.path?.error ? { problem: view.path.error } : {}) };
}

export async function currentPlan(client: KubeClient, sub: Subscription): Promise<InstallPlan | undefined> {
  const name = sub.status?.installPlanRef?.name ?? sub.status?.installplan?.name;
  if (!name) return undefined;
  try {
    return await client.get<InstallPlan>(INSTALL_PLAN_TYPE, name, sub.metadata?.namespace);
  } catch (err) {
    if (isKubeError(err, 404)) return undefined;
    throw err;
  }
}
