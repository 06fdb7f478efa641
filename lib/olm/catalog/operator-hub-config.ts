// OpenShift's OperatorHub config (config.openshift.io/v1 `OperatorHub`, the cluster-scoped
// singleton `cluster`) and what OpenShift's marketplace operator does with it, as
// openshift/api (config/v1/types_operatorhub.go) types it and operator-framework/
// operator-marketplace (pkg/operatorhub, pkg/defaults) acts on it: every default source enabled,
// all of them disabled by `disableAllDefaultSources`, then each `spec.sources` entry decides for
// its name. A disabled default's CatalogSource is deleted (only if the operator's annotation marks
// it as its own), an enabled one is created or has its spec put back; `status.sources` reports each
// name. Upstream OLM has no such switch: there a catalog is on while its CatalogSource exists.
import type { KubeObject, ResourceType } from '../resources/common';

export const OPERATOR_HUB_TYPE: ResourceType = {
  group: 'config.openshift.io',
  version: 'v1',
  plural: 'operatorhubs',
  namespaced: false,
  kind: 'OperatorHub',
};
export const OPERATOR_HUB_NAME = 'cluster';
/** Where the marketplace operator keeps the default CatalogSources. */
export const MARKETPLACE_NAMESPACE = 'openshift-marketplace';
/** The annotation the marketplace operator puts on the CatalogSources it manages. */
export const MARKETPLACE_MANAGED_BY = {
  key: 'operatorframework.io/managed-by',
  value: 'marketplace-operator',
} as const;
/** `status.sources[].status` values, and the message for a name that is no default source. */
export const HUB_SOURCE_SUCCESS = 'Success';
export const HUB_SOURCE_ERROR = 'Error';
export const NOT_A_DEFAULT_SOURCE = 'Not present in the default definitions';

export interface HubSource {
  name: string;
  disabled: boolean;
}

export interface HubSourceStatus {
  name?: string;
  disabled?: boolean;
  status?: string;
  message?: string;
}

export interface OperatorHubSpec {
  disableAllDefaultSources?: boolean;
  sources?: HubSource[];
}

export interface OperatorHub extends KubeObject {
  spec?: OperatorHubSpec;
  status?: { sources?: HubSourceStatus[] };
}

/** Anything with metadata, as a CatalogSource or a Subscription is read. */
interface Meta {
  metadata?: { name?: string; namespace?: string; annotations?: Record<string, string> };
}

/**
 * Name → disabled, as the marketplace operator computes it from the spec: the defaults (all off
 * with disableAllDefaultSources), then each spec.sources entry, a name that is no default included
 * (it is reported as an error, never acted on).
 */
export function effectiveSources(spec: OperatorHubSpec | undefined, defaults: readonly string[]): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const name of defaults) out.set(name, spec?.disableAllDefaultSources === true);
  for (const s of spec?.sources ?? []) out.set(s.name, s.disabled === true);
  return out;
}

/**
 * The `status.sources` the marketplace operator writes for that state: Success for a default it
 * applied, Error with the failure's text for one it could not, Error "Not present in the default
 * definitions" for any other name. Sorted by name (the operator's order is a Go map's).
 */
export function hubSourceStatuses(
  effective: ReadonlyMap<string, boolean>,
  defaults: readonly string[],
  failures: ReadonlyMap<string, string> = new Map(),
): HubSourceStatus[] {
  return [...effective.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, disabled]) => {
      if (!defaults.includes(name)) return { name, disabled, status: HUB_SOURCE_ERROR, message: NOT_A_DEFAULT_SOURCE };
      const failure = failures.get(name);
      return failure
        ? { name, disabled, status: HUB_SOURCE_ERROR, message: failure }
        : { name, disabled, status: HUB_SOURCE_SUCCESS };
    });
}

export function isManagedByMarketplace(o: Meta): boolean {
  return o.metadata?.annotations?.[MARKETPLACE_MANAGED_BY.key] === MARKETPLACE_MANAGED_BY.value;
}

/**
 * Which sources are default, as far as the cluster says: the operator's definitions are inside
 * its image, so a console knows them from `status.sources` (every name but those reported as no
 * default) and from the CatalogSources in openshift-marketplace that carry its annotation.
 */
export function knownDefaultSources(hub: OperatorHub | undefined, catalogSources: readonly Meta[]): string[] {
  const names = new Set<string>();
  for (const s of hub?.status?.sources ?? []) if (s.name && s.message !== NOT_A_DEFAULT_SOURCE) names.add(s.name);
  for (const cs of catalogSources)
    if (cs.metadata?.namespace === MARKETPLACE_NAMESPACE && cs.metadata.name && isManagedByMarketplace(cs))
      names.add(cs.metadata.name);
  return [...names].sort();
}

/** One switch on the page: all default sources, or one by name. `disabled` is the new position. */
export type HubSwitch = { kind: 'all'; disabled: boolean } | { kind: 'source'; name: string; disabled: boolean };

/** The spec after a switch: the flag set, or the source's entry written (added or replaced in place). */
export function specAfterSwitch(spec: OperatorHubSpec | undefined, sw: HubSwitch): OperatorHubSpec {
  const base: OperatorHubSpec = { ...spec };
  if (sw.kind === 'all') return { ...base, disableAllDefaultSources: sw.disabled };
  const sources = [...(base.sources ?? [])];
  const at = sources.findIndex((s) => s.name === sw.name);
  if (at >= 0) sources[at] = { name: sw.name, disabled: sw.disabled };
  else sources.push({ name: sw.name, disabled: sw.disabled });
  return { ...base, sources };
}

/**
 * The change as a JSON merge patch shows it (a merge patch replaces a list whole, so a source's
 * switch carries every entry).
 */
export function switchPatch(spec: OperatorHubSpec | undefined, sw: HubSwitch): { spec: OperatorHubSpec } {
  const after = specAfterSwitch(spec, sw);
  return sw.kind === 'all'
    ? { spec: { disableAllDefaultSources: sw.disabled } }
    : { spec: { sources: after.sources ?? [] } };
}

export interface SubscriptionRef {
  namespace: string;
  name: string;
  package: string;
}

export interface SourceEffect {
  name: string;
  /** Disabled before and after the switch. */
  from: boolean;
  to: boolean;
  /** What happens to CatalogSource openshift-marketplace/<name>. */
  catalogSource: 'deleted' | 'created' | 'restored' | 'kept' | 'none';
  /** Subscriptions that install from it. */
  subscriptions: SubscriptionRef[];
  /** The plan in words. */
  text: string;
}

export interface SwitchPlan {
  spec: OperatorHubSpec;
  patch: { spec: OperatorHubSpec };
  /** Nothing a default source does changes (the spec may still change). */
  noChange: boolean;
  /** Every default source whose state changes. */
  effects: SourceEffect[];
  /** Defaults whose own spec.sources entry keeps them as they are against an "all" switch. */
  heldBySourceEntry: { name: string; disabled: boolean }[];
  /** A switch naming a source that is no default. */
  notDefault?: string;
}

interface SubscriptionLike extends Meta {
  spec?: { name?: string; source?: string; sourceNamespace?: string };
}

/** Subscriptions that install from CatalogSource openshift-marketplace/<name>. */
export function subscriptionsFrom(name: string, subscriptions: readonly SubscriptionLike[]): SubscriptionRef[] {
  return subscriptions
    .filter((s) => s.spec?.source === name && s.spec.sourceNamespace === MARKETPLACE_NAMESPACE)
    .map((s) => ({ namespace: s.metadata?.namespace ?? '', name: s.metadata?.name ?? '', package: s.spec?.name ?? '' }))
    .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
}

function operators(n: number): string {
  return n === 1 ? '1 installed operator subscribes' : `${n} installed operators subscribe`;
}

function effectOf(
  name: string,
  from: boolean,
  to: boolean,
  existing: Meta | undefined,
  subs: SubscriptionRef[],
): SourceEffect {
  const where = `CatalogSource ${MARKETPLACE_NAMESPACE}/${name}`;
  if (to) {
    if (!existing)
      return {
        name,
        from,
        to,
        catalogSource: 'none',
        subscriptions: subs,
        text: `Disables ${name}; ${where} is already gone.`,
      };
    if (!isManagedByMarketplace(existing)) {
      return {
        name,
        from,
        to,
        catalogSource: 'kept',
        subscriptions: subs,
        text: `Disables ${name}, but ${where} stays: it lacks the annotation ${MARKETPLACE_MANAGED_BY.key}=${MARKETPLACE_MANAGED_BY.value}, and the marketplace operator deletes only CatalogSources it marks as its own.`,
      };
    }
    const unhealthy = subs.length
      ? `${operators(subs.length)} to it and will report CatalogSourcesUnhealthy (they keep running, but get no upgrades) until it is back.`
      : 'no Subscription installs from it.';
    return {
      name,
      from,
      to,
      catalogSource: 'deleted',
      subscriptions: subs,
      text: `This deletes ${where} (and its catalog pod); its packages leave OperatorHub; ${unhealthy}`,
    };
  }
  if (!existing)
    return {
      name,
      from,
      to,
      catalogSource: 'created',
      subscriptions: subs,
      text: `This creates ${where} again from the marketplace operator's definition; its packages return to OperatorHub${subs.length ? `, and the ${subs.length} Subscription(s) that install from it recover` : ''}.`,
    };
  return {
    name,
    from,
    to,
    catalogSource: 'restored',
    subscriptions: subs,
    text: `${where} exists: the marketplace operator puts its definition's spec and annotation back on it, replacing any other spec.`,
  };
}

/**
 * What a switch does: the new spec, the merge patch, and for each default source whose state
 * changes what happens to its CatalogSource and the Subscriptions that install from it.
 */
export function planSwitch(
  hub: OperatorHub | undefined,
  sw: HubSwitch,
  a: { defaults: readonly string[]; catalogSources: readonly Meta[]; subscriptions: readonly SubscriptionLike[] },
): SwitchPlan {
  const spec = specAfterSwitch(hub?.spec, sw);
  const before = effectiveSources(hub?.spec, a.defaults);
  const after = effectiveSources(spec, a.defaults);
  const effects: SourceEffect[] = [];
  for (const name of a.defaults) {
    const from = before.get(name) === true;
    const to = after.get(name) === true;
    if (from === to) continue;
    const existing = a.catalogSources.find(
      (cs) => cs.metadata?.namespace === MARKETPLACE_NAMESPACE && cs.metadata.name === name,
    );
    effects.push(effectOf(name, from, to, existing, subscriptionsFrom(name, a.subscriptions)));
  }
  const heldBySourceEntry =
    sw.kind === 'all'
      ? (hub?.spec?.sources ?? [])
          .filter((s) => a.defaults.includes(s.name) && s.disabled !== sw.disabled)
          .map((s) => ({ name: s.name, disabled: s.disabled }))
      : [];
  return {
    spec,
    patch: switchPatch(hub?.spec, sw),
    noChange: effects.length === 0,
    effects,
    heldBySourceEntry,
    ...(sw.kind === 'source' && !a.defaults.includes(sw.name) ? { notDefault: sw.name } : {}),
  };
}

/** A default source's row: whether it is disabled by the spec, and what the marketplace operator last reported. */
export interface DefaultSourceState {
  name: string;
  disabled: boolean;
  /** Why: its own entry in spec.sources, or disableAllDefaultSources, or neither (enabled by default). */
  decidedBy: 'source entry' | 'disableAllDefaultSources' | 'default';
  reported?: HubSourceStatus;
  /** The operator's status does not (yet) match the spec. */
  pending: boolean;
}

export function defaultSourceStates(hub: OperatorHub | undefined, defaults: readonly string[]): DefaultSourceState[] {
  const effective = effectiveSources(hub?.spec, defaults);
  return defaults.map((name) => {
    const disabled = effective.get(name) === true;
    const entry = hub?.spec?.sources?.some((s) => s.name === name);
    const reported = hub?.status?.sources?.find((s) => s.name === name);
    return {
      name,
      disabled,
      decidedBy: entry ? 'source entry' : hub?.spec?.disableAllDefaultSources ? 'disableAllDefaultSources' : 'default',
      ...(reported ? { reported } : {}),
      pending: !reported || (reported.disabled ?? false) !== disabled,
    };
  });
}

/**
 * What deleting or editing a CatalogSource the marketplace operator manages leads to: while its
 * source is enabled the operator makes it again, or puts its spec back.
 */
export function marketplaceManagedNote(cs: Meta, action: 'update' | 'delete'): string | undefined {
  if (cs.metadata?.namespace !== MARKETPLACE_NAMESPACE || !isManagedByMarketplace(cs)) return undefined;
  const name = cs.metadata.name ?? '';
  return action === 'delete'
    ? `OpenShift's marketplace operator manages ${name} (annotation ${MARKETPLACE_MANAGED_BY.key}): while the source is enabled it creates the CatalogSource again at once. To remove it, disable ${name} under Default sources (OperatorHub config).`
    : `OpenShift's marketplace operator manages ${name} (annotation ${MARKETPLACE_MANAGED_BY.key}): it puts its own spec back over any edit.`;
}
