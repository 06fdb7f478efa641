// OLM v1's CustomResourceDefinitions as operator-controller v1.2.0 ships them: group
// olm.operatorframework.io, one served and stored version v1, cluster-scoped, a status
// subresource, no short names or categories, and its printer columns (docs/olm-v1/crds.md).
import type { KObject } from '../store/types';
import { OLM_V1_SCHEMAS } from './olm-v1-schemas';

export const OLM_V1_GROUP = 'olm.operatorframework.io';

const age = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

const specs = [
  {
    plural: 'clustercatalogs',
    singular: 'clustercatalog',
    kind: 'ClusterCatalog',
    columns: [
      { name: 'LastUnpacked', type: 'date', jsonPath: '.status.lastUnpacked' },
      { name: 'Serving', type: 'string', jsonPath: '.status.conditions[?(@.type=="Serving")].status' },
      age,
    ],
  },
  {
    plural: 'clusterextensions',
    singular: 'clusterextension',
    kind: 'ClusterExtension',
    columns: [
      { name: 'Installed Bundle', type: 'string', jsonPath: '.status.install.bundle.name' },
      { name: 'Version', type: 'string', jsonPath: '.status.install.bundle.version' },
      { name: 'Installed', type: 'string', jsonPath: ".status.conditions[?(@.type=='Installed')].status" },
      { name: 'Progressing', type: 'string', jsonPath: ".status.conditions[?(@.type=='Progressing')].status" },
      age,
    ],
  },
];

export function olmV1Crds(): KObject[] {
  return specs.map((s) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${s.plural}.${OLM_V1_GROUP}`,
      annotations: { 'controller-gen.kubebuilder.io/version': 'v0.17.2' },
    },
    spec: {
      group: OLM_V1_GROUP,
      names: { plural: s.plural, singular: s.singular, kind: s.kind, listKind: `${s.kind}List` },
      scope: 'Cluster',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: s.columns,
          schema: { openAPIV3Schema: OLM_V1_SCHEMAS[s.kind] },
        },
      ],
    },
  }));
}
