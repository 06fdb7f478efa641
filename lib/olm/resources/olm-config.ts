// OLMConfig (operators.coreos.com/v1, cluster-scoped singleton `cluster`), §1.9, §4.4.
import { findCondition, OLM_GROUP, type Condition, type KubeObject, type ResourceType } from './common';

export const OLM_CONFIG_TYPE: ResourceType = { group: OLM_GROUP, version: 'v1', plural: 'olmconfigs', namespaced: false, kind: 'OLMConfig' };
export const OLM_CONFIG_NAME = 'cluster';

export interface OLMConfig extends KubeObject {
  spec?: { features?: { disableCopiedCSVs?: boolean; packageServerSyncInterval?: string } };
  status?: { conditions?: Condition[] };
}

/** Copied CSVs are off when the spec says so; the status condition says whether OLM has acted. */
export function copiedCsvsDisabled(config: OLMConfig | undefined): boolean {
  return config?.spec?.features?.disableCopiedCSVs === true;
}

export function disabledCopiedCsvsCondition(config: OLMConfig | undefined): Condition | undefined {
  return findCondition(config?.status?.conditions, 'DisabledCopiedCSVs');
}
