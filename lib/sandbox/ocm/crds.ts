// Open Cluster Management's CustomResourceDefinitions as OCM v1.0.0's hub (manifests/cluster-manager/
// hub) and klusterlet (manifests/klusterlet/managed) ship them, for the kinds the console reads:
// their groups, served and stored versions, scope, short names, status subresource and printer
// columns. The schemas keep `spec` and `status` as written (x-kubernetes-preserve-unknown-fields)
// rather than spelling out OCM's fields: a real hub prunes a misspelt field there and the sandbox
// does not (docs/sandbox.md#open-cluster-management).
import type { KObject } from '../store/types';

export const CLUSTER_GROUP = 'cluster.open-cluster-management.io';
export const WORK_GROUP = 'work.open-cluster-management.io';

interface Col {
  name: string;
  type: string;
  jsonPath: string;
  priority?: number;
}

interface OcmCrd {
  group: string;
  plural: string;
  singular: string;
  kind: string;
  version: string;
  scope: 'Cluster' | 'Namespaced';
  shortNames?: string[];
  status: boolean;
  columns?: Col[];
}

const age: Col = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };
const kept = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

const HUB: OcmCrd[] = [
  {
    group: CLUSTER_GROUP,
    plural: 'managedclusters',
    singular: 'managedcluster',
    kind: 'ManagedCluster',
    version: 'v1',
    scope: 'Cluster',
    shortNames: ['mcl', 'mcls'],
    status: true,
    columns: [
      { name: 'Hub Accepted', type: 'boolean', jsonPath: '.spec.hubAcceptsClient' },
      { name: 'Managed Cluster URLs', type: 'string', jsonPath: '.spec.managedClusterClientConfigs[*].url' },
      {
        name: 'Joined',
        type: 'string',
        jsonPath: '.status.conditions[?(@.type=="ManagedClusterJoined")].status',
      },
      {
        name: 'Available',
        type: 'string',
        jsonPath: '.status.conditions[?(@.type=="ManagedClusterConditionAvailable")].status',
      },
      age,
    ],
  },
  {
    group: CLUSTER_GROUP,
    plural: 'managedclustersets',
    singular: 'managedclusterset',
    kind: 'ManagedClusterSet',
    version: 'v1beta2',
    scope: 'Cluster',
    shortNames: ['mclset', 'mclsets'],
    status: true,
    columns: [
      { name: 'Empty', type: 'string', jsonPath: '.status.conditions[?(@.type=="ClusterSetEmpty")].status' },
      age,
    ],
  },
  {
    group: CLUSTER_GROUP,
    plural: 'managedclustersetbindings',
    singular: 'managedclustersetbinding',
    kind: 'ManagedClusterSetBinding',
    version: 'v1beta2',
    scope: 'Namespaced',
    shortNames: ['mclsetbinding', 'mclsetbindings'],
    status: true,
  },
  {
    group: CLUSTER_GROUP,
    plural: 'placements',
    singular: 'placement',
    kind: 'Placement',
    version: 'v1beta1',
    scope: 'Namespaced',
    status: true,
    columns: [
      { name: 'Succeeded', type: 'string', jsonPath: '.status.conditions[?(@.type=="PlacementSatisfied")].status' },
      { name: 'Reason', type: 'string', jsonPath: '.status.conditions[?(@.type=="PlacementSatisfied")].reason' },
      { name: 'SelectedClusters', type: 'integer', jsonPath: '.status.numberOfSelectedClusters' },
    ],
  },
  {
    group: CLUSTER_GROUP,
    plural: 'placementdecisions',
    singular: 'placementdecision',
    kind: 'PlacementDecision',
    version: 'v1beta1',
    scope: 'Namespaced',
    status: true,
  },
  {
    group: WORK_GROUP,
    plural: 'manifestworks',
    singular: 'manifestwork',
    kind: 'ManifestWork',
    version: 'v1',
    scope: 'Namespaced',
    shortNames: ['mw'],
    status: true,
  },
  {
    group: WORK_GROUP,
    plural: 'manifestworkreplicasets',
    singular: 'manifestworkreplicaset',
    kind: 'ManifestWorkReplicaSet',
    version: 'v1alpha1',
    scope: 'Namespaced',
    shortNames: ['mwrs'],
    status: true,
    columns: [
      { name: 'Placement', type: 'string', jsonPath: '.status.conditions[?(@.type=="PlacementVerified")].reason' },
      { name: 'Found', type: 'string', jsonPath: '.status.conditions[?(@.type=="PlacementVerified")].status' },
      {
        name: 'ManifestWorks',
        type: 'string',
        jsonPath: '.status.conditions[?(@.type=="ManifestworkApplied")].reason',
      },
      { name: 'Applied', type: 'string', jsonPath: '.status.conditions[?(@.type=="ManifestworkApplied")].status' },
    ],
  },
];

/** On every managed cluster: the claims its registration agent reports to the hub. */
const MANAGED: OcmCrd[] = [
  {
    group: CLUSTER_GROUP,
    plural: 'clusterclaims',
    singular: 'clusterclaim',
    kind: 'ClusterClaim',
    version: 'v1alpha1',
    scope: 'Cluster',
    status: false,
  },
];

function crd(s: OcmCrd): KObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${s.plural}.${s.group}` },
    spec: {
      group: s.group,
      names: {
        plural: s.plural,
        singular: s.singular,
        kind: s.kind,
        listKind: `${s.kind}List`,
        ...(s.shortNames ? { shortNames: s.shortNames } : {}),
      },
      scope: s.scope,
      versions: [
        {
          name: s.version,
          served: true,
          storage: true,
          ...(s.status ? { subresources: { status: {} } } : {}),
          ...(s.columns ? { additionalPrinterColumns: s.columns } : {}),
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: kept,
                ...(s.status ? { status: kept } : {}),
              },
            },
          },
        },
      ],
    },
  };
}

/** The hub's CRDs (a hub is also managed, as local-cluster, so it has the managed cluster's too). */
export const ocmHubCrds = (): KObject[] => [...HUB, ...MANAGED].map(crd);
/** A managed cluster's CRDs. */
export const ocmManagedCrds = (): KObject[] => MANAGED.map(crd);
