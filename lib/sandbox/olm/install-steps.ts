// The objects an InstallPlan creates for one bundle, in OLM's step form (docs/olm/install-plans.md#steps): the CSV
// (with `spec.replaces` rewritten to the CSV it actually replaces), its CRDs (from the bundle, or
// made from the CSV's owned CRD descriptions when the catalog carries only metadata), the RBAC of
// its install strategy, and the bundle's other objects.
import { createHash } from 'node:crypto';
import { bundleObjects, type BundleModel, type Gvk, type PackageModel } from '../../olm/fbc/model';
import { guessResource } from '../../olm/resources/common';
import { csvJsonOf } from '../registry/messages';
import { base62 } from './generated-roles';
import { goJson, goRule, type Permission } from './requirements';
import type { KObject } from '../store/types';
import { onSandboxRegistry, sandboxBundleImage } from '../image-registry/bundle-store';

export interface PlanStep {
  resolving: string;
  resource: {
    group: string;
    version: string;
    kind: string;
    name: string;
    manifest: string;
    sourceName: string;
    sourceNamespace: string;
  };
  status: string;
}

/** A permission in the field order of OLM's Go type, as its name hash reads it. */
function goPermission(p: Permission) {
  return { serviceAccountName: p.serviceAccountName, rules: (p.rules ?? []).map(goRule) };
}

/** The Role (or ClusterRole) and binding OLM generates for one permission of a CSV share this name. */
export function olmRoleName(csvName: string, namespace: string, p: Permission, cluster: boolean): string {
  return cluster
    ? olmGeneratedName(csvName, { name: csvName, namespace, permission: goPermission(p) })
    : olmGeneratedName(`${csvName}-${p.serviceAccountName}`, { name: csvName, permission: goPermission(p) });
}

/**
 * The name OLM gives a generated Role or ClusterRole (resolver/rbac.go generateName): the base,
 * cut so the whole fits 63 characters, then base62(sha224) of the JSON of what it is made from.
 * The same bundle gets the same names on the sandbox as on a real cluster.
 */
export function olmGeneratedName(base: string, from: unknown): string {
  const hash = base62(
    createHash('sha224')
      .update(`${goJson(from)}\n`)
      .digest(),
  ); // json.Encoder ends with a newline
  return `${base.length + hash.length > 63 ? base.slice(0, 63 - hash.length - 1) : base}-${hash}`;
}

// Kubernetes' version priority (GA, then beta, then alpha; higher numbers first), as the API
// server orders a CRD's versions: the first is the one the sandbox stores.
function versionPriority(v: string): [number, number, number] {
  const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
  if (!m) return [-1, 0, 0];
  return [m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1, Number(m[1]), Number(m[3] ?? 0)];
}

const byPriority = (a: string, b: string) => {
  const [x, y] = [versionPriority(a), versionPriority(b)];
  return y[0] - x[0] || y[1] - x[1] || y[2] - x[2] || a.localeCompare(b);
};

/**
 * A CRD the bundle image would hold, made from what the catalog says of it: the CSV's `owned`
 * entries of that name (one per version) and the bundle's `olm.gvk` properties of its group and
 * kind, every version served; the highest by Kubernetes' priority stored. The catalog says
 * nothing of its scope or schema: Namespaced, and any field accepted.
 */
function crdFromDescriptions(
  name: string,
  entries: { version?: string; kind?: string }[],
  providedApis: readonly Gvk[],
): KObject | undefined {
  const kind = entries.find((e) => e.kind)?.kind;
  const [plural, ...rest] = name.split('.');
  const group = rest.join('.');
  if (!kind || !plural || !group) return undefined;
  const versions = [
    ...new Set(
      [
        ...entries.map((e) => e.version),
        ...providedApis.filter((g) => g.group === group && g.kind === kind).map((g) => g.version),
      ].filter((v): v is string => !!v),
    ),
  ].sort(byPriority);
  if (!versions.length) return undefined;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name },
    spec: {
      group,
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      scope: 'Namespaced',
      versions: versions.map((v, i) => ({
        name: v,
        served: true,
        storage: i === 0,
        subresources: { status: {} },
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      })),
    },
  };
}

function gv(apiVersion: string): { group: string; version: string } {
  const [g, v] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  return { group: g!, version: v! };
}

/**
 * opm's stand-in CSV for a bundle known only by `olm.csv.metadata` has `deployments: null`; the
 * API server drops that null and then refuses the CSV (the CRD requires the list). The CSV in a
 * bundle's image always has the list, so the sandbox's stand-in for the image has it, empty.
 */
function withDeploymentList(csv: KObject): KObject {
  const install = (csv.spec as { install?: { spec?: { deployments?: unknown } } } | undefined)?.install;
  if (install && (install.spec?.deployments === null || install.spec?.deployments === undefined))
    install.spec = { ...install.spec, deployments: [] };
  return csv;
}

/** The CSV object OLM writes into the namespace for this bundle. */
export function csvForInstall(
  pkg: PackageModel,
  bundle: BundleModel,
  namespace: string,
  replaces: string | undefined,
): KObject {
  const csv = JSON.parse(csvJsonOf(pkg, bundle, contentObjects(bundle)) || '{}') as KObject;
  csv.apiVersion = 'operators.coreos.com/v1alpha1';
  csv.kind = 'ClusterServiceVersion';
  csv.metadata = { ...csv.metadata, name: bundle.name, namespace };
  delete csv.metadata.resourceVersion;
  delete csv.metadata.uid;
  delete csv.metadata.creationTimestamp;
  const spec = (csv.spec ?? {}) as Record<string, unknown>;
  if (replaces) spec.replaces = replaces;
  else delete spec.replaces;
  spec.version ??= bundle.version;
  spec.displayName ??= bundle.name;
  spec.install ??= { strategy: 'deployment' };
  csv.spec = spec;
  withDeploymentList(csv);
  csv.metadata.annotations = {
    ...csv.metadata.annotations,
    'operatorframework.io/properties': JSON.stringify({ properties: bundle.properties }),
  };
  return csv;
}

/**
 * The objects a bundle brings: its own `olm.bundle.object`s when they hold its CSV; else, when the
 * catalog gives it by image and the sandbox's registry holds that image, the image's manifests,
 * as OLM unpacks them (image-registry/bundle-store.ts); else none (the catalog's metadata is then
 * all there is, and bundleManifests derives from it).
 */
/**
 * A bundle the sandbox's OLM v0 unpacks from its image: one whose catalog does not carry its CSV,
 * given by an image on the sandbox's own registry. An image elsewhere (a real catalog served as it
 * is, naming registry.redhat.io) cannot be pulled from here; such a bundle keeps the sandbox's
 * install from the catalog's metadata (docs/sandbox.md#bundle-images).
 */
export function unpacksFromImage(bundle: BundleModel): boolean {
  return (
    !!bundle.image &&
    onSandboxRegistry(bundle.image) &&
    !(bundleObjects(bundle) as KObject[]).some((o) => o.kind === 'ClusterServiceVersion')
  );
}

function contentObjects(bundle: BundleModel): KObject[] {
  const inline = bundleObjects(bundle) as KObject[];
  if (inline.some((o) => o.kind === 'ClusterServiceVersion')) return inline;
  const fromImage = sandboxBundleImage(bundle.image);
  return fromImage && !('error' in fromImage) ? fromImage : inline;
}

/**
 * What the bundle's image would hold: its CSV (its own `olm.bundle.object`, or made from
 * `olm.csv.metadata` as opm makes it), its CRDs (the bundle's, then any owned CRD it lacks, made
 * from the CSV's description), then its other objects. The real cluster's catalogs carry these
 * inline (scripts/cluster-catalogs.ts), so real OLM installs exactly what the sandbox installs.
 */
export function bundleManifests(pkg: PackageModel, bundle: BundleModel): KObject[] {
  const objects = contentObjects(bundle);
  const csvJson = csvJsonOf(pkg, bundle, objects);
  const csv = csvJson ? (JSON.parse(csvJson) as KObject) : undefined;
  if (csv && !objects.some((o) => o.kind === 'ClusterServiceVersion')) {
    delete csv.status;
    withDeploymentList(csv);
  }
  const crds = objects.filter((o) => o.kind === 'CustomResourceDefinition');
  const haveCrd = new Set(crds.map((c) => c.metadata?.name));
  const owned =
    (
      csv?.spec as
        { customresourcedefinitions?: { owned?: { name?: string; version?: string; kind?: string }[] } } | undefined
    )?.customresourcedefinitions?.owned ?? [];
  for (const d of owned) {
    if (d.name && !haveCrd.has(d.name)) {
      const made = crdFromDescriptions(
        d.name,
        owned.filter((o) => o.name === d.name),
        bundle.providedApis,
      );
      if (made) {
        crds.push(made);
        haveCrd.add(d.name);
      }
    }
  }
  // APIs the bundle provides (olm.gvk) that no owned entry describes: a CRD the CSV does not
  // name, its plural guessed as the API machinery guesses it; an API service's are not CRDs.
  const apiServices =
    (csv?.spec as { apiservicedefinitions?: { owned?: { group?: string; kind?: string }[] } } | undefined)
      ?.apiservicedefinitions?.owned ?? [];
  const described = (g: Gvk) =>
    crds.some(
      (c) =>
        (c.spec as { group?: string; names?: { kind?: string } }).group === g.group &&
        (c.spec as { names?: { kind?: string } }).names?.kind === g.kind,
    );
  for (const g of bundle.providedApis) {
    if (described(g) || apiServices.some((a) => a.group === g.group && a.kind === g.kind)) continue;
    const made = crdFromDescriptions(
      `${guessResource(g.kind)}.${g.group}`,
      [{ kind: g.kind, version: g.version }],
      bundle.providedApis,
    );
    if (made) crds.push(made);
  }
  const others = objects.filter((o) => o.kind !== 'ClusterServiceVersion' && o.kind !== 'CustomResourceDefinition');
  return [...(csv ? [csv] : []), ...crds, ...others];
}

export function stepsForBundle(
  pkg: PackageModel,
  bundle: BundleModel,
  namespace: string,
  replaces: string | undefined,
  catalog: { name: string; namespace: string },
): PlanStep[] {
  const manifests = bundleManifests(pkg, bundle);
  const csv = csvForInstall(pkg, bundle, namespace, replaces);
  const spec = csv.spec as { install?: { spec?: { permissions?: Permission[]; clusterPermissions?: Permission[] } } };
  const crds = manifests.filter((o) => o.kind === 'CustomResourceDefinition');
  const out: KObject[] = [csv, ...crds];
  const accounts = new Set<string>();
  // As resolver/rbac.go writes them: namespaced objects owned by the CSV (its uid is filled in
  // when the step runs), every RBAC object labelled with its owner.
  const owner = [
    {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'ClusterServiceVersion',
      name: bundle.name,
      uid: '',
      controller: false,
      blockOwnerDeletion: false,
    },
  ];
  const labels = {
    'olm.owner': bundle.name,
    'olm.owner.kind': 'ClusterServiceVersion',
    'olm.owner.namespace': namespace,
  };
  for (const p of spec.install?.spec?.permissions ?? []) {
    accounts.add(p.serviceAccountName);
    const name = olmRoleName(bundle.name, namespace, p, false);
    out.push({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name, namespace, labels, ownerReferences: owner },
      rules: p.rules,
    });
    out.push({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name, namespace, labels, ownerReferences: owner },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ kind: 'ServiceAccount', name: p.serviceAccountName, namespace }],
    });
  }
  for (const p of spec.install?.spec?.clusterPermissions ?? []) {
    accounts.add(p.serviceAccountName);
    const name = olmRoleName(bundle.name, namespace, p, true);
    out.push({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name, labels },
      rules: p.rules,
    });
    out.push({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name, labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
      subjects: [{ kind: 'ServiceAccount', name: p.serviceAccountName, namespace }],
    });
  }
  for (const sa of accounts)
    if (sa !== 'default')
      out.splice(1 + crds.length, 0, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: sa, namespace, ownerReferences: owner },
      });
  for (const o of manifests) {
    if (o.kind === 'ClusterServiceVersion' || o.kind === 'CustomResourceDefinition') continue;
    out.push({ ...o, metadata: { ...o.metadata, namespace } });
  }
  return out.map((o) => {
    const { group, version } = gv(o.apiVersion);
    return {
      resolving: bundle.name,
      resource: {
        group,
        version,
        kind: o.kind,
        name: o.metadata.name ?? '',
        manifest: JSON.stringify(o),
        sourceName: catalog.name,
        sourceNamespace: catalog.namespace,
      },
      status: 'Unknown',
    };
  });
}
