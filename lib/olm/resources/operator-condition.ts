// OperatorCondition (operators.coreos.com/v2), docs/olm/operator-conditions.md.
import { findCondition, OLM_GROUP, type Condition, type KubeObject, type ResourceType } from './common';

export const OPERATOR_CONDITION_TYPE: ResourceType = {
  group: OLM_GROUP,
  version: 'v2',
  plural: 'operatorconditions',
  namespaced: true,
  kind: 'OperatorCondition',
};

export interface OperatorCondition extends KubeObject {
  spec?: {
    serviceAccounts?: string[];
    deployments?: string[];
    overrides?: Condition[];
    conditions?: Condition[];
  };
  status?: { conditions?: Condition[] };
}

/**
 * Whether this operator blocks its own replacement (docs/olm/operator-conditions.md#upgradeable): an `Upgradeable` override decides
 * when present (only `True` lets the upgrade through: OLM's isOperatorUpgradeable answers "not
 * upgradeable" for any other override status, Unknown included); otherwise `Upgradeable=False`,
 * or a status condition whose observedGeneration lags the object's generation, blocks. Returns
 * the message to show when blocked.
 */
export function upgradeBlock(oc: OperatorCondition): { blocked: false } | { blocked: true; message: string } {
  // OLM's words (olm/operatorconditions.go), wrapped once more by the CSV's message: hence the
  // doubled "not upgradeable" a real cluster shows.
  const override = findCondition(oc.spec?.overrides, 'Upgradeable');
  if (override) {
    return override.status !== 'True'
      ? {
          blocked: true,
          message: `operator is not upgradeable: the operator is not upgradeable: ${override.message ?? ''}`,
        }
      : { blocked: false };
  }
  const c = findCondition(oc.status?.conditions, 'Upgradeable');
  if (!c) return { blocked: false };
  if (
    c.observedGeneration !== undefined &&
    oc.metadata?.generation !== undefined &&
    c.observedGeneration < oc.metadata.generation
  ) {
    return {
      blocked: true,
      message: `operator is not upgradeable: the operatorcondition status "Upgradeable"="${c.status}" is outdated`,
    };
  }
  if (c.status === 'False')
    return {
      blocked: true,
      message: `operator is not upgradeable: the operator is not upgradeable: ${c.message ?? ''}`,
    };
  return { blocked: false };
}
