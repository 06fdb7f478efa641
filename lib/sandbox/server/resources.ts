// What the sandbox serves: the built-in kinds, and every kind a CustomResourceDefinition in the
// store declares (the OLM CRDs installed at start, and operators' CRDs installed later). This
// table drives discovery, routing, scope, short names, categories and Table columns.
import type { Schema } from '../apimachinery/structural';
import type { TableColumn } from '../apimachinery/table';
import type { KObject, ResourceKey } from '../store/types';
import {
  CRONJOB_COLUMNS,
  DAEMONSET_COLUMNS,
  DEPLOYMENT_COLUMNS,
  INGRESS_COLUMNS,
  JOB_COLUMNS,
  NETWORKPOLICY_COLUMNS,
  POD_COLUMNS,
  REPLICASET_COLUMNS,
  STATEFULSET_COLUMNS,
} from './workload-columns';
import { SERVICE_COLUMNS } from '../workloads/services';

/** A printer column, as CRDs declare them (`additionalPrinterColumns`). */
export type PrinterColumn = TableColumn;

/** A read-only resource computed on request (packageserver's PackageManifests). */
export interface ReadProvider {
  list(namespace: string | undefined): KObject[];
  get(namespace: string | undefined, name: string): KObject | undefined;
  /** A GET-only subresource (`packagemanifests/<name>/icon`). */
  subresource?(
    namespace: string | undefined,
    name: string,
    sub: string,
    req: { ifNoneMatch?: string },
  ): { status: number; contentType: string; body: Buffer; etag?: string } | undefined;
  subresources?: string[];
}

export interface ServedResource {
  group: string;
  /** Versions served, storage version first. */
  versions: string[];
  resource: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  hasStatus: boolean;
  /** Serves `<resource>/scale` (autoscaling/v1 Scale), as workloads with replicas do. */
  scale?: boolean;
  /** Columns for `kubectl get`, after NAME (AGE comes from creationTimestamp where declared). */
  columns: PrinterColumn[];
  /** Field selectors accepted beyond metadata.name / metadata.namespace. */
  fieldSelectors?: string[];
  /** Not stored in the store (computed on request, e.g. reviews). */
  virtual?: boolean;
  /** Only create is served (reviews). */
  createOnly?: boolean;
  crd?: boolean;
  /** Its CRD is being deleted: still served, but no new instances (kube-apiserver's crdHandler). */
  terminating?: boolean;
  provider?: ReadProvider;
  /** A CRD's OpenAPI v3 schema per served version: what writes are pruned, defaulted and validated by. */
  schemas?: Record<string, Schema>;
}

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const age: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

function builtin(
  group: string,
  version: string,
  resource: string,
  kind: string,
  namespaced: boolean,
  extra: Partial<ServedResource> = {},
): ServedResource {
  return {
    group,
    versions: [version],
    resource,
    singular: kind.toLowerCase(),
    kind,
    listKind: `${kind}List`,
    namespaced,
    shortNames: [],
    categories: [],
    verbs: ALL_VERBS,
    hasStatus: false,
    columns: [age],
    ...extra,
  };
}

export const BUILTIN_RESOURCES: ServedResource[] = [
  builtin('', 'v1', 'namespaces', 'Namespace', false, {
    shortNames: ['ns'],
    hasStatus: true,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    columns: [{ name: 'Status', type: 'string', jsonPath: '.status.phase' }, age],
    fieldSelectors: ['status.phase'],
  }),
  builtin('', 'v1', 'nodes', 'Node', false, {
    shortNames: ['no'],
    hasStatus: true,
    columns: [
      { name: 'Arch', type: 'string', jsonPath: '.status.nodeInfo.architecture' },
      { name: 'OS', type: 'string', jsonPath: '.status.nodeInfo.operatingSystem' },
      age,
    ],
  }),
  builtin('', 'v1', 'serviceaccounts', 'ServiceAccount', true, { shortNames: ['sa'] }),
  builtin('', 'v1', 'configmaps', 'ConfigMap', true, { shortNames: ['cm'] }),
  builtin('', 'v1', 'secrets', 'Secret', true, {
    columns: [{ name: 'Type', type: 'string', jsonPath: '.type' }, age],
    fieldSelectors: ['type'],
  }),
  builtin('', 'v1', 'services', 'Service', true, {
    shortNames: ['svc'],
    categories: ['all'],
    hasStatus: true,
    columns: SERVICE_COLUMNS,
  }),
  builtin('', 'v1', 'events', 'Event', true, {
    shortNames: ['ev'],
    columns: [
      { name: 'Type', type: 'string', jsonPath: '.type' },
      { name: 'Reason', type: 'string', jsonPath: '.reason' },
      { name: 'Object', type: 'string', jsonPath: '.involvedObject.name' },
      { name: 'Message', type: 'string', jsonPath: '.message' },
    ],
    fieldSelectors: [
      'involvedObject.kind',
      'involvedObject.namespace',
      'involvedObject.name',
      'involvedObject.uid',
      'involvedObject.apiVersion',
      'involvedObject.resourceVersion',
      'involvedObject.fieldPath',
      'reason',
      'reportingComponent',
      'source',
      'type',
    ],
  }),
  builtin('', 'v1', 'pods', 'Pod', true, {
    shortNames: ['po'],
    categories: ['all'],
    hasStatus: true,
    columns: POD_COLUMNS,
    fieldSelectors: ['status.phase', 'spec.nodeName'],
  }),
  builtin('apps', 'v1', 'deployments', 'Deployment', true, {
    shortNames: ['deploy'],
    categories: ['all'],
    hasStatus: true,
    scale: true,
    columns: DEPLOYMENT_COLUMNS,
  }),
  builtin('apps', 'v1', 'replicasets', 'ReplicaSet', true, {
    shortNames: ['rs'],
    categories: ['all'],
    hasStatus: true,
    scale: true,
    columns: REPLICASET_COLUMNS,
  }),
  builtin('apps', 'v1', 'statefulsets', 'StatefulSet', true, {
    shortNames: ['sts'],
    categories: ['all'],
    hasStatus: true,
    scale: true,
    columns: STATEFULSET_COLUMNS,
  }),
  // Served as kube-apiserver serves them; the sandbox's StatefulSets and DaemonSets write none.
  builtin('apps', 'v1', 'controllerrevisions', 'ControllerRevision', true, {
    columns: [
      {
        name: 'Controller',
        type: 'string',
        jsonPath: '.metadata.ownerReferences',
        value: (o) => {
          const ref = o.metadata.ownerReferences?.find((r) => r.controller);
          return ref ? `${ref.kind.toLowerCase()}.${ref.apiVersion.split('/')[0]}/${ref.name}` : '<none>';
        },
      },
      { name: 'Revision', type: 'integer', jsonPath: '.revision' },
      age,
    ],
  }),
  builtin('apps', 'v1', 'daemonsets', 'DaemonSet', true, {
    shortNames: ['ds'],
    categories: ['all'],
    hasStatus: true,
    columns: DAEMONSET_COLUMNS,
  }),
  builtin('batch', 'v1', 'jobs', 'Job', true, { categories: ['all'], hasStatus: true, columns: JOB_COLUMNS }),
  builtin('batch', 'v1', 'cronjobs', 'CronJob', true, {
    shortNames: ['cj'],
    categories: ['all'],
    hasStatus: true,
    columns: CRONJOB_COLUMNS,
  }),
  builtin('networking.k8s.io', 'v1', 'networkpolicies', 'NetworkPolicy', true, {
    shortNames: ['netpol'],
    columns: NETWORKPOLICY_COLUMNS,
  }),
  builtin('networking.k8s.io', 'v1', 'ingresses', 'Ingress', true, {
    shortNames: ['ing'],
    hasStatus: true,
    columns: INGRESS_COLUMNS,
  }),
  // Named by operand fields (`io.kubernetes:StorageClass`, `:PriorityClass` descriptors); served
  // as stored, like the other built-ins, with no defaulting or validation of their fields.
  builtin('storage.k8s.io', 'v1', 'storageclasses', 'StorageClass', false, {
    shortNames: ['sc'],
    columns: [
      { name: 'Provisioner', type: 'string', jsonPath: '.provisioner' },
      { name: 'ReclaimPolicy', type: 'string', jsonPath: '.reclaimPolicy' },
      { name: 'VolumeBindingMode', type: 'string', jsonPath: '.volumeBindingMode' },
      { name: 'AllowVolumeExpansion', type: 'boolean', jsonPath: '.allowVolumeExpansion' },
      age,
    ],
  }),
  builtin('scheduling.k8s.io', 'v1', 'priorityclasses', 'PriorityClass', false, {
    shortNames: ['pc'],
    columns: [
      { name: 'Value', type: 'integer', jsonPath: '.value' },
      { name: 'Global-Default', type: 'boolean', jsonPath: '.globalDefault' },
      age,
      { name: 'PreemptionPolicy', type: 'string', jsonPath: '.preemptionPolicy' },
    ],
  }),
  builtin('rbac.authorization.k8s.io', 'v1', 'roles', 'Role', true),
  builtin('rbac.authorization.k8s.io', 'v1', 'rolebindings', 'RoleBinding', true, {
    columns: [{ name: 'Role', type: 'string', jsonPath: '.roleRef.name' }, age],
  }),
  builtin('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', false),
  builtin('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'ClusterRoleBinding', false, {
    columns: [{ name: 'Role', type: 'string', jsonPath: '.roleRef.name' }, age],
  }),
  builtin('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', false, {
    shortNames: ['crd', 'crds'],
    hasStatus: true,
    columns: [{ name: 'Created At', type: 'date', jsonPath: '.metadata.creationTimestamp' }],
  }),
  builtin('authorization.k8s.io', 'v1', 'selfsubjectaccessreviews', 'SelfSubjectAccessReview', false, {
    verbs: ['create'],
    virtual: true,
    createOnly: true,
  }),
  builtin('authorization.k8s.io', 'v1', 'selfsubjectrulesreviews', 'SelfSubjectRulesReview', false, {
    verbs: ['create'],
    virtual: true,
    createOnly: true,
  }),
  builtin('authorization.k8s.io', 'v1', 'subjectaccessreviews', 'SubjectAccessReview', false, {
    verbs: ['create'],
    virtual: true,
    createOnly: true,
  }),
  builtin('authentication.k8s.io', 'v1', 'selfsubjectreviews', 'SelfSubjectReview', false, {
    verbs: ['create'],
    virtual: true,
    createOnly: true,
  }),
];

interface CrdVersion {
  name: string;
  served?: boolean;
  storage?: boolean;
  subresources?: { status?: unknown };
  additionalPrinterColumns?: PrinterColumn[];
  schema?: { openAPIV3Schema?: Schema };
}

/** The resource a CRD declares, or undefined when the CRD is malformed. */
export function resourceFromCrd(crd: KObject): ServedResource | undefined {
  const spec = crd.spec as
    | {
        group?: string;
        scope?: string;
        names?: {
          plural?: string;
          singular?: string;
          kind?: string;
          listKind?: string;
          shortNames?: string[];
          categories?: string[];
        };
        versions?: CrdVersion[];
      }
    | undefined;
  if (!spec?.group || !spec.names?.plural || !spec.names.kind || !spec.versions?.length) return undefined;
  const served = spec.versions.filter((v) => v.served !== false);
  const storage = spec.versions.find((v) => v.storage) ?? served[0];
  if (!storage) return undefined;
  const versions = [storage.name, ...served.map((v) => v.name).filter((n) => n !== storage.name)];
  const cols = storage.additionalPrinterColumns;
  return {
    group: spec.group,
    versions,
    resource: spec.names.plural,
    singular: spec.names.singular ?? spec.names.kind.toLowerCase(),
    kind: spec.names.kind,
    listKind: spec.names.listKind ?? `${spec.names.kind}List`,
    namespaced: spec.scope !== 'Cluster',
    shortNames: spec.names.shortNames ?? [],
    categories: spec.names.categories ?? [],
    verbs: ALL_VERBS,
    hasStatus: storage.subresources?.status !== undefined,
    // A CRD without printer columns shows only Age, as the API server does.
    columns: cols && cols.length ? cols : [age],
    crd: true,
    schemas: Object.fromEntries(
      served.flatMap((v) => (v.schema?.openAPIV3Schema ? [[v.name, v.schema.openAPIV3Schema]] : [])),
    ),
    ...(crd.metadata.deletionTimestamp ? { terminating: true } : {}),
  };
}

export function storeKey(r: ServedResource): ResourceKey {
  return { group: r.group, version: r.versions[0]!, resource: r.resource, kind: r.kind, namespaced: r.namespaced };
}

export const CRD_RESOURCE = BUILTIN_RESOURCES.find((r) => r.resource === 'customresourcedefinitions')!;

/**
 * Kubernetes' version priority: GA before beta before alpha, higher numbers first within each
 * (v2 > v1 > v1beta1 > v1alpha2 > v1alpha1); the first is the group's preferred version.
 */
export function compareKubeVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return { rank: 3, major: 0, minor: 0 };
    return { rank: m[2] === undefined ? 0 : m[2] === 'beta' ? 1 : 2, major: Number(m[1]), minor: Number(m[3] ?? 0) };
  };
  const x = parse(a);
  const y = parse(b);
  return x.rank - y.rank || y.major - x.major || y.minor - x.minor || a.localeCompare(b);
}

/** The live table: built-ins plus the CRDs currently in the store. */
export class ResourceTable {
  private byGroupResource = new Map<string, ServedResource>();

  constructor() {
    for (const r of BUILTIN_RESOURCES) this.byGroupResource.set(`${r.group}/${r.resource}`, r);
  }

  /** Rebuilds the CRD part from the CRD objects. */
  setCrds(crds: Iterable<KObject>): void {
    for (const [k, r] of this.byGroupResource) if (r.crd) this.byGroupResource.delete(k);
    for (const crd of crds) {
      const r = resourceFromCrd(crd);
      if (r && !this.byGroupResource.has(`${r.group}/${r.resource}`))
        this.byGroupResource.set(`${r.group}/${r.resource}`, r);
    }
  }

  /** Adds a resource served by a provider rather than the store. */
  addProvided(r: ServedResource): void {
    this.byGroupResource.set(`${r.group}/${r.resource}`, r);
  }

  find(group: string, version: string, resource: string): ServedResource | undefined {
    const r = this.byGroupResource.get(`${group}/${resource}`);
    return r && r.versions.includes(version) ? r : undefined;
  }

  byGroup(group: string): ServedResource[] {
    return [...this.byGroupResource.values()].filter((r) => r.group === group);
  }

  all(): ServedResource[] {
    return [...this.byGroupResource.values()];
  }

  /** Groups with their versions, preferred (storage) version first. */
  groups(): { name: string; versions: string[] }[] {
    const m = new Map<string, string[]>();
    for (const r of this.byGroupResource.values()) {
      if (r.group === '') continue;
      const vs = m.get(r.group) ?? [];
      for (const v of r.versions) if (!vs.includes(v)) vs.push(v);
      m.set(r.group, vs);
    }
    return [...m]
      .map(([name, versions]) => ({ name, versions: versions.sort(compareKubeVersions) }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }
}
