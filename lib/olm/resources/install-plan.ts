// InstallPlan (operators.coreos.com/v1alpha1), docs/olm/install-plans.md.
import { OLM_GROUP, type KubeObject, type ObjectReference, type ResourceType } from './common';
import type { Approval } from './subscription';

export const INSTALL_PLAN_TYPE: ResourceType = {
  group: OLM_GROUP,
  version: 'v1alpha1',
  plural: 'installplans',
  namespaced: true,
  kind: 'InstallPlan',
};

/** `Planning` is defined but never set by OLM (docs/olm/install-plans.md#phases). */
export type InstallPlanPhase = '' | 'Planning' | 'RequiresApproval' | 'Installing' | 'Complete' | 'Failed';

/** Note OLM's spelling `WaitingForApi`; `NotCreated` is defined but unused. */
export type StepStatus =
  'Unknown' | 'NotPresent' | 'Present' | 'Created' | 'NotCreated' | 'WaitingForApi' | 'UnsupportedResource';

export interface StepResource {
  group: string;
  version: string;
  kind: string;
  name: string;
  /** The object as JSON text, or a JSON reference to an unpacked bundle ConfigMap. */
  manifest?: string;
  sourceName?: string;
  sourceNamespace?: string;
}

export interface Step {
  resolving: string;
  resource: StepResource;
  optional?: boolean;
  status: StepStatus | string;
}

export interface InstallPlanCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export interface BundleLookup {
  path: string;
  identifier: string;
  replaces?: string;
  catalogSourceRef?: ObjectReference;
  properties?: string;
  conditions?: InstallPlanCondition[];
}

export interface InstallPlan extends KubeObject {
  spec: {
    clusterServiceVersionNames: string[];
    approval: Approval | string;
    approved: boolean;
    generation?: number;
    source?: string;
    sourceNamespace?: string;
  };
  status?: {
    phase?: InstallPlanPhase | string;
    conditions?: InstallPlanCondition[];
    catalogSources?: string[];
    plan?: Step[];
    bundleLookups?: BundleLookup[];
    attenuatedServiceAccountRef?: ObjectReference;
    startTime?: string;
    message?: string;
  };
}
