// Applying a rendered bundle as operator-controller v1.2.0's Helm applier does, with the
// ClusterExtension's ServiceAccount as the identity (applier/helm.go; helm.sh/helm/v3 install,
// upgrade and kube client): objects labelled and annotated as Helm and operator-controller mark
// them and owned by the ClusterExtension, written in Helm's kind order; a GET per object first
// (refused in RBAC's words when the account may not read it), an object someone else owns refused,
// RBAC's escalation check on roles and bindings, objects dropped by an upgrade deleted.
// docs/olm-v1/install.md#applying.
import { authorize, forbiddenMessage, type RequestAttributes, type UserInfo } from '../auth/rbac';
import type { RbacKind } from '../auth/escalation';
import { checkNoEscalation } from '../olm/scoped';
import type { ApiServer } from '../server/api-server';
import type { ServedResource } from '../server/resources';
import type { KObject } from '../store/types';

// helm.sh/helm/v3 pkg/releaseutil/kind_sorter.go InstallOrder.
const INSTALL_ORDER = [
  'PriorityClass',
  'Namespace',
  'NetworkPolicy',
  'ResourceQuota',
  'LimitRange',
  'PodSecurityPolicy',
  'PodDisruptionBudget',
  'ServiceAccount',
  'Secret',
  'SecretList',
  'ConfigMap',
  'StorageClass',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'CustomResourceDefinition',
  'ClusterRole',
  'ClusterRoleList',
  'ClusterRoleBinding',
  'ClusterRoleBindingList',
  'Role',
  'RoleList',
  'RoleBinding',
  'RoleBindingList',
  'Service',
  'DaemonSet',
  'Pod',
  'ReplicationController',
  'ReplicaSet',
  'Deployment',
  'HorizontalPodAutoscaler',
  'StatefulSet',
  'Job',
  'CronJob',
  'IngressClass',
  'Ingress',
  'APIService',
];
const rank = (kind: string) => {
  const i = INSTALL_ORDER.indexOf(kind);
  return i < 0 ? INSTALL_ORDER.length : i;
};

export const OWNER_KIND_LABEL = 'olm.operatorframework.io/owner-kind';
export const OWNER_NAME_LABEL = 'olm.operatorframework.io/owner-name';

/** What the post-renderer and Helm put on every object of the release. */
export function decorate(objects: readonly KObject[], ext: KObject, releaseNamespace: string): KObject[] {
  const name = ext.metadata.name ?? '';
  return objects
    .map((o) => ({
      ...structuredClone(o),
      metadata: {
        ...structuredClone(o.metadata),
        labels: {
          ...o.metadata.labels,
          [OWNER_KIND_LABEL]: 'ClusterExtension',
          [OWNER_NAME_LABEL]: name,
          'app.kubernetes.io/managed-by': 'Helm',
        },
        annotations: {
          ...o.metadata.annotations,
          'meta.helm.sh/release-name': name,
          'meta.helm.sh/release-namespace': releaseNamespace,
        },
        ownerReferences: [
          ...(o.metadata.ownerReferences ?? []),
          {
            apiVersion: 'olm.operatorframework.io/v1',
            kind: 'ClusterExtension',
            name,
            uid: ext.metadata.uid ?? '',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
    }))
    .sort((a, b) => rank(a.kind) - rank(b.kind));
}

const key = (o: KObject) => `${o.apiVersion}/${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

export class Applier {
  constructor(private readonly api: ApiServer) {}

  private resourceOf(o: KObject): ServedResource | undefined {
    const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
    return this.api.resources
      .all()
      .find((r) => r.group === group && r.versions.includes(version!) && r.kind === o.kind);
  }

  private may(user: UserInfo, attrs: RequestAttributes): string | undefined {
    return authorize(this.api.rbac, user, attrs) ? undefined : forbiddenMessage(user, attrs);
  }

  /**
   * Installs (no earlier release) or upgrades to `objects`. Returns the error text operator-
   * controller would report, or undefined when every write went through.
   */
  apply(user: UserInfo, ext: KObject, objects: readonly KObject[], previous?: readonly KObject[]): string | undefined {
    const action = previous ? 'update' : 'install';
    const releaseNs = (ext.spec as { namespace?: string }).namespace ?? '';
    const extName = ext.metadata.name ?? '';
    const before = new Set((previous ?? []).map(key));
    const plan: { o: KObject; r: ServedResource; current?: KObject }[] = [];
    // Helm's dry run: every object is looked up first, with the installer's identity.
    for (const o of objects) {
      const r = this.resourceOf(o);
      if (!r)
        return `unable to build kubernetes objects from release manifest: resource mapping not found for name: "${o.metadata.name ?? ''}" namespace: "${o.metadata.namespace ?? ''}" from "": no matches for kind "${o.kind}" in version "${o.apiVersion}"`;
      const ns = r.namespaced ? o.metadata.namespace : undefined;
      const denied = this.may(user, {
        verb: 'get',
        group: r.group,
        resource: r.resource,
        namespace: ns,
        name: o.metadata.name,
      });
      if (denied)
        return `Unable to continue with ${action}: could not get information about the resource ${o.kind} "${o.metadata.name ?? ''}" in namespace "${ns ?? ''}": ${denied}`;
      const current = this.api.storeGet(r, ns, o.metadata.name ?? '');
      const ours =
        current?.metadata.labels?.['app.kubernetes.io/managed-by'] === 'Helm' &&
        current.metadata.annotations?.['meta.helm.sh/release-name'] === extName &&
        current.metadata.annotations?.['meta.helm.sh/release-namespace'] === releaseNs;
      if (current && !ours && !before.has(key(o))) {
        if (action === 'install')
          return `${o.kind} '${o.metadata.name ?? ''}' already exists in namespace '${ns ?? ''}' and cannot be managed by operator-controller`;
        return `Unable to continue with update: ${o.kind} "${o.metadata.name ?? ''}" in namespace "${ns ?? ''}" exists and cannot be imported into the current release: invalid ownership metadata; label validation error: missing key "app.kubernetes.io/managed-by": must be set to "Helm"; annotation validation error: missing key "meta.helm.sh/release-name": must be set to "${extName}"; annotation validation error: missing key "meta.helm.sh/release-namespace": must be set to "${releaseNs}"`;
      }
      plan.push({ o, r, current });
    }
    for (const { o, r, current } of plan) {
      const ns = r.namespaced ? o.metadata.namespace : undefined;
      const verb = current ? 'update' : 'create';
      const denied = this.may(user, {
        verb,
        group: r.group,
        resource: r.resource,
        namespace: ns,
        name: current ? o.metadata.name : undefined,
      });
      if (denied) return helmErrors(denied);
      try {
        if (r.group === 'rbac.authorization.k8s.io')
          checkNoEscalation(this.api.rbac, user, o, o.kind as RbacKind, current);
        if (current)
          this.api.updateObject(r, {
            ...o,
            metadata: {
              ...(before.has(key(o)) ? o.metadata : adoptedMetadata(current, o)),
              resourceVersion: current.metadata.resourceVersion,
              uid: current.metadata.uid,
            },
          });
        else this.api.createObject(r, structuredClone(o));
      } catch (err) {
        return helmErrors((err as Error).message);
      }
    }
    // An upgrade deletes what the new release no longer has.
    const now = new Set(objects.map(key));
    for (const o of previous ?? []) {
      if (now.has(key(o))) continue;
      const r = this.resourceOf(o);
      if (!r) continue;
      const ns = r.namespaced ? o.metadata.namespace : undefined;
      if (
        this.api.storeGet(r, ns, o.metadata.name ?? '') &&
        !this.may(user, { verb: 'delete', group: r.group, resource: r.resource, namespace: ns, name: o.metadata.name })
      )
        this.api.deleteObject(r, ns, o.metadata.name ?? '', { propagationPolicy: 'Background' });
    }
    return undefined;
  }

  /** Drift repair on an unchanged release: objects that were deleted come back. */
  repair(user: UserInfo, objects: readonly KObject[]): void {
    for (const o of objects) {
      const r = this.resourceOf(o);
      if (!r) continue;
      const ns = r.namespaced ? o.metadata.namespace : undefined;
      if (this.api.storeGet(r, ns, o.metadata.name ?? '')) continue;
      if (this.may(user, { verb: 'create', group: r.group, resource: r.resource, namespace: ns })) continue;
      this.api.createObject(r, structuredClone(o));
    }
  }

  /** The informers' cluster-wide list of each kind, as the account; errors as the content manager words them. */
  watchErrors(user: UserInfo, objects: readonly KObject[]): string | undefined {
    const errs = new Set<string>();
    for (const o of objects) {
      const r = this.resourceOf(o);
      if (!r) continue;
      // The informer lists first; a refused list is what it reports.
      const denied = this.may(user, { verb: 'list', group: r.group, resource: r.resource });
      if (denied) errs.add(`failed to list *unstructured.Unstructured: ${denied}`);
    }
    if (!errs.size) return undefined;
    return [...errs]
      .sort()
      .map((e) => `waiting for sync: ${e}`)
      .join('\n');
  }
}

/**
 * An object Helm adopts (it existed, with Helm's marks, before this release had it): Helm patches
 * it with a three-way merge whose original is the rendered object itself, so labels, annotations
 * and ownerReferences others put there stay beside the release's (helm.sh/helm/v3 pkg/kube
 * client.go createPatch). A migrated operator's Deployment keeps OLM v0's labels, as on a real cluster.
 */
function adoptedMetadata(current: KObject, o: KObject): KObject['metadata'] {
  const ours = new Set((o.metadata.ownerReferences ?? []).map((r) => r.uid));
  return {
    ...o.metadata,
    labels: { ...current.metadata.labels, ...o.metadata.labels },
    annotations: { ...current.metadata.annotations, ...o.metadata.annotations },
    ownerReferences: [
      ...(current.metadata.ownerReferences ?? []).filter((r) => !ours.has(r.uid)),
      ...(o.metadata.ownerReferences ?? []),
    ],
  };
}

/** Helm's multierror text for failed writes. */
function helmErrors(message: string): string {
  return `1 error occurred:\n\t* ${message}\n\n`;
}
