// What the real cluster's OLM install writes to the API server, as upstream OLM's release installs
// itself (deploy/chart of the module cluster/olm.version pins): its namespaces, the
// `global-operators` and `olm-operators` OperatorGroups, the OLMConfig singleton; plus what stands
// in for what a kubelet and a Service network would give: one kwok node for every pod, and
// package-server registered as `v1.packages.operators.coreos.com` through an ExternalName Service
// to its loopback port (kube-apiserver's aggregator, with endpoint routing off, dials an
// ExternalName Service's name at the APIService's port: ResolveCluster in k8s.io/apiserver).

export type Flavor = 'upstream' | 'openshift';

/** The namespaces each flavor has, as the sandbox's (lib/sandbox/server/sandbox.ts flavorNamespaces). */
export function olmNamespaces(flavor: Flavor): { olm: string; operators: string; catalog: string } {
  return flavor === 'openshift'
    ? {
        olm: 'openshift-operator-lifecycle-manager',
        operators: 'openshift-operators',
        catalog: 'openshift-marketplace',
      }
    : { olm: 'olm', operators: 'operators', catalog: 'olm' };
}

export const PACKAGESERVER_SERVICE = 'packageserver-service';
export const KWOK_NODE = 'kwok-node-0';

type Obj = Record<string, unknown>;

export function olmInstallObjects(flavor: Flavor): Obj[] {
  const ns = olmNamespaces(flavor);
  const namespaces = [...new Set([ns.olm, ns.operators, ns.catalog])];
  return [
    ...namespaces.map((name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })),
    {
      apiVersion: 'operators.coreos.com/v1',
      kind: 'OperatorGroup',
      metadata: { name: 'global-operators', namespace: ns.operators },
    },
    {
      apiVersion: 'operators.coreos.com/v1',
      kind: 'OperatorGroup',
      metadata: { name: 'olm-operators', namespace: ns.olm },
      spec: { targetNamespaces: [ns.olm] },
    },
    { apiVersion: 'operators.coreos.com/v1', kind: 'OLMConfig', metadata: { name: 'cluster' } },
  ];
}

/**
 * The node every pod is scheduled to: kwok manages the nodes carrying its annotation and makes
 * their pods Running and Ready, so operator Deployments become available and OLM's own install
 * checks pass. Labelled as a linux/amd64 node, like the sandbox's.
 */
export function kwokNode(): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: KWOK_NODE,
      annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'kwok.x-k8s.io/node': 'fake' },
      labels: {
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/os': 'linux',
        'kubernetes.io/hostname': KWOK_NODE,
        type: 'kwok',
      },
    },
    status: {
      allocatable: { cpu: '32', memory: '256Gi', pods: '110' },
      capacity: { cpu: '32', memory: '256Gi', pods: '110' },
    },
  };
}

/** package-server behind the aggregator: the Service names the loopback, the APIService trusts its CA. */
export function packageServerObjects(flavor: Flavor, port: number, caPem: string): Obj[] {
  const { olm } = olmNamespaces(flavor);
  return [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: PACKAGESERVER_SERVICE, namespace: olm },
      spec: { type: 'ExternalName', externalName: 'localhost', ports: [{ name: 'https', port, protocol: 'TCP' }] },
    },
    {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1.packages.operators.coreos.com' },
      spec: {
        group: 'packages.operators.coreos.com',
        version: 'v1',
        groupPriorityMinimum: 2000,
        versionPriority: 15,
        service: { name: PACKAGESERVER_SERVICE, namespace: olm, port },
        caBundle: Buffer.from(caPem).toString('base64'),
      },
    },
  ];
}

/** Each catalog as a CatalogSource OLM reads over gRPC at its `opm serve` address. */
export function catalogSource(flavor: Flavor, name: string, displayName: string, address: string): Obj {
  return {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'CatalogSource',
    metadata: { name, namespace: olmNamespaces(flavor).catalog },
    spec: { sourceType: 'grpc', address, displayName, publisher: 'olm-console' },
  };
}
