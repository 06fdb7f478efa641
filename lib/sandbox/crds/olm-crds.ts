// The OLM CustomResourceDefinitions as OLM ships them, as far as a client can see: names,
// versions, scope, short names, categories, printer columns, status subresource and each
// version's OpenAPI v3 schema (olm-schemas*.ts), which the API server enforces and serves
// (docs/olm/api-surface.md#kinds).
import type { Schema } from '../apimachinery/structural';
import type { KObject } from '../store/types';
import { V1ALPHA1_SCHEMAS } from './olm-schemas';
import { V1_SCHEMAS } from './olm-schemas-v1';

function schemaOf(kind: string, version: string): Schema {
  const s = version === 'v1alpha1' ? V1ALPHA1_SCHEMAS[kind] : V1_SCHEMAS[kind]?.[version];
  if (!s) throw new Error(`no schema for ${kind} ${version}`);
  return s;
}

interface Col {
  name: string;
  type: string;
  jsonPath: string;
  description?: string;
}

interface CrdSpec {
  plural: string;
  singular: string;
  kind: string;
  versions: { name: string; storage: boolean }[];
  scope: 'Namespaced' | 'Cluster';
  shortNames?: string[];
  columns?: Col[];
  group?: string;
  /** Categories; every OLM CRD is in `olm`. */
  categories?: string[];
}

const age: Col = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

const specs: CrdSpec[] = [
  {
    plural: 'catalogsources',
    singular: 'catalogsource',
    kind: 'CatalogSource',
    versions: [{ name: 'v1alpha1', storage: true }],
    scope: 'Namespaced',
    shortNames: ['catsrc'],
    columns: [
      { name: 'Display', type: 'string', jsonPath: '.spec.displayName', description: 'The pretty name of the catalog' },
      { name: 'Type', type: 'string', jsonPath: '.spec.sourceType', description: 'The type of the catalog' },
      { name: 'Publisher', type: 'string', jsonPath: '.spec.publisher', description: 'The publisher of the catalog' },
      age,
    ],
  },
  {
    plural: 'subscriptions',
    singular: 'subscription',
    kind: 'Subscription',
    versions: [{ name: 'v1alpha1', storage: true }],
    scope: 'Namespaced',
    shortNames: ['sub', 'subs'],
    columns: [
      { name: 'Package', type: 'string', jsonPath: '.spec.name', description: 'The package subscribed to' },
      {
        name: 'Source',
        type: 'string',
        jsonPath: '.spec.source',
        description: 'The catalog source for the specified package',
      },
      {
        name: 'Channel',
        type: 'string',
        jsonPath: '.spec.channel',
        description: 'The channel of updates to subscribe to',
      },
    ],
  },
  {
    plural: 'installplans',
    singular: 'installplan',
    kind: 'InstallPlan',
    versions: [{ name: 'v1alpha1', storage: true }],
    scope: 'Namespaced',
    shortNames: ['ip'],
    columns: [
      {
        name: 'CSV',
        type: 'string',
        jsonPath: '.spec.clusterServiceVersionNames[0]',
        description: 'The first CSV in the list of clusterServiceVersionNames',
      },
      { name: 'Approval', type: 'string', jsonPath: '.spec.approval', description: 'The approval mode' },
      { name: 'Approved', type: 'boolean', jsonPath: '.spec.approved' },
    ],
  },
  {
    plural: 'clusterserviceversions',
    singular: 'clusterserviceversion',
    kind: 'ClusterServiceVersion',
    versions: [{ name: 'v1alpha1', storage: true }],
    scope: 'Namespaced',
    shortNames: ['csv', 'csvs'],
    columns: [
      { name: 'Display', type: 'string', jsonPath: '.spec.displayName', description: 'The name of the CSV' },
      { name: 'Version', type: 'string', jsonPath: '.spec.version', description: 'The version of the CSV' },
      {
        name: 'Replaces',
        type: 'string',
        jsonPath: '.spec.replaces',
        description: 'The name of a CSV that this one replaces',
      },
      { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    ],
  },
  {
    plural: 'operatorgroups',
    singular: 'operatorgroup',
    kind: 'OperatorGroup',
    versions: [
      { name: 'v1', storage: true },
      { name: 'v1alpha2', storage: false },
    ],
    scope: 'Namespaced',
    shortNames: ['og'],
  },
  {
    plural: 'operatorconditions',
    singular: 'operatorcondition',
    kind: 'OperatorCondition',
    versions: [
      { name: 'v2', storage: true },
      { name: 'v1', storage: false },
    ],
    scope: 'Namespaced',
    shortNames: ['condition'],
  },
  {
    plural: 'olmconfigs',
    singular: 'olmconfig',
    kind: 'OLMConfig',
    versions: [{ name: 'v1', storage: true }],
    scope: 'Cluster',
  },
  {
    plural: 'operators',
    singular: 'operator',
    kind: 'Operator',
    versions: [{ name: 'v1', storage: true }],
    scope: 'Cluster',
  },
];

function crd(s: CrdSpec): KObject {
  const group = s.group ?? 'operators.coreos.com';
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${s.plural}.${group}`, annotations: { 'controller-gen.kubebuilder.io/version': 'v0.16.4' } },
    spec: {
      group,
      names: {
        plural: s.plural,
        singular: s.singular,
        kind: s.kind,
        listKind: `${s.kind}List`,
        ...(s.shortNames ? { shortNames: s.shortNames } : {}),
        categories: s.categories ?? ['olm'],
      },
      scope: s.scope,
      versions: s.versions.map((v) => ({
        name: v.name,
        served: true,
        storage: v.storage,
        subresources: { status: {} },
        ...(s.columns ? { additionalPrinterColumns: s.columns } : {}),
        schema: { openAPIV3Schema: schemaOf(s.kind, v.name) },
      })),
    },
  };
}

export function olmCrds(): KObject[] {
  return specs.map(crd);
}
