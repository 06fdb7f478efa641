// An installed operator as a GitOps tree (lib/olm/install/gitops-export.ts), read as the person:
// its Subscription, the namespace's OperatorGroup and the Namespace. A copy is exported from the
// namespace its operator is installed in.
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import type { GitopsExport } from '../api/gitops-export';
import { gitopsTree, type KubeObjectLike } from '../olm/install/gitops-export';
import { CSV_TYPE, isCopiedCsv, operatorNamespaceOf, type ClusterServiceVersion } from '../olm/resources/cluster-service-version';
import { OPERATOR_GROUP_TYPE, type OperatorGroup } from '../olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import { ApiError } from './api-error';
import { NAMESPACE_TYPE } from './install';

export async function exportInstalledOperator(client: KubeClient, namespace: string, name: string, application?: string): Promise<GitopsExport> {
  const csv = await client.get<ClusterServiceVersion>(CSV_TYPE, name, namespace);
  if (isCopiedCsv(csv)) throw new ApiError(400, 'BadRequest', `${namespace}/${name} is a copy OLM made; export the operator from ${operatorNamespaceOf(csv) ?? 'the namespace it is installed in'}`);
  const [subs, groups] = await Promise.all([client.listAll<Subscription>(SUBSCRIPTION_TYPE, { namespace }), client.listAll<OperatorGroup>(OPERATOR_GROUP_TYPE, { namespace })]);
  const sub = subs.items.find((s) => s.status?.installedCSV === name || s.status?.currentCSV === name);
  if (!sub) throw new ApiError(409, 'Conflict', `no Subscription in ${namespace} installs ${name}: a CSV without a Subscription cannot be exported as an install`);
  if (groups.items.length !== 1) throw new ApiError(409, 'Conflict', `${namespace} has ${groups.items.length} OperatorGroups; OLM installs nothing there until it has exactly one, and neither can an export`);
  const notes: string[] = [];
  let ns: KubeObjectLike | undefined;
  try {
    ns = await client.get<KubeObjectLike>(NAMESPACE_TYPE, namespace);
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    notes.push(`You may not read Namespace ${namespace}: it is written without its labels and annotations; add any your cluster needs.`);
  }
  if (sub.spec.startingCSV && sub.status?.installedCSV && sub.spec.startingCSV !== sub.status.installedCSV) {
    notes.push(`The Subscription starts at ${sub.spec.startingCSV} and has since moved to ${sub.status.installedCSV}: applied to an empty cluster it installs ${sub.spec.startingCSV} first${sub.spec.installPlanApproval === 'Manual' ? ' and waits for each upgrade to be approved' : ' and upgrades from there'}.`);
  }
  const app = application || namespace;
  return { application: app, files: gitopsTree({ subscription: sub as unknown as KubeObjectLike, operatorGroup: groups.items[0] as unknown as KubeObjectLike, namespace: ns, application: app }), notes };
}
