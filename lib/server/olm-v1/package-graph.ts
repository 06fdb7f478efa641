// A ClusterCatalog package's channel graph for its details page: the same edges as for OLM v0
// (v1 keeps replaces, skips and skipRange; lib/catalog/graph-view.ts reads them from the model),
// without what is v0's alone. OLM v0 never upgrades to a skipped entry, since it walks the
// channel's replacement order; OLM v1 takes the highest-versioned successor, and a skipped bundle
// can be one (lib/olm/v1/successors.ts), so no node is called "never a target" here.
import { graphFromModel } from '../../catalog/graph-view';
import type { GraphView } from '../../hub/catalog-types';
import type { KubeClient } from '../../k8s/client';
import { findV1Package } from './package-lookup';

export async function v1PackageGraph(
  client: KubeClient,
  catalogName: string,
  pkgName: string,
  channel: string | undefined,
): Promise<GraphView> {
  const { pkg } = await findV1Package(client, catalogName, pkgName);
  const view = graphFromModel(pkg, channel);
  const nodes = view.nodes.map((n) => {
    const copy = { ...n };
    delete copy.neverTarget;
    return copy;
  });
  return { ...view, nodes };
}
