// What the operator-configuration routes answer: the Subscription's config beside what the
// operator's Deployments carry, and the cluster facts the pod placement form needs.
import type { NodeFacts } from '../olm/resources/node-placement';
import type { ClusterProxy, Container, SubscriptionConfig } from '../olm/resources/subscription-config';

/** What one of the operator's Deployments carries of what the config sets. */
export interface DeploymentConfigView {
  name: string;
  available: boolean;
  nodeSelector?: Record<string, string>;
  tolerations?: unknown[];
  affinity?: unknown;
  volumes: { name: string; source: string }[];
  containers: {
    name: string;
    env: { name: string; value?: string; from?: string }[];
    envFrom: string[];
    resources?: Container['resources'];
    volumeMounts: { name: string; mountPath: string }[];
  }[];
  annotations: Record<string, string>;
}

export interface OperatorConfigView {
  subscription: { namespace: string; name: string; installedCSV?: string };
  config?: SubscriptionConfig;
  /** The installed CSV's Deployments; absent with `deploymentsDenied` when the person may not list them. */
  deployments?: DeploymentConfigView[];
  deploymentsDenied?: string;
  /** OpenShift: the cluster's Proxy status, which OLM passes on unless the config names a proxy variable. */
  clusterProxy?: ClusterProxy;
  openshift: boolean;
  /** The ConfigMap the config mounts as the trusted CA bundle, and whether it is there. */
  caBundle?: { configMap: string; state: 'present' | 'missing' | 'unknown'; injected?: boolean };
}

/** What a configuration form needs of the cluster: OpenShift or not, its proxy, its nodes. */
export interface PodPlacementFacts {
  openshift: boolean;
  clusterProxy?: ClusterProxy;
  nodes?: NodeFacts[];
}
