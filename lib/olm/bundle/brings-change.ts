// What changes between what an installed bundle brings and what its upgrade brings (both from
// brings.ts): the rights its service accounts gain and lose, per scope; CRD versions added and
// removed; webhooks, API services and images added, removed or changed. For a person approving
// an upgrade (a v0 InstallPlan, a v1 version change).
//
// The one change that can stop an upgrade half way is a CRD version dropped while objects may
// still be stored in it. kube-apiserver refuses a CRD update whose spec.versions leaves out a
// version listed in status.storedVersions ("must appear in spec.versions", apiextensions
// validation); the storage version is always in that list, and so is every earlier one until an
// administrator migrates the objects and trims the list. OLM v0 checks the same before it
// updates a CRD ("risk of data loss updating …: new CRD removes version … that is listed as a
// stored version on the existing CRD"), and operator-controller v1.2.0's CRD upgrade-safety
// preflight refuses it ("stored version … removed"). Without the installed CRD's storedVersions,
// only the bundle's own storage version is known to be stored; with them, every listed one is.
import { describeRule, type BringsRule, type PolicyRuleWords, type RuleScope } from './brings-rules';
import type { BringsApiService, BringsCrd, BringsWebhook, BundleBrings } from './brings';

export interface RuleChange {
  scope: RuleScope;
  serviceAccount: string;
  /** The rule with only the verbs gained (in rulesAdded) or lost (in rulesDropped), in words. */
  rule: BringsRule;
}

export interface StoredVersionDropped {
  version: string;
  /** `storage`: the installed bundle stores it; `storedVersions`: the installed CRD lists it. */
  why: 'storage' | 'storedVersions';
}

export interface CrdChange {
  name: string;
  change: 'added' | 'removed' | 'changed';
  versionsAdded: string[];
  versionsRemoved: string[];
  /** The storage version before and after, when it moves. */
  storage?: { from?: string; to?: string };
  /** Versions whose objects may still be stored, dropped by the upgrade: the API server refuses it. */
  storedDropped: StoredVersionDropped[];
}

export interface WebhookChange {
  name: string;
  type: string;
  /** The fields that differ: failurePolicy, sideEffects, timeoutSeconds, rules, conversionCRDs, deployment. */
  fields: string[];
  from: BringsWebhook;
  to: BringsWebhook;
}

export interface BringsChange {
  rulesAdded: RuleChange[];
  rulesDropped: RuleChange[];
  crds: CrdChange[];
  webhooks: { added: BringsWebhook[]; removed: BringsWebhook[]; changed: WebhookChange[] };
  apiServices: { added: BringsApiService[]; removed: BringsApiService[] };
  images: { added: string[]; removed: string[] };
  /** True when any CRD change drops a stored version. */
  dropsStoredVersion: boolean;
  unchanged: boolean;
}

export interface InstalledCrds {
  /** status.storedVersions of the CRDs in the cluster, by CRD name. */
  storedVersions?: ReadonlyMap<string, readonly string[]>;
}

const sorted = (v: readonly string[]) => [...new Set(v)].sort();

/** What a rule applies to, without its verbs: rules naming the same things are one for the change. */
const targetKey = (r: PolicyRuleWords) =>
  JSON.stringify([sorted(r.apiGroups), sorted(r.resources), sorted(r.resourceNames), sorted(r.nonResourceURLs)]);

type Held = Map<string, { rule: PolicyRuleWords; verbs: Set<string> }>;

function held(brings: BundleBrings, scope: RuleScope): Map<string, Held> {
  const out = new Map<string, Held>();
  for (const p of scope === 'clusterWide' ? brings.clusterWide : brings.namespaced) {
    const byTarget = out.get(p.serviceAccount) ?? new Map();
    for (const r of p.rules) {
      const key = targetKey(r);
      const had = byTarget.get(key) ?? { rule: r, verbs: new Set<string>() };
      for (const v of r.verbs) had.verbs.add(v);
      byTarget.set(key, had);
    }
    out.set(p.serviceAccount, byTarget);
  }
  return out;
}

/** Verbs in `b` that `a` does not grant: `*` in `a` grants every verb. */
const missing = (a: Set<string> | undefined, b: Set<string>) => (a?.has('*') ? [] : [...b].filter((v) => !a?.has(v)));

const clusterScopedOf = (b: BundleBrings) =>
  new Set(b.crds.filter((c) => c.scope === 'Cluster' && c.group).map((c) => `${c.group}/${c.name.split('.')[0]}`));

function ruleChanges(gain: BundleBrings, lose: BundleBrings, scope: RuleScope): RuleChange[] {
  const before = held(lose, scope);
  const clusterScoped = clusterScopedOf(gain);
  const out: RuleChange[] = [];
  for (const [serviceAccount, targets] of held(gain, scope)) {
    for (const [key, { rule, verbs }] of targets) {
      const gained = missing(before.get(serviceAccount)?.get(key)?.verbs, verbs);
      if (gained.length)
        out.push({ scope, serviceAccount, rule: describeRule({ ...rule, verbs: gained }, scope, clusterScoped) });
    }
  }
  return out;
}

const storageOf = (c: BringsCrd | undefined) => c?.versions.find((v) => v.storage)?.name;

function crdChanges(from: BundleBrings, to: BundleBrings, installed: InstalledCrds): CrdChange[] {
  const before = new Map(from.crds.map((c) => [c.name, c]));
  const after = new Map(to.crds.map((c) => [c.name, c]));
  const out: CrdChange[] = [];
  for (const name of sorted([...before.keys(), ...after.keys()])) {
    const a = before.get(name);
    const b = after.get(name);
    const va = new Set(a?.versions.map((v) => v.name));
    const vb = new Set(b?.versions.map((v) => v.name));
    const versionsAdded = [...vb].filter((v) => !va.has(v));
    const versionsRemoved = b ? [...va].filter((v) => !vb.has(v)) : [];
    const storage = { from: storageOf(a), to: storageOf(b) };
    const storedDropped: StoredVersionDropped[] = [];
    // A CRD left out of the upgrade stays in the cluster as it is: nothing is dropped from it.
    if (b) {
      const listed = new Set(installed.storedVersions?.get(name) ?? []);
      for (const v of [...listed].filter((v) => !vb.has(v)).sort())
        storedDropped.push({ version: v, why: 'storedVersions' });
      if (storage.from && !vb.has(storage.from) && !listed.has(storage.from))
        storedDropped.push({ version: storage.from, why: 'storage' });
    }
    const moved = Boolean(a && b && storage.from !== storage.to);
    if (!a || !b || versionsAdded.length || versionsRemoved.length || moved || storedDropped.length)
      out.push({
        name,
        change: !a ? 'added' : !b ? 'removed' : 'changed',
        versionsAdded,
        versionsRemoved,
        ...(moved ? { storage } : {}),
        storedDropped,
      });
  }
  return out;
}

const webhookKey = (w: BringsWebhook) => `${w.type}/${w.name}`;

function webhookFields(a: BringsWebhook, b: BringsWebhook): string[] {
  const fields: string[] = [];
  for (const f of ['failurePolicy', 'sideEffects', 'timeoutSeconds', 'deployment'] as const)
    if (a[f] !== b[f]) fields.push(f);
  if (JSON.stringify(a.rules) !== JSON.stringify(b.rules)) fields.push('rules');
  if (JSON.stringify(sorted(a.conversionCRDs)) !== JSON.stringify(sorted(b.conversionCRDs)))
    fields.push('conversionCRDs');
  return fields;
}

/** What changes when the bundle `from` (installed) is replaced by `to`. */
export function bringsChange(from: BundleBrings, to: BundleBrings, installed: InstalledCrds = {}): BringsChange {
  const rulesAdded = [...ruleChanges(to, from, 'clusterWide'), ...ruleChanges(to, from, 'namespaced')];
  const rulesDropped = [...ruleChanges(from, to, 'clusterWide'), ...ruleChanges(from, to, 'namespaced')];
  const crds = crdChanges(from, to, installed);

  const wa = new Map(from.webhooks.map((w) => [webhookKey(w), w]));
  const wb = new Map(to.webhooks.map((w) => [webhookKey(w), w]));
  const changed: WebhookChange[] = [];
  for (const [key, b] of wb) {
    const a = wa.get(key);
    const fields = a ? webhookFields(a, b) : [];
    if (a && fields.length) changed.push({ name: b.name, type: b.type, fields, from: a, to: b });
  }
  const webhooks = {
    added: [...wb].filter(([k]) => !wa.has(k)).map(([, w]) => w),
    removed: [...wa].filter(([k]) => !wb.has(k)).map(([, w]) => w),
    changed,
  };
  const sa = new Set(from.apiServices.map((a) => a.name));
  const sb = new Set(to.apiServices.map((a) => a.name));
  const apiServices = {
    added: to.apiServices.filter((a) => !sa.has(a.name)),
    removed: from.apiServices.filter((a) => !sb.has(a.name)),
  };
  const ia = new Set(from.images.map((i) => i.image));
  const ib = new Set(to.images.map((i) => i.image));
  const images = { added: [...ib].filter((i) => !ia.has(i)), removed: [...ia].filter((i) => !ib.has(i)) };

  const unchanged =
    !rulesAdded.length &&
    !rulesDropped.length &&
    !crds.length &&
    !webhooks.added.length &&
    !webhooks.removed.length &&
    !changed.length &&
    !apiServices.added.length &&
    !apiServices.removed.length &&
    !images.added.length &&
    !images.removed.length;
  return {
    rulesAdded,
    rulesDropped,
    crds,
    webhooks,
    apiServices,
    images,
    dropsStoredVersion: crds.some((c) => c.storedDropped.length > 0),
    unchanged,
  };
}
