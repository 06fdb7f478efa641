// What an OLM `Operator` is made of (docs/olm/operator-objects.md): the component label
// `operators.coreos.com/<name>`, the kinds OLM lists components of, and how one component
// becomes an entry of `status.components.refs`. Pure: the adoption controller (adoption.ts) and
// the Operator controller (operator-controller.ts) both build on it.
import type { ServedResource } from '../server/resources';
import type { KObject } from '../store/types';
import { OLM } from './operator-base';

export const COMPONENT_PREFIX = 'operators.coreos.com/';

/**
 * The kinds OLM lists components of (components.go's componentLists), as group/version/resource,
 * and whether its Operator controller watches them: it lists Services but has no watch on them,
 * so a Service alone never starts a reconcile (operator_controller.go SetupWithManager).
 */
export const COMPONENT_KINDS: { group: string; version: string; resource: string; watched: boolean }[] = [
  ['apps', 'v1', 'deployments'],
  ['', 'v1', 'services'],
  ['', 'v1', 'namespaces'],
  ['apiregistration.k8s.io', 'v1', 'apiservices'],
  ['apiextensions.k8s.io', 'v1', 'customresourcedefinitions'],
  [OLM, 'v1alpha1', 'subscriptions'],
  [OLM, 'v1alpha1', 'installplans'],
  [OLM, 'v1alpha1', 'clusterserviceversions'],
  [OLM, 'v2', 'operatorconditions'],
  ['', 'v1', 'secrets'],
  ['', 'v1', 'configmaps'],
  ['', 'v1', 'serviceaccounts'],
  ['rbac.authorization.k8s.io', 'v1', 'roles'],
  ['rbac.authorization.k8s.io', 'v1', 'rolebindings'],
  ['rbac.authorization.k8s.io', 'v1', 'clusterroles'],
  ['rbac.authorization.k8s.io', 'v1', 'clusterrolebindings'],
].map(([group, version, resource]) => ({
  group: group!,
  version: version!,
  resource: resource!,
  watched: resource !== 'services',
}));

/** A served component kind, with the version OLM lists it at (its refs' apiVersion). */
export type Component = { r: ServedResource; version: string };

/** OLM reads these kinds as metadata only (PartialObjectMetadata): their refs carry no conditions. */
const METADATA_ONLY = new Set([
  'secrets',
  'configmaps',
  'serviceaccounts',
  'roles',
  'rolebindings',
  'clusterroles',
  'clusterrolebindings',
]);

/** The component kind a served resource is, if it is one (any served version of it). */
export function componentKind(r: Pick<ServedResource, 'group' | 'resource'>) {
  return COMPONENT_KINDS.find((k) => k.group === r.group && k.resource === r.resource);
}

/**
 * The label key of the Operator named `name` (decorators.Operator.ComponentLabelKey): a name past
 * 63 characters, a label name's limit, is cut there and loses the dots, dashes and underscores it
 * then ends with.
 */
export function componentLabelKey(name: string): string {
  const cut = name.length > 63 ? name.slice(0, 63).replace(/[._-]+$/, '') : name;
  return COMPONENT_PREFIX + cut;
}

/** The label an install's components carry: the Operator `<package>.<namespace>`'s. */
export const operatorLabel = (pkg: string, ns: string) => componentLabelKey(`${pkg}.${ns}`);

/** The operator names a set of labels carries (decorators.OperatorNames). */
export function operatorNames(labels: Record<string, string> | undefined): string[] {
  return Object.keys(labels ?? {})
    .filter((k) => k.startsWith(COMPONENT_PREFIX) && k.length > COMPONENT_PREFIX.length)
    .map((k) => k.slice(COMPONENT_PREFIX.length));
}

/** One entry of an Operator's `status.components.refs` (a RichReference). */
export function componentRef({ r, version }: Component, o: KObject): Record<string, unknown> {
  const ref: Record<string, unknown> = {
    kind: r.kind,
    apiVersion: r.group ? `${r.group}/${version}` : version,
    name: o.metadata.name,
    ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}),
  };
  if (METADATA_ONLY.has(r.resource)) return ref;
  // A CSV's one condition is its phase (operator.go's csvConditionsJQ); others, their status conditions.
  if (r.kind === 'ClusterServiceVersion') {
    const st = (o.status ?? {}) as {
      phase?: string;
      reason?: string;
      message?: string;
      lastUpdateTime?: string;
      lastTransitionTime?: string;
    };
    // Type and status are always written (Go's Condition has no omitempty on them): a CSV with no
    // phase yet has type "", which the Operator CRD's required list accepts.
    const optional = {
      reason: st.reason,
      message: st.message,
      lastUpdateTime: st.lastUpdateTime,
      lastTransitionTime: st.lastTransitionTime,
    };
    return {
      ...ref,
      conditions: [
        {
          type: st.phase ?? '',
          status: 'True',
          ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined && v !== '')),
        },
      ],
    };
  }
  const conditions = (o.status as { conditions?: unknown[] } | undefined)?.conditions;
  return conditions?.length ? { ...ref, conditions } : ref;
}

/** Refs ordered as OLM orders them: kind, apiVersion, namespace, name. */
export function sortRefs(refs: Record<string, unknown>[]): Record<string, unknown>[] {
  const key = (x: Record<string, unknown>) => [x.kind, x.apiVersion, x.namespace ?? '', x.name] as string[];
  return [...refs].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
    return 0;
  });
}

/**
 * An Operator's status (decorators.Operator.SetComponents): the selector of its label, and its
 * refs sorted, left out when there are none (`refs` is omitempty in OLM's API).
 */
export function operatorStatus(name: string, refs: Record<string, unknown>[]): Record<string, unknown> {
  const key = componentLabelKey(name);
  return {
    components: {
      labelSelector: { matchExpressions: [{ key, operator: 'Exists' }] },
      ...(refs.length ? { refs: sortRefs(refs) } : {}),
    },
  };
}
