// A CSV's requirements as OLM reports them in status.requirementStatus: minKubeVersion, its
// CRDs, and its service accounts with their rules (requirements.ts holds the rules; this reads
// the cluster for them).
import { rulesFor, type PolicyRule } from '../auth/rbac';
import type { KObject } from '../store/types';
import { olmRoleName } from './install-steps';
import { OperatorBase } from './operator-base';
import { minKubeVersionStatus, permissionStatuses, type AccountState, type RequirementStatus } from './requirements';
import { ruleGranted } from './scoped';
import { csvView } from './olm-views';

export class CsvRequirements extends OperatorBase {
  /**
   * requirementAndPermissionStatus: minKubeVersion, each owned or required CRD, and each service
   * account of the install strategy with its rules. An account another CSV owns (and this one
   * does not) is not this CSV's yet; rules are met by the roles OLM made for this CSV, or else by
   * whatever RBAC grants the account (OLM's rule checker reads every role and binding).
   */
  requirementStatus(csv: KObject): RequirementStatus[] {
    const ns = csv.metadata.namespace ?? '';
    const name = csv.metadata.name ?? '';
    const spec = csvView(csv).spec;
    const crdRes = this.res('apiextensions.k8s.io', 'v1', 'customresourcedefinitions');
    const required = [
      ...(spec.customresourcedefinitions?.owned ?? []),
      ...(spec.customresourcedefinitions?.required ?? []),
    ];
    const crdStatuses = required.map((d) => {
      const crd = this.exists(crdRes, undefined, d.name);
      return {
        group: 'apiextensions.k8s.io',
        version: 'v1',
        kind: 'CustomResourceDefinition',
        name: d.name,
        status: crd ? 'Present' : 'NotPresent',
        message: crd ? 'CRD is present and Established condition is true' : 'CRD is not present',
        ...(crd ? { uuid: crd.metadata.uid } : {}),
      };
    });
    const install = spec.install?.spec ?? {};
    const saRes = this.res('', 'v1', 'serviceaccounts');
    const held = new Map<string, PolicyRule[]>();
    return [
      ...minKubeVersionStatus(name, spec.minKubeVersion, this.api.version.gitVersion),
      ...crdStatuses,
      ...permissionStatuses(
        { namespaced: install.permissions ?? [], cluster: install.clusterPermissions ?? [] },
        {
          account: (sa): AccountState => {
            const found = this.exists(saRes, ns, sa);
            if (!found) return 'missing';
            const owners = found.metadata.ownerReferences ?? [];
            return owners.some((o) => o.kind === 'ClusterServiceVersion') &&
              !owners.some((o) => o.uid === csv.metadata.uid)
              ? 'ownedByAnother'
              : 'present';
          },
          previouslyCreated: (p, cluster) => {
            // OLM's own Role (ClusterRole) and binding for this account, by the name it gives them, labelled as this CSV's.
            const roleName = olmRoleName(name, ns, p, cluster);
            const kinds = cluster ? ['clusterroles', 'clusterrolebindings'] : ['roles', 'rolebindings'];
            return kinds.every(
              (k) =>
                this.exists(this.res('rbac.authorization.k8s.io', 'v1', k), cluster ? undefined : ns, roleName)
                  ?.metadata.labels?.['olm.owner'] === name,
            );
          },
          ruleSatisfied: (sa, rule, cluster) => {
            // The checker's user is the account alone (toDefaultInfo: no groups).
            const key = `${sa}/${cluster}`;
            if (!held.has(key))
              held.set(
                key,
                rulesFor(
                  this.api.rbac,
                  { name: `system:serviceaccount:${ns}:${sa}`, groups: [] },
                  cluster ? undefined : ns,
                ),
              );
            return ruleGranted(held.get(key)!, cluster ? undefined : ns, rule);
          },
        },
      ),
    ];
  }
}
