// What is left of an operator after an uninstall that stopped half-way (or a CSV deleted by hand),
// and why each part stays, in words (docs/olm/uninstall.md): OLM never deletes CRDs, their
// instances or OperatorGroups; InstallPlans go only once every Subscription owning them is gone; a
// CSV is held by OLM's `operators.coreos.com/csv-cleanup` finalizer until its cluster RBAC is gone;
// a Subscription whose installed CSV is gone is not resolved again. Pure: the server gathers the
// objects, this decides. The cleanup order is in `leftovers-plan.ts`.
import { isCopiedCsv, ownedCrds, type ClusterServiceVersion } from '../resources/cluster-service-version';
import type { ResourceType } from '../resources/common';
import type { InstallPlan } from '../resources/install-plan';
import type { OperatorGroup } from '../resources/operator-group';
import type { Subscription } from '../resources/subscription';
import { crdsInUse } from './crd-removal';
import { CREATED_BY_LABEL } from './plan';

/** OLM's finalizer on every CSV it manages (olm.go processFinalizer). */
export const CSV_CLEANUP_FINALIZER = 'operators.coreos.com/csv-cleanup';
/** The garbage collector's finalizers: kube-controller-manager removes them, never an operator. */
export const GC_FINALIZERS: readonly string[] = ['foregroundDeletion', 'orphan'];

/** How a person points at a half-gone operator: its Subscription, its CSV, or both. */
export interface LeftoverAnchor {
  subscription?: string;
  csv?: string;
}

export interface Instance {
  metadata?: { name?: string; namespace?: string; deletionTimestamp?: string; finalizers?: string[] };
}

/** A CRD as the server read it, with its instances in the whole cluster. */
export interface CrdFacts {
  name: string;
  /** Absent when the CRD is already gone. */
  crd?: {
    group: string;
    kind: string;
    plural: string;
    version: string;
    namespaced: boolean;
    deletionTimestamp?: string;
  };
  /** The instances, or why they could not be listed. */
  instances: Instance[] | string;
}

export interface LeftoverFacts {
  namespace: string;
  anchor: LeftoverAnchor;
  subscriptions: Subscription[];
  /** Every CSV in the namespace (copies included; they are told apart here). */
  csvs: ClusterServiceVersion[];
  installPlans: InstallPlan[];
  operatorGroups: OperatorGroup[];
  crds: CrdFacts[];
  /** Every non-copied CSV in the cluster, to tell whether another operator uses a CRD; or why not. */
  clusterCsvs: ClusterServiceVersion[] | string;
  /** Parts the person may not delete (SelfSubjectAccessReview), by part id, with the cluster's reason. */
  denied: Record<string, string>;
  now?: Date;
}

export type PartKind =
  | 'Subscription'
  | 'ClusterServiceVersion'
  | 'InstallPlan'
  | 'OperatorGroup'
  | 'CustomResourceDefinition'
  | 'Instances'
  | 'Finalizers';

export interface InstanceRef {
  namespace?: string;
  name: string;
  deletionTimestamp?: string;
  finalizers: string[];
}

export interface LeftoverPart {
  /** `<kind>:<name>`, what the person chooses. */
  id: string;
  kind: PartKind;
  /** The object's name; for Instances and Finalizers the CRD's. */
  name: string;
  namespace?: string;
  /** One short line: phase, count. */
  state: string;
  /** Why it is still there, in words. */
  why: string[];
  /** Why it cannot be chosen (used by another operator, forbidden, held by a running controller). */
  refused?: string;
  /** Parts that go with this one when it is chosen. */
  requires: string[];
  /** Instances and Finalizers: the API and the objects. */
  api?: ResourceType;
  instances?: { total: number; byNamespace: Record<string, number>; items: InstanceRef[] };
}

export interface Leftovers {
  namespace: string;
  /** The operator's package, when a Subscription says it. */
  package?: string;
  displayName: string;
  /** Every CSV name of this operator (installed, current, being replaced). */
  csvNames: string[];
  parts: LeftoverPart[];
  /** Nothing is left: the uninstall finished. */
  empty: boolean;
  notes: string[];
}

/**
 * Whether an Installed Operators row is an operator half gone, in words: a CSV being deleted, a CSV
 * no Subscription names, or a Subscription whose installed CSV is gone. Undefined for a whole one
 * (and for a Subscription still installing, which has no installed CSV yet).
 */
export function halfGone(csv: ClusterServiceVersion | undefined, sub: Subscription | undefined): string | undefined {
  if (csv && isCopiedCsv(csv)) return undefined;
  if (csv?.metadata?.deletionTimestamp)
    return `its CSV is being deleted${csv.metadata.finalizers?.length ? `, held by ${csv.metadata.finalizers.join(', ')}` : ''}`;
  if (csv && !sub) return 'no Subscription names its CSV';
  if (!csv && sub?.status?.installedCSV) return `its installed CSV ${sub.status.installedCSV} is gone`;
  return undefined;
}

export const partId = (kind: PartKind, name: string): string => `${kind}:${name}`;

const nameOf = (o: { metadata?: { name?: string } }): string => o.metadata?.name ?? '';

/** The operator's CSV names: the anchor's, the Subscription's, and the replaces chain among the namespace's CSVs. */
function operatorCsvNames(
  anchor: LeftoverAnchor,
  subs: readonly Subscription[],
  csvs: readonly ClusterServiceVersion[],
): Set<string> {
  const names = new Set<string>();
  if (anchor.csv) names.add(anchor.csv);
  for (const s of subs) for (const n of [s.status?.installedCSV, s.status?.currentCSV]) if (n) names.add(n);
  // A CSV being replaced and its successor are the same operator (docs/olm/csv-phases.md#phase-machine, Replacing).
  for (let grew = true; grew;) {
    grew = false;
    for (const c of csvs) {
      const r = c.spec?.replaces;
      if (r && names.has(nameOf(c)) !== names.has(r)) {
        names.add(nameOf(c));
        names.add(r);
        grew = true;
      }
    }
  }
  return names;
}

/** The operator's Subscriptions: the one named, and any whose installed or current CSV is one of its CSVs. */
export function operatorSubscriptions(anchor: LeftoverAnchor, subs: readonly Subscription[]): Subscription[] {
  return subs.filter(
    (s) =>
      nameOf(s) === anchor.subscription ||
      (!!anchor.csv && (s.status?.installedCSV === anchor.csv || s.status?.currentCSV === anchor.csv)),
  );
}

/**
 * The CRDs to look at: those the operator's CSVs own and, when a CSV is already gone, those its
 * InstallPlans created for it (a step of kind CustomResourceDefinition resolving one of its CSVs).
 */
export function leftoverCrdNames(
  f: Pick<LeftoverFacts, 'anchor' | 'subscriptions' | 'csvs' | 'installPlans'>,
): string[] {
  const subs = operatorSubscriptions(f.anchor, f.subscriptions);
  const names = operatorCsvNames(f.anchor, subs, f.csvs);
  const out = new Set<string>();
  for (const c of f.csvs) if (names.has(nameOf(c)) && !isCopiedCsv(c)) for (const d of ownedCrds(c)) out.add(d.name);
  for (const p of f.installPlans)
    for (const s of p.status?.plan ?? [])
      if (s.resource.kind === 'CustomResourceDefinition' && names.has(s.resolving)) out.add(s.resource.name);
  return [...out].sort();
}

function since(ts: string | undefined): string {
  return ts ? ` since ${ts}` : '';
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function csvDeletingWhy(csv: ClusterServiceVersion): string[] {
  const name = nameOf(csv);
  const fins = csv.metadata?.finalizers ?? [];
  const why = [`CSV ${name} is being deleted${since(csv.metadata?.deletionTimestamp)}.`];
  if (fins.includes(CSV_CLEANUP_FINALIZER)) {
    why.push(
      `Its finalizer ${CSV_CLEANUP_FINALIZER} is held until OLM's olm-operator has deleted the ClusterRoles and ClusterRoleBindings labelled olm.owner=${name}, olm.owner.namespace=${csv.metadata?.namespace ?? ''}. If it stays, check that OLM runs and may delete them; the console does not remove OLM's finalizer, which would leave that RBAC behind.`,
    );
  }
  for (const f of fins.filter((x) => x !== CSV_CLEANUP_FINALIZER))
    why.push(`It also carries finalizer ${f}, which only whoever added it removes.`);
  if (!fins.length) why.push('It has no finalizer left: the API server removes it shortly.');
  return why;
}

export function whatIsLeft(f: LeftoverFacts): Leftovers {
  const ns = f.namespace;
  const subs = operatorSubscriptions(f.anchor, f.subscriptions);
  const names = operatorCsvNames(f.anchor, subs, f.csvs);
  const csvs = f.csvs.filter((c) => names.has(nameOf(c)) && !isCopiedCsv(c));
  const present = new Set(csvs.map(nameOf));
  const subUids = new Set(subs.map((s) => s.metadata?.uid).filter(Boolean));
  const parts: LeftoverPart[] = [];
  const notes: string[] = [];
  const deny = (id: string): string | undefined => (f.denied[id] ? `you may not do this: ${f.denied[id]}` : undefined);

  for (const s of subs) {
    const installed = s.status?.installedCSV;
    const why: string[] = [];
    if (installed && !present.has(installed))
      why.push(
        `It still names ${installed} as installed, which is gone: OLM does not install it again while the Subscription points at it (the remedy is to delete the Subscription, or make it again).`,
      );
    else if (installed) why.push(`It keeps ${installed} installed and upgraded: OLM would act on it again.`);
    else why.push('Nothing is installed from it: OLM keeps trying to resolve it.');
    const id = partId('Subscription', nameOf(s));
    parts.push({
      id,
      kind: 'Subscription',
      name: nameOf(s),
      namespace: ns,
      state: `package ${s.spec.name}, channel ${s.spec.channel ?? 'default'}${s.status?.state ? `, ${s.status.state}` : ''}`,
      why,
      requires: [],
      ...(deny(id) ? { refused: deny(id) } : {}),
    });
  }

  for (const c of csvs) {
    const deleting = !!c.metadata?.deletionTimestamp;
    const phase = c.status?.phase ?? 'no phase yet';
    const subbed = subs.some((s) => s.status?.installedCSV === nameOf(c) || s.status?.currentCSV === nameOf(c));
    const why = deleting
      ? csvDeletingWhy(c)
      : subbed
        ? [`The operator is still installed (${phase}): the uninstall did not reach its CSV.`]
        : [`No Subscription names it any more: OLM keeps the operator running (${phase}) but never upgrades it.`];
    const id = partId('ClusterServiceVersion', nameOf(c));
    const refused = deleting ? 'already being deleted' : deny(id);
    parts.push({
      id,
      kind: 'ClusterServiceVersion',
      name: nameOf(c),
      namespace: ns,
      state: deleting
        ? `Deleting${c.metadata?.finalizers?.length ? `, finalizers: ${c.metadata.finalizers.join(', ')}` : ''}`
        : phase,
      why,
      requires: [],
      ...(refused ? { refused } : {}),
    });
  }

  for (const p of f.installPlans) {
    const listed = p.spec.clusterServiceVersionNames ?? [];
    const owned = p.metadata?.ownerReferences?.some((o) => o.kind === 'Subscription' && subUids.has(o.uid)) ?? false;
    if (!listed.some((n) => names.has(n)) && !owned) continue;
    const others = listed.filter((n) => !names.has(n));
    const ownerSubs = (p.metadata?.ownerReferences ?? []).filter((o) => o.kind === 'Subscription').map((o) => o.name);
    const why = [
      `It installed ${listed.join(', ') || 'nothing yet'} (${p.status?.phase || 'no phase yet'}). Kubernetes removes an InstallPlan only once every Subscription that owns it is gone${ownerSubs.length ? ` (${ownerSubs.join(', ')})` : ''}.`,
    ];
    const id = partId('InstallPlan', nameOf(p));
    const refused = others.length
      ? `it also installs ${others.join(', ')}, another operator in ${ns}: it stays`
      : deny(id);
    parts.push({
      id,
      kind: 'InstallPlan',
      name: nameOf(p),
      namespace: ns,
      state: p.status?.phase || 'no phase yet',
      why,
      requires: [],
      ...(refused ? { refused } : {}),
    });
  }

  // Other operators in the namespace: a CSV or Subscription that is not this one's.
  const otherCsvs = f.csvs.filter((c) => !names.has(nameOf(c)) && !isCopiedCsv(c)).map(nameOf);
  const otherSubs = f.subscriptions.filter((s) => !subs.includes(s)).map(nameOf);
  for (const g of f.operatorGroups) {
    if (g.metadata?.labels?.[CREATED_BY_LABEL] !== 'olm-console') continue;
    const users = [...otherSubs.map((n) => `Subscription ${n}`), ...otherCsvs.map((n) => `CSV ${n}`)];
    const id = partId('OperatorGroup', nameOf(g));
    const refused = users.length ? `other operators in ${ns} use it (${users.join(', ')})` : deny(id);
    parts.push({
      id,
      kind: 'OperatorGroup',
      name: nameOf(g),
      namespace: ns,
      state: g.spec?.targetNamespaces?.length ? `targets ${g.spec.targetNamespaces.join(', ')}` : 'all namespaces',
      why: ['The console created it for this operator; OLM never deletes OperatorGroups.'],
      requires: [],
      ...(refused ? { refused } : {}),
    });
  }

  const ours = { namespace: ns, names };
  for (const c of f.crds) parts.push(...crdParts(c, f, ours, present, deny));

  const empty = parts.length === 0;
  if (empty) notes.push(`Nothing of this operator is left in ${ns}.`);
  const csvForName = csvs.find((c) => !c.metadata?.deletionTimestamp) ?? csvs[0];
  const displayName =
    (csvForName?.spec?.displayName as string | undefined) ??
    subs[0]?.spec.name ??
    f.anchor.csv ??
    f.anchor.subscription ??
    '';
  return {
    namespace: ns,
    ...(subs[0] ? { package: subs[0].spec.name } : {}),
    displayName,
    csvNames: [...names].sort(),
    parts,
    empty,
    notes,
  };
}

/** Who else (outside this operator's CSVs) owns or requires the CRD, in words; or why it cannot be told. */
function otherUsers(crd: string, f: LeftoverFacts, ours: { namespace: string; names: Set<string> }): string[] | string {
  if (typeof f.clusterCsvs === 'string') return f.clusterCsvs;
  return crdsInUse([crd], f.clusterCsvs, { namespace: '', name: '' })
    .filter((u) => !(u.namespace === ours.namespace && ours.names.has(u.csv)))
    .map((u) => `${u.namespace}/${u.csv} ${u.relation} it`);
}

/** Whether a CSV that owns the CRD still runs (outside those being deleted), i.e. its finalizers still have a controller. */
function runningOwners(crd: string, f: LeftoverFacts): string[] | string {
  if (typeof f.clusterCsvs === 'string') return f.clusterCsvs;
  return f.clusterCsvs
    .filter((c) => !isCopiedCsv(c) && !c.metadata?.deletionTimestamp && ownedCrds(c).some((d) => d.name === crd))
    .map((c) => `${c.metadata?.namespace ?? ''}/${nameOf(c)}`);
}

function crdParts(
  c: CrdFacts,
  f: LeftoverFacts,
  ours: { namespace: string; names: Set<string> },
  present: Set<string>,
  deny: (id: string) => string | undefined,
): LeftoverPart[] {
  if (!c.crd) return [];
  const out: LeftoverPart[] = [];
  const crdId = partId('CustomResourceDefinition', c.name);
  const instId = partId('Instances', c.name);
  const finId = partId('Finalizers', c.name);
  const api: ResourceType = {
    group: c.crd.group,
    version: c.crd.version,
    plural: c.crd.plural,
    namespaced: c.crd.namespaced,
    kind: c.crd.kind,
  };
  const users = otherUsers(c.name, f, ours);
  const inUse =
    typeof users === 'string'
      ? `it cannot be checked that no other operator uses it: ${users}`
      : users.length
        ? `another operator uses it: ${users.join('; ')}`
        : undefined;
  const listed = typeof c.instances === 'string' ? undefined : c.instances;
  const items: InstanceRef[] = [...(listed ?? [])]
    .sort(
      (a, b) =>
        (a.metadata?.namespace ?? '').localeCompare(b.metadata?.namespace ?? '') ||
        (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
    )
    .map((o) => ({
      ...(o.metadata?.namespace ? { namespace: o.metadata.namespace } : {}),
      name: o.metadata?.name ?? '',
      ...(o.metadata?.deletionTimestamp ? { deletionTimestamp: o.metadata.deletionTimestamp } : {}),
      finalizers: o.metadata?.finalizers ?? [],
    }));
  const byNamespace: Record<string, number> = {};
  for (const i of items) byNamespace[i.namespace ?? ''] = (byNamespace[i.namespace ?? ''] ?? 0) + 1;
  const counts = Object.entries(byNamespace)
    .map(([n, k]) => `${k} in ${n || 'the cluster scope'}`)
    .join(', ');
  const crdWhy = ['OLM never deletes CRDs, so an uninstall leaves them and every instance.'];
  if (c.crd.deletionTimestamp)
    crdWhy.push(
      `It is being deleted${since(c.crd.deletionTimestamp)}: the API server removes it once its instances are gone.`,
    );
  const crdRefused =
    inUse ??
    (typeof c.instances === 'string' ? `its instances cannot all be listed: ${c.instances}` : undefined) ??
    deny(crdId);
  out.push({
    id: crdId,
    kind: 'CustomResourceDefinition',
    name: c.name,
    state: `${c.crd.kind}, ${listed ? plural(items.length, 'instance') : 'instances unknown'}${c.crd.deletionTimestamp ? ', Terminating' : ''}`,
    why: crdWhy,
    requires: items.length ? [instId] : [],
    ...(crdRefused ? { refused: crdRefused } : {}),
  });
  if (typeof c.instances === 'string' || items.length) {
    const instWhy = [
      `Instances of ${c.crd.kind} outlive the operator: only deleting them, or their CRD, removes them.`,
    ];
    const instRefused =
      inUse ??
      (typeof c.instances === 'string' ? `they cannot all be listed: ${c.instances}` : undefined) ??
      deny(instId);
    out.push({
      id: instId,
      kind: 'Instances',
      name: c.name,
      state: `${plural(items.length, 'instance')}${counts ? `: ${counts}` : ''}`,
      why: instWhy,
      requires: [],
      api,
      instances: { total: items.length, byNamespace, items },
      ...(instRefused ? { refused: instRefused } : {}),
    });
  }
  // Finalizers other than the garbage collector's belong to a controller, normally the operator.
  const held = items.filter((i) => i.finalizers.some((x) => !GC_FINALIZERS.includes(x)));
  if (held.length) {
    const owners = runningOwners(c.name, f);
    const stillRunning =
      typeof owners === 'string'
        ? undefined
        : owners.filter(
            (o) => !(o.startsWith(`${ours.namespace}/`) && present.has(o.slice(ours.namespace.length + 1))),
          );
    const ownRunning =
      typeof owners === 'string'
        ? []
        : owners.filter((o) => o.startsWith(`${ours.namespace}/`) && present.has(o.slice(ours.namespace.length + 1)));
    const why = held.map((i) => {
      const fins = i.finalizers.filter((x) => !GC_FINALIZERS.includes(x)).join(', ');
      const where = `${i.namespace ? `${i.namespace}/` : ''}${i.name}`;
      const gone = typeof owners !== 'string' && owners.length === 0;
      return `${where} ${i.deletionTimestamp ? `is being deleted${since(i.deletionTimestamp)} and is held by` : 'carries'} finalizer ${fins}, which the operator removes${gone ? ' — and the operator is gone' : ownRunning.length ? ` — ${ownRunning.join(', ')} still runs and may still remove it` : ''}.`;
    });
    let refused: string | undefined;
    if (typeof owners === 'string')
      refused = `it cannot be told whether the operator that removes them is gone: ${owners}`;
    else if (stillRunning?.length)
      refused = `another operator that owns ${c.name} still runs (${stillRunning.join(', ')}) and removes them`;
    else if (ownRunning.length)
      why.push(
        `Removing them is offered only together with deleting ${ownRunning.map((o) => o.split('/')[1]).join(', ')}: once the operator is gone nothing else will.`,
      );
    refused ??= deny(finId);
    out.push({
      id: finId,
      kind: 'Finalizers',
      name: c.name,
      state: `${plural(held.length, 'instance')} held`,
      why,
      api,
      // Removing a finalizer from an object nobody deletes would leave it in place: its deletion goes first;
      // and while this operator still runs, only with it deleted (its controller must be gone).
      requires: [instId, ...ownRunning.map((o) => partId('ClusterServiceVersion', o.split('/')[1]!))],
      instances: { total: held.length, byNamespace: {}, items: held },
      ...(refused ? { refused } : {}),
    });
  }
  return out;
}
