// An installed operator as a GitOps tree (lib/olm/install/gitops-export.ts), read as the person:
// its Subscription, the namespace's OperatorGroup and the Namespace. A copy is exported from the
// namespace its operator is installed in.
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import type { GitopsExport } from '../api/gitops-export';
import { gitopsTree, type KubeObjectLike } from '../olm/install/gitops-export';
import {
  CSV_TYPE,
  isCopiedCsv,
  operatorNamespaceOf,
  type ClusterServiceVersion,
} from '../olm/resources/cluster-service-version';
import { OPERATOR_GROUP_TYPE, type OperatorGroup } from '../olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import { ApiError } from './api-error';
import { NAMESPACE_TYPE, SERVICE_ACCOUNT_TYPE } from './install';

export async function exportInstalledOperator(
  client: KubeClient,
  namespace: string,
  name: string,
  application?: string,
): Promise<GitopsExport> {
  const csv = await client.get<ClusterServiceVersion>(CSV_TYPE, name, namespace);
  if (isCopiedCsv(csv))
    throw new ApiError(
      400,
      'BadRequest',
      `${namespace}/${name} is a copy OLM made; export the operator from ${operatorNamespaceOf(csv) ?? 'the namespace it is installed in'}`,
    );
  const [subs, groups] = await Promise.all([
    client.listAll<Subscription>(SUBSCRIPTION_TYPE, { namespace }),
    client.listAll<OperatorGroup>(OPERATOR_GROUP_TYPE, { namespace }),
  ]);
  const sub = subs.items.find((s) => s.status?.installedCSV === name || s.status?.currentCSV === name);
  if (!sub)
    throw new ApiError(
      409,
      'Conflict',
      `no Subscription in ${namespace} installs ${name}: a CSV without a Subscription cannot be exported as an install`,
    );
  if (groups.items.length !== 1)
    throw new ApiError(
      409,
      'Conflict',
      `${namespace} has ${groups.items.length} OperatorGroups; OLM installs nothing there until it has exactly one, and neither can an export`,
    );
  const notes: string[] = [];
  let ns: KubeObjectLike | undefined;
  try {
    ns = await client.get<KubeObjectLike>(NAMESPACE_TYPE, namespace);
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    notes.push(
      `You may not read Namespace ${namespace}: it is written without its labels and annotations; add any your cluster needs.`,
    );
  }
  if (sub.spec.startingCSV && sub.status?.installedCSV && sub.spec.startingCSV !== sub.status.installedCSV) {
    notes.push(
      `The Subscription starts at ${sub.spec.startingCSV} and has since moved to ${sub.status.installedCSV}: applied to an empty cluster it installs ${sub.spec.startingCSV} first${sub.spec.installPlanApproval === 'Manual' ? ' and waits for each upgrade to be approved' : ' and upgrades from there'}.`,
    );
  }
  // A scoped install: the account the group names goes with it. Which Roles grant it its rights is
  // recorded nowhere, so those are said, not guessed.
  const account = groups.items[0]!.spec?.serviceAccountName;
  const access: KubeObjectLike[] = [];
  if (account) {
    try {
      access.push(await client.get<KubeObjectLike>(SERVICE_ACCOUNT_TYPE, account, namespace));
    } catch (err) {
      if (!isKubeError(err, 403) && !isKubeError(err, 404)) throw err;
      access.push({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: account, namespace } });
    }
    notes.push(
      `OperatorGroup ${groups.items[0]!.metadata?.name} names service account ${account}: OLM installs as that account, so the Roles and bindings that grant it its rights belong in the tree too; which ones do is not recorded on the cluster, so add them (the install wizard shows what this operator needs).`,
    );
  }
  const app = application || namespace;
  return {
    application: app,
    files: gitopsTree({
      subscription: sub as unknown as KubeObjectLike,
      operatorGroup: groups.items[0] as unknown as KubeObjectLike,
      namespace: ns,
      application: app,
      access,
    }),
    notes,
  };
}
