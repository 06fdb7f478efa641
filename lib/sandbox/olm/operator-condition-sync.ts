// The OperatorCondition OLM creates for each CSV it installs (docs/olm/operator-conditions.md),
// and the mirror of the conditions the operator writes into its status.
import type { KObject } from '../store/types';
import { OLM, OperatorBase } from './operator-base';
import { csvView, operatorConditionView } from './olm-views';

export class OperatorConditionSync extends OperatorBase {
  /** One OperatorCondition per installed CSV (docs/olm/operator-conditions.md#what-olm-creates): owned by it, naming its accounts and deployments. */
  ensureOperatorCondition(csv: KObject): void {
    const ocRes = this.res(OLM, 'v2', 'operatorconditions');
    const ns = csv.metadata.namespace ?? '';
    const name = csv.metadata.name ?? '';
    const install = csvView(csv).spec.install?.spec;
    const accounts = [
      ...new Set(
        [...(install?.permissions ?? []), ...(install?.clusterPermissions ?? [])].map((p) => p.serviceAccountName),
      ),
    ];
    let oc = this.exists(ocRes, ns, name);
    if (!oc) {
      oc = this.api.createObject(ocRes, {
        apiVersion: `${OLM}/v2`,
        kind: 'OperatorCondition',
        metadata: {
          name,
          namespace: ns,
          ownerReferences: [
            {
              apiVersion: `${OLM}/v1alpha1`,
              kind: 'ClusterServiceVersion',
              name,
              uid: csv.metadata.uid ?? '',
              controller: true,
              blockOwnerDeletion: false,
            },
          ],
        },
        spec: {
          serviceAccounts: accounts.length ? accounts : ['default'],
          deployments: (install?.deployments ?? []).map((d) => d.name),
        },
      });
    }
    // The operator writes spec.conditions; OLM mirrors them into the status with observedGeneration.
    const conditions = (operatorConditionView(oc).spec?.conditions ?? []).map((c) => ({
      ...c,
      observedGeneration: oc!.metadata.generation,
    }));
    if (conditions.length || operatorConditionView(oc).status?.conditions?.length)
      this.writeStatus(ocRes, oc, { conditions });
  }
}
