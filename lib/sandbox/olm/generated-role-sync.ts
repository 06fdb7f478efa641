// The ClusterRoles OLM generates and keeps in line (docs/olm/operator-groups.md): each
// OperatorGroup's admin/edit/view roles over the APIs its CSVs provide, and each owned CRD's
// aggregated roles. The roles themselves are generated-roles.ts's; this writes them.
import { parseProvidedAPIs } from '../../olm/install-modes/provided-apis';
import type { KObject } from '../store/types';
import { crdRoles, operatorGroupRoles } from './generated-roles';
import { OperatorBase } from './operator-base';
import { csvView } from './olm-views';

export class GeneratedRoleSync extends OperatorBase {
  private get clusterRoles() {
    return this.res('rbac.authorization.k8s.io', 'v1', 'clusterroles');
  }

  /**
   * Creates a generated ClusterRole, or brings its rules and aggregation in line. An aggregated
   * role's rules are the aggregation controller's to write: OLM compares and writes only its
   * aggregationRule, as ensureOpGroupClusterRole does.
   */
  private ensureClusterRole(role: KObject): void {
    const cur = this.exists(this.clusterRoles, undefined, role.metadata.name ?? '');
    if (!cur) {
      this.api.createObject(this.clusterRoles, role);
      return;
    }
    const sameAggregation = JSON.stringify(cur.aggregationRule) === JSON.stringify(role.aggregationRule);
    if (role.aggregationRule) {
      if (!sameAggregation)
        this.api.updateObject(this.clusterRoles, { ...cur, aggregationRule: role.aggregationRule } as KObject);
      return;
    }
    if (JSON.stringify(cur.rules) === JSON.stringify(role.rules) && sameAggregation) return;
    this.api.updateObject(this.clusterRoles, {
      ...cur,
      rules: role.rules,
      aggregationRule: role.aggregationRule,
    } as KObject);
  }

  ensureOperatorGroupRoles(og: KObject): void {
    const cur = this.exists(this.ogs, og.metadata.namespace, og.metadata.name ?? '') ?? og;
    const apis = [...parseProvidedAPIs(cur.metadata.annotations?.['olm.providedAPIs'])];
    for (const role of operatorGroupRoles(
      { name: cur.metadata.name ?? '', namespace: cur.metadata.namespace ?? '' },
      apis,
    ))
      this.ensureClusterRole(role);
  }

  ensureCrdRoles(csv: KObject): void {
    const crdRes = this.res('apiextensions.k8s.io', 'v1', 'customresourcedefinitions');
    for (const d of csvView(csv).spec.customresourcedefinitions?.owned ?? []) {
      const crd = this.exists(crdRes, undefined, d.name);
      if (!crd) continue;
      const spec = crd.spec as { group: string; names: { plural: string } };
      for (const role of crdRoles({
        name: d.name,
        group: spec.group,
        plural: spec.names.plural,
        version: d.version,
        kind: d.kind,
        uid: crd.metadata.uid,
      }))
        this.ensureClusterRole(role);
    }
  }

  /** OperatorGroup roles go with their OperatorGroup. */
  sweepOperatorGroupRoles(): void {
    for (const role of this.api.storeList(this.clusterRoles)) {
      const labels = role.metadata.labels ?? {};
      if (labels['olm.owner.kind'] !== 'OperatorGroup') continue;
      if (this.exists(this.ogs, labels['olm.owner.namespace'], labels['olm.owner'] ?? '')) continue;
      this.api.deleteObject(this.clusterRoles, undefined, role.metadata.name ?? '');
    }
  }
}
