// Cluster monitoring at install, as OpenShift's console offers it: a version whose CSV says
// `operatorframework.io/cluster-monitoring: "true"`, installed into a namespace the install
// creates and whose name starts with `openshift-`, may have that namespace labelled
// `openshift.io/cluster-monitoring: "true"` and Prometheus (openshift-monitoring/prometheus-k8s)
// let in to read its services, endpoints and pods through Role and RoleBinding
// `<namespace>-prometheus`. Facts from openshift/console's operator-hub-subscribe.tsx.
// Pure: the planner asks it whether the option applies, which objects it adds and what to say.

export const CLUSTER_MONITORING_ANNOTATION = 'operatorframework.io/cluster-monitoring';
export const CLUSTER_MONITORING_LABEL = 'openshift.io/cluster-monitoring';
/** OpenShift's console shows the option only for namespaces named so: the platform's own. */
export const MONITORED_NAMESPACE_PREFIX = 'openshift-';
/** Prometheus of OpenShift's cluster monitoring: the account a monitored namespace lets in. */
export const PROMETHEUS_ACCOUNT = { name: 'prometheus-k8s', namespace: 'openshift-monitoring' } as const;

/** Whether a CSV asks for it. OpenShift's console compares the value with "true" exactly. */
export function requestsMonitoring(annotations: Record<string, unknown> | undefined): boolean {
  return annotations?.[CLUSTER_MONITORING_ANNOTATION] === 'true';
}

export interface MonitoringContext {
  /** What the version's CSV says; 'unknown' when the CSV could not be read. */
  requested: boolean | 'unknown';
  namespace: string;
  /** The install creates the namespace (it does not exist yet). */
  createsNamespace: boolean;
}

export interface MonitoringOption {
  offered: boolean;
  reason?: string;
}

/**
 * Whether the option applies, and why not when it does not. On an existing namespace OpenShift's
 * console does not offer it either: labelling a namespace that others already use changes what
 * the platform's Prometheus scrapes there, which is the namespace owner's call, and undoing the
 * label after a failed install could remove one someone else set meanwhile.
 */
export function monitoringOption(c: MonitoringContext): MonitoringOption {
  let reason: string | undefined;
  if (c.requested === 'unknown')
    reason = `whether this version asks for cluster monitoring is not known: its CSV (${CLUSTER_MONITORING_ANNOTATION}) could not be read`;
  else if (!c.requested)
    reason = `this version does not ask for cluster monitoring (${CLUSTER_MONITORING_ANNOTATION}: "true")`;
  else if (!c.namespace.startsWith(MONITORED_NAMESPACE_PREFIX))
    reason = `cluster monitoring is offered only for namespaces whose name starts with ${MONITORED_NAMESPACE_PREFIX}, not ${c.namespace}`;
  else if (!c.createsNamespace)
    reason = `namespace ${c.namespace} already exists, and the install sets the label and Prometheus' rights only on a namespace it creates: ${byHand(c.namespace)}`;
  return reason ? { offered: false, reason } : { offered: true };
}

/** What someone who owns an existing namespace does instead. */
function byHand(ns: string): string {
  const rbac = prometheusRbacName(ns);
  return `label it by hand (oc label namespace ${ns} ${CLUSTER_MONITORING_LABEL}=true) and create Role and RoleBinding ${rbac} giving ${PROMETHEUS_ACCOUNT.namespace}/${PROMETHEUS_ACCOUNT.name} get, list and watch on services, endpoints and pods`;
}

export const prometheusRbacName = (namespace: string) => `${namespace}-prometheus`;

/** The Role and RoleBinding that let cluster monitoring's Prometheus scrape a namespace. */
export function prometheusRbac(namespace: string): {
  role: Record<string, unknown>;
  binding: Record<string, unknown>;
  name: string;
} {
  const name = prometheusRbacName(namespace);
  return {
    name,
    role: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name, namespace },
      rules: [{ apiGroups: [''], resources: ['services', 'endpoints', 'pods'], verbs: ['get', 'list', 'watch'] }],
    },
    binding: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name, namespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ kind: 'ServiceAccount', name: PROMETHEUS_ACCOUNT.name, namespace: PROMETHEUS_ACCOUNT.namespace }],
    },
  };
}

/** The plan's words for it: what is written and what that means for the platform's metrics. */
export function monitoringPlanWords(namespace: string): string {
  return `namespace ${namespace} is labelled ${CLUSTER_MONITORING_LABEL}=true, and Role and RoleBinding ${prometheusRbacName(namespace)} let ${PROMETHEUS_ACCOUNT.namespace}/${PROMETHEUS_ACCOUNT.name} read its services, endpoints and pods: the cluster's Prometheus scrapes the operator's metrics, which then sit beside the platform's own, so enable it only for an operator you trust with that`;
}
