// OperatorGroup (operators.coreos.com/v1), docs/olm/operator-groups.md.
import {
  OLM_GROUP,
  type Condition,
  type KubeObject,
  type LabelSelector,
  type ObjectReference,
  type ResourceType,
} from './common';

export const OPERATOR_GROUP_TYPE: ResourceType = {
  group: OLM_GROUP,
  version: 'v1',
  plural: 'operatorgroups',
  namespaced: true,
  kind: 'OperatorGroup',
};

export type UpgradeStrategy = 'Default' | 'TechPreviewUnsafeFailForward';

export interface OperatorGroup extends KubeObject {
  spec?: {
    targetNamespaces?: string[];
    selector?: LabelSelector;
    serviceAccountName?: string;
    staticProvidedAPIs?: boolean;
    /**
     * A string in the v1 CRD (enum, defaulted to `Default` by the API server), not an object:
     * `TechPreviewUnsafeFailForward` lets a Failed CSV be replaced and a failed plan superseded.
     */
    upgradeStrategy?: UpgradeStrategy;
  };
  status?: {
    namespaces?: string[];
    serviceAccountRef?: ObjectReference;
    lastUpdated?: string;
    conditions?: Condition[];
  };
}
