// The steps that hand a v0 operator to OLM v1 v1.2.0 without losing its CRDs or their objects,
// each with the writes it makes and why. Facts that shape the order:
// - Helm (v1's applier) takes over an existing object only when it carries
//   app.kubernetes.io/managed-by=Helm and the release name/namespace annotations; any other
//   existing object fails the install (docs/olm-v1/migration.md#adoption). So the objects v1 will
//   render and v0 made are marked, but only once OLM v0 let go: on a real cluster OLM v0 rewrites
//   a ServiceAccount's labels within seconds while its CSV exists, and the marks are lost.
// - Deleting a CSV garbage-collects what it owns, its Deployment included. Deleted with
//   propagationPolicy Orphan, the API server strips the CSV's ownerReferences instead, so the
//   operator keeps running; OLM v0's finalizer still removes the ClusterRoles it labelled for the
//   CSV, but not a bundle's own ClusterRoles, which it never labels so: those stay, and are marked.
// - v1 installs with a ServiceAccount's rights, not the person's (installer-rbac.ts).
// - Pinned to the installed version and channel, v1 resolves the installed bundle (migration-check.ts).
// Pure: the server gathers the facts as the person and applies the writes in order.
import type { ResourceType } from '../resources/common';
import { guessResource } from '../resources/common';
import type { Subscription } from '../resources/subscription';
import { installerRbac } from './installer-rbac';
import type { ExistingObject, MigrationTarget } from './migration-check';
import { feedsInto } from './shared-roles';
import type { PolicyRule } from './v0-ownership';

export const HELM_MANAGED_BY = 'app.kubernetes.io/managed-by';
export const HELM_RELEASE_NAME = 'meta.helm.sh/release-name';
export const HELM_RELEASE_NAMESPACE = 'meta.helm.sh/release-namespace';

export interface MigrationWrite {
  verb: 'create' | 'patch' | 'delete';
  type: ResourceType;
  name: string;
  namespace?: string;
  /** create: the object; patch: a JSON merge patch. */
  body?: Record<string, unknown>;
  propagationPolicy?: 'Orphan' | 'Background';
  /** The merge patch that puts a patched object's fields back as they were. */
  undo?: Record<string, unknown>;
  /** patch: the uid the object had when planned; the write goes to that very object or not at all. */
  uid?: string;
  /** patch of a role feeding others (the bundle's own): its rules when planned, which must not change. */
  rules?: PolicyRule[];
}

export type MigrationStepId =
  'installer' | 'adopt' | 'delete-subscription' | 'orphan-csv' | 'create-extension' | 'wait-installed' | 'cleanup';

export interface MigrationStep {
  id: MigrationStepId;
  title: string;
  why: string;
  writes: MigrationWrite[];
}

export interface MigrationPlanFacts {
  namespace: string;
  csvName: string;
  extensionName: string;
  subscription: Subscription;
  target: MigrationTarget;
  /** The rendered objects that exist now: every one OLM v0 installed for the CSV (migration-check.ts). */
  existing: ExistingObject[];
  /** Installer objects (kind/name) already there, which are kept rather than made. */
  installerExisting: string[];
  /** v0's objects for this CSV that v1 does not render (labelled olm.owner=<csv>), and its OperatorCondition. */
  leftovers: { type: ResourceType; name: string }[];
  /** InstallPlans that installed nothing but this CSV. */
  installPlans: string[];
  /** The namespace's OperatorGroup when the console made it and no other operator uses it. */
  operatorGroupToDelete?: string;
}

export const V1_GROUP = 'olm.operatorframework.io';
export const CLUSTER_EXTENSION: ResourceType = {
  group: V1_GROUP,
  version: 'v1',
  plural: 'clusterextensions',
  namespaced: false,
  kind: 'ClusterExtension',
};
const SUBSCRIPTION: ResourceType = {
  group: 'operators.coreos.com',
  version: 'v1alpha1',
  plural: 'subscriptions',
  namespaced: true,
  kind: 'Subscription',
};
const CSV: ResourceType = { ...SUBSCRIPTION, plural: 'clusterserviceversions', kind: 'ClusterServiceVersion' };
const INSTALL_PLAN: ResourceType = { ...SUBSCRIPTION, plural: 'installplans', kind: 'InstallPlan' };
const OPERATOR_GROUP: ResourceType = {
  ...SUBSCRIPTION,
  version: 'v1',
  plural: 'operatorgroups',
  kind: 'OperatorGroup',
};

type Obj = { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string } };

/** The API type of an object by its apiVersion and kind (every kind v1 renders is plural by the usual rule). */
export function typeOf(o: Obj): ResourceType {
  const av = o.apiVersion ?? 'v1';
  const [group, version] = av.includes('/') ? av.split('/') : ['', av];
  return {
    group: group!,
    version: version!,
    plural: guessResource(o.kind ?? ''),
    namespaced: !!o.metadata?.namespace,
    kind: o.kind ?? '',
  };
}

const key = (kind: string, name: string) => `${kind}/${name}`;

/** The ServiceAccount v1 installs with, and the merge patch putting back one object's Helm marks. */
export const installerName = (extension: string) => `${extension}-installer`;

/** OLM v0's label naming the operator an object belongs to (its Operator API's components). */
export const componentLabel = (pkg: string, namespace: string) => `operators.coreos.com/${pkg}.${namespace}`;

function undoMarks(m: ExistingObject['marks'], component: string): Record<string, unknown> {
  return {
    metadata: {
      labels: { [HELM_MANAGED_BY]: m.managedBy ?? null, [component]: m.component ?? null },
      annotations: { [HELM_RELEASE_NAME]: m.releaseName ?? null, [HELM_RELEASE_NAMESPACE]: m.releaseNamespace ?? null },
    },
  };
}

/**
 * What taking over a bundle's own role feeding `edit` (say) means, for the person to weigh: the
 * check let it through only as OLM v0's, with the rules v1 renders (v0-ownership.ts).
 */
function feedingRoleWhy(e: ExistingObject, csv: string): string {
  const roles = feedsInto(e.labels).map((f) => f.slice('aggregate-to-'.length));
  const into = `the ${roles.join(', ')} role${roles.length > 1 ? 's' : ''}`;
  return (
    `${e.kind} ${e.name} is the bundle’s own and its rules flow into ${into}: ` +
    `OLM v0’s InstallPlan wrote it for ${csv} and leaves it when the CSV goes, so OLM v1 takes it over with ` +
    'the rules it has now, and what those roles grant does not change. Once OLM v1 manages it, another version ' +
    'of the bundle may give it other rules, and so change what they grant; uninstalling the extension deletes it.'
  );
}

export function planMigration(f: MigrationPlanFacts): MigrationStep[] {
  const { namespace: ns, extensionName: ext, target } = f;
  const sa = installerName(ext);
  const installerObjects = [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa, namespace: ns } },
    ...installerRbac({ manifests: target.objects, namespace: ns, serviceAccount: sa, extensionName: ext }),
  ] as Obj[];
  const have = new Set(f.installerExisting);
  const component = componentLabel(target.packageName, ns);
  const installer: MigrationStep = {
    id: 'installer',
    title: `Give OLM v1 an installer account, ${ns}/${sa}`,
    why:
      'OLM v1 installs with a ServiceAccount’s rights, not yours: this account gets exactly the rights ' +
      `this bundle needs (each object by name, and list/watch of each kind).`,
    writes: installerObjects
      .filter((o) => !have.has(key(o.kind ?? '', o.metadata?.name ?? '')))
      .map((o) => ({
        verb: 'create' as const,
        type: typeOf(o),
        name: o.metadata?.name ?? '',
        ...(o.metadata?.namespace ? { namespace: o.metadata.namespace } : {}),
        body: o as Record<string, unknown>,
      })),
  };
  const feeding = f.existing.filter((e) => feedsInto(e.labels).length);
  const adopt: MigrationStep = {
    id: 'adopt',
    title: `Mark ${f.existing.length} existing object${f.existing.length === 1 ? '' : 's'} for OLM v1 to adopt`,
    why:
      'Helm takes over an existing object only when it carries these marks; without them OLM v1 refuses ' +
      'the install because the object "already exists". OLM v0’s component label comes off, so OLM v0 no ' +
      'longer counts the object as its operator’s. Done only once OLM v0 let go: while the CSV exists, OLM v0 ' +
      'rewrites these labels.' +
      feeding.map((e) => ' ' + feedingRoleWhy(e, f.csvName)).join(''),
    writes: f.existing
      .filter((e) => !(e.helmRelease?.name === ext && e.helmRelease.namespace === ns))
      .map((e) => {
        const o = target.objects.find((t) => t.kind === e.kind && t.metadata.name === e.name)!;
        return {
          verb: 'patch' as const,
          type: typeOf(o as Obj),
          name: e.name,
          ...(e.namespace ? { namespace: e.namespace } : {}),
          body: {
            metadata: {
              labels: { [HELM_MANAGED_BY]: 'Helm', [component]: null },
              annotations: { [HELM_RELEASE_NAME]: ext, [HELM_RELEASE_NAMESPACE]: ns },
            },
          },
          undo: undoMarks(e.marks, component),
          ...(e.uid ? { uid: e.uid } : {}),
          ...(feedsInto(e.labels).length && e.rules ? { rules: e.rules } : {}),
        };
      }),
  };
  const subName = f.subscription.metadata?.name ?? '';
  const steps: MigrationStep[] = [
    installer,
    {
      id: 'delete-subscription',
      title: `Delete the Subscription ${subName}`,
      why: 'OLM v0 stops resolving and upgrading the operator. The CSV, the CRDs and their objects stay.',
      writes: [{ verb: 'delete', type: SUBSCRIPTION, name: subName, namespace: ns }],
    },
    {
      id: 'orphan-csv',
      title: `Delete the CSV ${f.csvName}, keeping what it owns`,
      why:
        'OLM v0 lets go of the operator. Deleted with propagation "Orphan", its Deployment and ServiceAccount ' +
        'keep running instead of being garbage-collected. OLM v0 removes the ClusterRoles it made for the CSV, ' +
        'so the operator lacks those rights until OLM v1 writes its own. The step ends when the CSV is gone.',
      writes: [{ verb: 'delete', type: CSV, name: f.csvName, namespace: ns, propagationPolicy: 'Orphan' }],
    },
    adopt,
    {
      id: 'create-extension',
      title: `Create the ClusterExtension ${ext} at ${target.version}`,
      why:
        `Pinned to version ${target.version}${target.channel ? ` in channel ${target.channel}` : ''}, OLM v1 ` +
        `resolves the bundle installed now (${target.bundle}, from ClusterCatalog ${target.catalog}) and adopts ` +
        'the marked objects. It writes its own pod template annotations, so the Deployment rolls out once.',
      writes: [
        {
          verb: 'create',
          type: CLUSTER_EXTENSION,
          name: ext,
          body: {
            apiVersion: `${V1_GROUP}/v1`,
            kind: 'ClusterExtension',
            metadata: { name: ext },
            spec: {
              namespace: ns,
              serviceAccount: { name: sa },
              source: {
                sourceType: 'Catalog',
                catalog: {
                  packageName: target.packageName,
                  version: target.version,
                  ...(target.channel ? { channels: [target.channel] } : {}),
                },
              },
            },
          },
        },
      ],
    },
    {
      id: 'wait-installed',
      title: 'Wait until OLM v1 reports Installed',
      why: 'The move counts only once operator-controller has installed the bundle and manages its objects.',
      writes: [],
    },
  ];
  const cleanup: MigrationWrite[] = [
    ...f.leftovers.map((l) => ({ verb: 'delete' as const, type: l.type, name: l.name, namespace: ns })),
    ...f.installPlans.map((name) => ({ verb: 'delete' as const, type: INSTALL_PLAN, name, namespace: ns })),
    ...(f.operatorGroupToDelete
      ? [{ verb: 'delete' as const, type: OPERATOR_GROUP, name: f.operatorGroupToDelete, namespace: ns }]
      : []),
  ];
  if (cleanup.length)
    steps.push({
      id: 'cleanup',
      title: 'Remove what OLM v0 leaves behind',
      why:
        'The CSV’s own Roles and bindings and its OperatorCondition were orphaned with it; its InstallPlans ' +
        'and an OperatorGroup the console made for it serve nothing now.',
      writes: cleanup,
    });
  return steps.filter((s) => s.id !== 'adopt' || s.writes.length);
}
