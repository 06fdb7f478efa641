// OperatorGroup (operators.coreos.com/v1), ../shared/olm-behaviour.md §1.7, §5.
import { OLM_GROUP, type Condition, type KubeObject, type LabelSelector, type ObjectReference, type ResourceType } from './common';

export const OPERATOR_GROUP_TYPE: ResourceType = { group: OLM_GROUP, version: 'v1', plural: 'operatorgroups', namespaced: true, kind: 'OperatorGroup' };

export interface OperatorGroup extends KubeObject {
  spec?: {
    targetNamespaces?: string[];
    selector?: LabelSelector;
    serviceAccountName?: string;
    staticProvidedAPIs?: boolean;
    /** A string in OLM's v1 CRD (an enum, defaulted to `Default` by the API server), not an object. */
    upgradeStrategy?: 'Default' | 'TechPreviewUnsafeFailForward';
  };
  status?: {
    namespaces?: string[];
    serviceAccountRef?: ObjectReference;
    lastUpdated?: string;
    conditions?: Condition[];
  };
}
