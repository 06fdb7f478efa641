// OLM as a person or the console reads it: scripted scenarios run the same way on the sandbox and
// on real OLM (scripts/cluster.ts), each in a namespace of its own, against the generated catalog
// (conformance/main.ts). Each returns the objects a person reads once the scenario has settled:
// Subscription status and conditions, InstallPlans with their steps, CSV phase, reason, message,
// conditions and requirement status, OperatorGroup status, PackageManifests, Events.
import { DENIED_ANNOTATION } from '../../lib/server/day-two';
import type { Check } from '../run-checks';
import { call, type Target } from '../target';

const CATALOG = 'generated';
const CATALOG_NS = 'olm';
type Obj = { metadata: { name: string; namespace?: string; annotations?: Record<string, string>; labels?: Record<string, string>; creationTimestamp?: string; ownerReferences?: unknown[] }; spec?: Record<string, unknown>; status?: Record<string, unknown> } & Record<string, unknown>;

async function must(t: Target, method: string, path: string, body?: unknown): Promise<Obj> {
  const r = await call(t, { method, path, body, ...(method === 'PATCH' ? { contentType: 'application/merge-patch+json' } : {}) });
  if (r.status >= 300) throw new Error(`${t.name}: ${method} ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body as Obj;
}

async function list(t: Target, path: string): Promise<Obj[]> {
  return ((await must(t, 'GET', path)) as unknown as { items: Obj[] }).items.sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') || a.metadata.name.localeCompare(b.metadata.name));
}

/** Polls until `probe` answers something, or fails after `ms` with what it last saw. */
async function until<T>(t: Target, what: string, probe: () => Promise<T | undefined>, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${t.name}: timed out after ${ms / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Whether the catalog operator has caught up with the namespace: a Subscription whose current CSV
 * exists is AtLatestKnown (ensureSubscriptionCSVState), and its catalog health has been written
 * with a reason that no longer only names the last change (subscription/state.go). Under load real OLM gets there
 * seconds after the CSVs stop changing.
 */
function caughtUp(subs: Obj[], csvs: Obj[]): boolean {
  const transient = new Set(['CatalogSourcesAdded', 'CatalogSourcesUpdated', 'CatalogSourcesDeleted']);
  return subs.every((s) => {
    const st = (s.status ?? {}) as { currentCSV?: string; state?: string; conditions?: { type: string; reason?: string }[] };
    const health = st.conditions?.find((c) => c.type === 'CatalogSourcesUnhealthy');
    if (!health || transient.has(health.reason ?? '')) return false;
    return !st.currentCSV || !csvs.some((c) => c.metadata.name === st.currentCSV) || st.state === 'AtLatestKnown';
  });
}

/** Waits until nothing a person reads in the namespace changes for `quietMs` and OLM has caught up. */
async function settled(t: Target, ns: string, quietMs = 6_000): Promise<void> {
  let last = '';
  let since = Date.now();
  const deadline = Date.now() + 120_000;
  for (;;) {
    const [subs, plans, csvs] = await Promise.all(['subscriptions', 'installplans', 'clusterserviceversions'].map((r) => list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/${r}`)));
    const now = JSON.stringify([subs!, plans!, csvs!].map((items) => items.map((i) => [i.metadata.name, i.status])));
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs && caughtUp(subs!, csvs!)) return;
    if (Date.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function namespace(t: Target, name: string): Promise<void> {
  const r = await call(t, { method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
  if (r.status !== 201) throw new Error(`${t.name}: creating namespace ${name}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)} (a namespace left by an earlier run?)`);
}

async function operatorGroup(t: Target, ns: string, name: string, spec: Record<string, unknown>): Promise<void> {
  await must(t, 'POST', `/apis/operators.coreos.com/v1/namespaces/${ns}/operatorgroups`, { apiVersion: 'operators.coreos.com/v1', kind: 'OperatorGroup', metadata: { name }, spec });
}

async function subscribe(t: Target, ns: string, name: string, spec: Record<string, unknown>): Promise<void> {
  await must(t, 'POST', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions`, { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'Subscription', metadata: { name }, spec: { source: CATALOG, sourceNamespace: CATALOG_NS, ...spec } });
}

const conditions = (o: Obj | undefined) => ((o?.status?.conditions ?? []) as { type: string; status: string; reason?: string; message?: string }[]).map((c) => ({ type: c.type, status: c.status, reason: c.reason ?? '', message: c.message ?? '' })).sort((a, b) => a.type.localeCompare(b.type));

/** What a person reads of a Subscription. */
function subscriptionView(s: Obj) {
  const st = (s.status ?? {}) as Record<string, unknown>;
  return {
    name: s.metadata.name,
    state: st.state ?? '',
    currentCSV: st.currentCSV ?? '',
    installedCSV: st.installedCSV ?? '',
    installPlanGeneration: st.installPlanGeneration,
    installPlanRef: st.installPlanRef ? { kind: (st.installPlanRef as Obj).kind, apiVersion: (st.installPlanRef as Obj).apiVersion } : undefined,
    // Only the generated catalog is a CatalogSource on both clusters (the sandbox also has one for
    // each catalog the registry checks read): health of the others is not comparable.
    catalogHealth: ((st.catalogHealth ?? []) as { catalogSourceRef: { name: string; namespace: string }; healthy: boolean }[]).filter((h) => h.catalogSourceRef.name === CATALOG).map((h) => ({ source: `${h.catalogSourceRef.namespace}/${h.catalogSourceRef.name}`, healthy: h.healthy })),
    conditions: conditions(s),
    labels: s.metadata.labels ?? {},
  };
}

/**
 * Created and Present both say the object is there. Which one real OLM writes depends on timing
 * it does not control: a CRD another namespace's plan created a moment earlier is Present, and a
 * plan executed again after a conflicting status write finds every object Present.
 */
const stepStatus = (s: string) => (s === 'Created' || s === 'Present' ? 'Created or Present' : s);

/** What a person reads of an InstallPlan (its generated name replaced by its order). */
function planView(p: Obj, i: number) {
  const st = (p.status ?? {}) as Record<string, unknown>;
  return {
    plan: i,
    approval: p.spec?.approval,
    approved: p.spec?.approved,
    // A set: real OLM's order varies from run to run.
    clusterServiceVersionNames: [...((p.spec?.clusterServiceVersionNames as string[] | undefined) ?? [])].sort(),
    generation: p.spec?.generation,
    phase: st.phase ?? '',
    conditions: conditions(p).map((c) => ({ type: c.type, status: c.status, reason: c.reason, message: c.message })),
    steps: ((st.plan ?? []) as { resolving: string; status: string; resource: { group: string; version: string; kind: string; name: string; sourceName: string; sourceNamespace: string } }[])
      .map((s) => ({ resolving: s.resolving, status: stepStatus(s.status), kind: s.resource.kind, group: s.resource.group, version: s.resource.version, name: s.resource.name, source: `${s.resource.sourceNamespace}/${s.resource.sourceName}` }))
      .sort((a, b) => `${a.kind}/${a.name}`.localeCompare(`${b.kind}/${b.name}`)),
    bundleLookups: ((st.bundleLookups ?? []) as unknown[]).length,
    owners: (p.metadata.ownerReferences ?? []).length,
  };
}

/** What a person reads of a CSV. */
function csvView(c: Obj) {
  const st = (c.status ?? {}) as Record<string, unknown>;
  const a = c.metadata.annotations ?? {};
  return {
    name: c.metadata.name,
    phase: st.phase ?? '',
    reason: st.reason ?? '',
    message: st.message ?? '',
    // Whether OLM sees a Deployment not yet available (InstallWaiting) depends on how fast the
    // node runs its pod: left out of the history on both.
    history: ((st.conditions ?? []) as { phase: string; reason: string }[]).map((x) => `${x.phase}/${x.reason}`).filter((h) => h !== 'Installing/InstallWaiting'),
    requirementStatus: ((st.requirementStatus ?? []) as { group: string; version: string; kind: string; name: string; status: string; message: string }[]).map((r) => ({ kind: r.kind, group: r.group, version: r.version, name: r.name, status: r.status, message: r.message })).sort((x, y) => `${x.kind}/${x.name}`.localeCompare(`${y.kind}/${y.name}`)),
    annotations: Object.fromEntries(['olm.operatorGroup', 'olm.operatorNamespace', 'olm.targetNamespaces', 'olm.providedAPIs'].filter((k) => k in a).map((k) => [k, a[k]])),
    copied: c.metadata.labels?.['olm.copiedFrom'] ?? '',
  };
}

/**
 * What a person reads in a namespace. Copied CSVs are left out unless asked for: the
 * AllNamespaces scenario copies its CSV into every namespace, the other scenarios' too.
 */
async function readNamespace(t: Target, ns: string, withCopies = false) {
  const base = `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}`;
  const [subs, plans, csvs, groups] = await Promise.all([list(t, `${base}/subscriptions`), list(t, `${base}/installplans`), list(t, `${base}/clusterserviceversions`), list(t, `/apis/operators.coreos.com/v1/namespaces/${ns}/operatorgroups`)]);
  return {
    // By name: a dependency's Subscription is made when its plan runs, a moment that varies.
    subscriptions: subs.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name)).map(subscriptionView),
    // In the order OLM made them (two plans can share a creation second, and their names are random).
    installPlans: plans.sort((a, b) => ((a.spec?.generation as number) ?? 0) - ((b.spec?.generation as number) ?? 0)).map(planView),
    csvs: csvs.filter((c) => withCopies || !c.metadata.labels?.['olm.copiedFrom']).map(csvView),
    // A set: real OLM writes the target namespaces in no fixed order.
    operatorGroups: groups.map((g) => ({ name: g.metadata.name, namespaces: (g.status?.namespaces as string[] | undefined)?.slice().sort(), annotations: Object.fromEntries(Object.entries(g.metadata.annotations ?? {}).filter(([k]) => k.startsWith('olm.'))) })),
  };
}

/**
 * What a person reads in a namespace whose OperatorGroup names a service account: besides the
 * usual, the group's account and conditions, and each plan's message and account.
 */
async function readScoped(t: Target, ns: string) {
  const read = await readNamespace(t, ns);
  const plans = (await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`)).sort((a, b) => ((a.spec?.generation as number) ?? 0) - ((b.spec?.generation as number) ?? 0));
  const groups = await list(t, `/apis/operators.coreos.com/v1/namespaces/${ns}/operatorgroups`);
  const account = (ref: unknown) => (ref ? { kind: (ref as Obj).kind, name: (ref as Obj).name, namespace: (ref as Obj).namespace } : undefined);
  return {
    ...read,
    installPlans: read.installPlans.map((p, i) => ({ ...p, message: plans[i]?.status?.message ?? '', attenuatedServiceAccountRef: account(plans[i]?.status?.attenuatedServiceAccountRef) })),
    operatorGroups: read.operatorGroups.map((g, i) => ({ ...g, serviceAccountName: groups[i]?.spec?.serviceAccountName, serviceAccountRef: account(groups[i]?.status?.serviceAccountRef), conditions: conditions(groups[i]) })),
  };
}

const csvPhase = (t: Target, ns: string, name: string, phase: string, reason?: string) => () =>
  call(t, { path: `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/clusterserviceversions/${name}` }).then((r) => (r.status === 200 && (r.body as Obj).status?.phase === phase && (!reason || (r.body as Obj).status?.reason === reason) ? true : undefined));

const csvGone = (t: Target, ns: string, name: string) => () =>
  call(t, { path: `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/clusterserviceversions/${name}` }).then((r) => (r.status === 404 ? true : undefined));

const planWaiting = (t: Target, ns: string, csv: string) => async () =>
  (await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`)).find((p) => p.status?.phase === 'RequiresApproval' && (p.spec?.clusterServiceVersionNames as string[] | undefined)?.includes(csv));

const approve = (t: Target, ns: string, plan: Obj) => must(t, 'PATCH', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans/${plan.metadata.name}`, { spec: { approved: true } });

/** The Subscription's conditions, once one of `type` is there. */
const subscriptionCondition = (t: Target, ns: string, name: string, type: string) => async () =>
  ((await must(t, 'GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/${name}`)).status?.conditions as { type: string }[] | undefined)?.some((c) => c.type === type) || undefined;

/** The Subscription has been seen by the catalog operator: it carries its catalogs' health. */
const subscriptionSynced = (t: Target, ns: string, name: string) => () =>
  call(t, { path: `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/${name}` }).then((r) => (r.status === 200 && (r.body as Obj).status?.catalogHealth ? true : undefined));

export const olmChecks: Check[] = [
  {
    id: 'olm/packagemanifest of a generated package',
    independent: true,
    run: async (t) => {
      const pm = await must(t, 'GET', `/apis/packages.operators.coreos.com/v1/namespaces/${CATALOG_NS}/packagemanifests/alpha`);
      return { metadata: { name: pm.metadata.name, namespace: pm.metadata.namespace, labels: pm.metadata.labels }, spec: pm.spec, status: pm.status };
    },
    normalise: { dropKeys: ['icon'] },
  },
  {
    id: 'olm/automatic install in an OwnNamespace group',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-auto';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable', installPlanApproval: 'Automatic' });
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      return readNamespace(t, ns);
    },
  },
  {
    id: 'olm/startingCSV walked to the head, one InstallPlan per hop',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-walk';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable', installPlanApproval: 'Automatic', startingCSV: 'alpha.v1.0.0' });
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'), 240_000);
      await settled(t, ns);
      return readNamespace(t, ns);
    },
  },
  {
    id: 'olm/manual approval: plan waits, approved plan installs',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-manual';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable', installPlanApproval: 'Manual' });
      const plan = await until(t, 'an InstallPlan to require approval', async () => (await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`)).find((p) => p.status?.phase === 'RequiresApproval'));
      await settled(t, ns);
      const waiting = await readNamespace(t, ns);
      await must(t, 'PATCH', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans/${plan.metadata.name}`, { spec: { approved: true } });
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      return { waiting, approved: await readNamespace(t, ns) };
    },
  },
  {
    id: 'olm/a Manual plan denied as the console denies it, then a later plan approved',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-deny';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable', installPlanApproval: 'Manual', startingCSV: 'alpha.v1.0.0' });
      const first = await until(t, 'the first plan', planWaiting(t, ns, 'alpha.v1.0.0'));
      // OLM has no "deny": the console leaves the plan unapproved and notes who declined it.
      await must(t, 'PATCH', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans/${first.metadata.name}`, { metadata: { annotations: { [DENIED_ANNOTATION]: JSON.stringify({ by: 'conformance' }) } } });
      await settled(t, ns);
      const denied = await readNamespace(t, ns);
      await approve(t, ns, first);
      await until(t, 'alpha.v1.0.0 to succeed', csvPhase(t, ns, 'alpha.v1.0.0', 'Succeeded'));
      await until(t, 'the upgrade plan', planWaiting(t, ns, 'alpha.v2.0.0'));
      await settled(t, ns);
      return { denied, approvedLater: await readNamespace(t, ns) };
    },
  },
  {
    id: 'olm/subscription to a package the catalog lacks',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-nopkg';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'nope', { name: 'no-such-package', channel: 'stable' });
      await until(t, 'a ResolutionFailed condition', async () => ((await must(t, 'GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/nope`)).status?.conditions as { type: string }[] | undefined)?.some((c) => c.type === 'ResolutionFailed') || undefined);
      await settled(t, ns);
      return readNamespace(t, ns);
    },
  },
  {
    id: 'olm/no OperatorGroup, then one',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-noog';
      await namespace(t, ns);
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable' });
      await until(t, 'the Subscription to be synced', subscriptionSynced(t, ns, 'alpha'));
      await settled(t, ns);
      const without = await readNamespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      return { without, with: await readNamespace(t, ns) };
    },
  },
  {
    id: 'olm/two OperatorGroups in one namespace',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-twoog';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og-a', { targetNamespaces: [ns] });
      await operatorGroup(t, ns, 'og-b', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable' });
      await until(t, 'the Subscription to be synced', subscriptionSynced(t, ns, 'alpha'));
      await settled(t, ns);
      const two = await readNamespace(t, ns);
      await must(t, 'DELETE', `/apis/operators.coreos.com/v1/namespaces/${ns}/operatorgroups/og-b`);
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      const one = await readNamespace(t, ns);
      await operatorGroup(t, ns, 'og-b', { targetNamespaces: [ns] });
      await until(t, 'alpha.v2.0.0 to fail', csvPhase(t, ns, 'alpha.v2.0.0', 'Failed'));
      await settled(t, ns);
      return { two, one, twoAgain: await readNamespace(t, ns) };
    },
  },
  {
    id: 'olm/dependency installed with its dependant',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-deps';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'beta', { name: 'beta', channel: 'fast', startingCSV: 'beta.v0.1.0', installPlanApproval: 'Manual' });
      await until(t, 'an InstallPlan', async () => ((await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`)).find((p) => p.status?.phase === 'RequiresApproval') ? true : undefined));
      await settled(t, ns);
      return readNamespace(t, ns);
    },
  },
  {
    id: 'olm/one Manual InstallPlan shared by two Subscriptions',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-shared';
      await namespace(t, ns);
      // Both Subscriptions exist before the OperatorGroup, so one resolution sees both.
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable', installPlanApproval: 'Manual' });
      await subscribe(t, ns, 'beta', { name: 'beta', channel: 'fast', installPlanApproval: 'Automatic' });
      await until(t, 'the Subscriptions to be synced', async () => (await subscriptionSynced(t, ns, 'alpha')()) && (await subscriptionSynced(t, ns, 'beta')()));
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      const plan = await until(t, 'a plan waiting for approval', planWaiting(t, ns, 'alpha.v2.0.0'));
      await settled(t, ns);
      const waiting = await readNamespace(t, ns);
      await approve(t, ns, plan);
      await until(t, 'both CSVs to succeed', async () => (await csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded')()) && (await csvPhase(t, ns, 'beta.v0.2.0', 'Succeeded')()));
      await settled(t, ns);
      return { waiting, approved: await readNamespace(t, ns) };
    },
  },
  {
    id: 'olm/channel change upgrades along the new channel',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-channel';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable' });
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      await must(t, 'PATCH', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/alpha`, { spec: { channel: 'fast' } });
      await until(t, 'alpha.v2.1.0 to succeed', csvPhase(t, ns, 'alpha.v2.1.0', 'Succeeded'));
      await until(t, 'alpha.v2.0.0 to go', csvGone(t, ns, 'alpha.v2.0.0'));
      await settled(t, ns);
      return readNamespace(t, ns);
    },
  },
  {
    id: 'olm/subscription to a channel or a catalog that does not exist',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-nochannel';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'nochannel', { name: 'alpha', channel: 'no-such-channel' });
      await must(t, 'POST', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions`, { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'Subscription', metadata: { name: 'nocatalog' }, spec: { name: 'alpha', channel: 'stable', source: 'no-such-catalog', sourceNamespace: CATALOG_NS } });
      await until(t, 'ResolutionFailed on both', async () => (await subscriptionCondition(t, ns, 'nochannel', 'ResolutionFailed')()) && (await subscriptionCondition(t, ns, 'nocatalog', 'ResolutionFailed')()));
      await settled(t, ns);
      // One resolution for the namespace: every Subscription gets the same failure, naming one of
      // the two; which one real OLM's solver names varies from run to run.
      const read = await readNamespace(t, ns);
      const messages = read.subscriptions.map((x) => x.conditions.find((c) => c.type === 'ResolutionFailed')?.message ?? '');
      return {
        ...read,
        subscriptions: read.subscriptions.map((x) => ({ ...x, conditions: x.conditions.map((c) => (c.type === 'ResolutionFailed' ? { ...c, message: '<one failure>' } : c)) })),
        failure: { sameForEvery: new Set(messages).size === 1, namesOne: messages.every((m) => /^constraints not satisfiable: no operators found .*, subscription (nocatalog|nochannel) exists$/.test(m)) },
      };
    },
  },
  {
    id: 'olm/catalog unhealthy, then healthy',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-unhealthy';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      // A catalog of the namespace's own, at an address nothing answers on.
      await must(t, 'POST', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/catalogsources`, { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'CatalogSource', metadata: { name: 'local' }, spec: { sourceType: 'grpc', address: '127.0.0.1:1', displayName: 'local' } });
      await must(t, 'POST', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions`, { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'Subscription', metadata: { name: 'alpha' }, spec: { name: 'alpha', channel: 'stable', source: 'local', sourceNamespace: ns } });
      await until(t, 'ResolutionFailed', subscriptionCondition(t, ns, 'alpha', 'ResolutionFailed'));
      await settled(t, ns);
      // The generated catalog's address: on the real cluster that of the copy with inline bundles
      // (the one served as it is would need unpack Jobs), which no registry replacement names.
      const generated = ((await must(t, 'GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${CATALOG_NS}/catalogsources/${CATALOG}`)).status?.connectionState as { address: string }).address;
      const view = (n: Awaited<ReturnType<typeof readNamespace>>, cs: Obj) => {
        const address = (cs.status?.connectionState as { address?: string } | undefined)?.address;
        return { ...n, subscriptions: n.subscriptions.map((x) => ({ ...x, catalogHealth: undefined })), catalogSource: { state: (cs.status?.connectionState as { lastObservedState?: string } | undefined)?.lastObservedState, address: address === generated ? '<the generated catalog>' : address } };
      };
      const unhealthy = view(await readNamespace(t, ns), await must(t, 'GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/catalogsources/local`));
      await must(t, 'PATCH', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/catalogsources/local`, { spec: { address: generated } });
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      return { unhealthy, healthy: view(await readNamespace(t, ns), await must(t, 'GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/catalogsources/local`)) };
    },
  },
  {
    id: 'olm/install mode the OperatorGroup does not allow, then fixed',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-mode';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'delta', { name: 'delta', channel: 'stable' });
      await until(t, 'delta.v1.0.0 to fail', csvPhase(t, ns, 'delta.v1.0.0', 'Failed', 'UnsupportedOperatorGroup'));
      await settled(t, ns);
      const unsupported = await readNamespace(t, ns);
      // Two other namespaces make the group MultiNamespace without its own, which delta supports
      // (OLM's InstallModeSet.Supports wants OwnNamespace for a list that names its own).
      await must(t, 'PATCH', `/apis/operators.coreos.com/v1/namespaces/${ns}/operatorgroups/og`, { spec: { targetNamespaces: ['default', 'kube-public'] } });
      await until(t, 'delta.v1.0.0 to succeed', csvPhase(t, ns, 'delta.v1.0.0', 'Succeeded'));
      await settled(t, ns);
      return { unsupported, fixed: await readNamespace(t, ns) };
    },
  },
  {
    id: 'olm/OperatorCondition Upgradeable=False holds an upgrade',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-held';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable', installPlanApproval: 'Manual', startingCSV: 'alpha.v1.0.0' });
      await approve(t, ns, await until(t, 'the first plan', planWaiting(t, ns, 'alpha.v1.0.0')));
      await until(t, 'alpha.v1.0.0 to succeed', csvPhase(t, ns, 'alpha.v1.0.0', 'Succeeded'));
      const ocPath = `/apis/operators.coreos.com/v2/namespaces/${ns}/operatorconditions/alpha.v1.0.0`;
      await until(t, 'its OperatorCondition', async () => ((await call(t, { path: ocPath })).status === 200 ? true : undefined));
      await must(t, 'PATCH', ocPath, { spec: { conditions: [{ type: 'Upgradeable', status: 'False', reason: 'Migrating', message: 'a migration is running', lastTransitionTime: '2026-01-01T00:00:00Z' }] } });
      const next = await until(t, 'the upgrade plan', planWaiting(t, ns, 'alpha.v2.0.0'));
      await approve(t, ns, next);
      await until(t, 'alpha.v2.0.0 to be held', csvPhase(t, ns, 'alpha.v2.0.0', 'Pending'));
      await settled(t, ns);
      // Both CSVs exist: OLM's solver says they cannot both stay, naming either the API they both
      // provide or the package they both come from; which one varies from run to run.
      const sameThing = (r: Awaited<ReturnType<typeof readNamespace>>) => ({ ...r, subscriptions: r.subscriptions.map((x) => ({ ...x, conditions: x.conditions.map((c) => ({ ...c, message: c.message.replace(/ (provide [^,]+|originate from package [^,]+),/, ' <provide one API or come from one package>,') })) })) });
      const held = sameThing(await readNamespace(t, ns));
      await must(t, 'PATCH', ocPath, { spec: { conditions: [{ type: 'Upgradeable', status: 'True', reason: 'Done', message: 'the migration is done', lastTransitionTime: '2026-01-01T00:01:00Z' }] } });
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      return { held, released: sameThing(await readNamespace(t, ns)) };
    },
  },
  {
    id: 'olm/CSV deleted under its Subscription, then uninstall leaves the CRD',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-deleted';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'beta', { name: 'beta', channel: 'fast', startingCSV: 'beta.v0.2.0' });
      await until(t, 'beta.v0.2.0 to succeed', csvPhase(t, ns, 'beta.v0.2.0', 'Succeeded'));
      await settled(t, ns);
      await must(t, 'DELETE', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/clusterserviceversions/beta.v0.2.0`);
      await until(t, 'the CSV to go', csvGone(t, ns, 'beta.v0.2.0'));
      await settled(t, ns);
      const deleted = await readNamespace(t, ns);
      for (const s of await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions`)) await must(t, 'DELETE', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/${s.metadata.name}`);
      for (const c of await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/clusterserviceversions`)) await must(t, 'DELETE', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/clusterserviceversions/${c.metadata.name}`);
      await settled(t, ns);
      const crd = await call(t, { path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/betas.beta.example.com' });
      return { deleted, uninstalled: await readNamespace(t, ns), crdKept: crd.status };
    },
  },
  {
    id: 'olm/Subscription deleted and made again while its CSV stays',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-recreate';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable', installPlanApproval: 'Automatic' });
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      await must(t, 'DELETE', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/alpha`);
      await until(t, 'the Subscription to go', () => call(t, { path: `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/alpha` }).then((r) => (r.status === 404 ? true : undefined)));
      // Its InstallPlan goes with it, when the garbage collector gets to it (at once in the sandbox).
      await until(t, 'its InstallPlan collected', async () => ((await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`)).length === 0 ? true : undefined), 60_000);
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable', installPlanApproval: 'Automatic' });
      await until(t, 'the new Subscription resolved or refused', async () => ((await subscriptionCondition(t, ns, 'alpha', 'ResolutionFailed')()) || (await must(t, 'GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/alpha`)).status?.installedCSV ? true : undefined));
      await settled(t, ns);
      const read = await readNamespace(t, ns);
      // Real OLM's solver lists the clauses of a conflict, and the candidates in them, in an order
      // that changes from run to run: what is said is compared, not in which order.
      const said = (m: string) => (m.startsWith('constraints not satisfiable: ') ? m.split(/[\s,]+/).filter((w) => w !== 'and' && w !== 'or').sort().join(' ') : m);
      return { ...read, subscriptions: read.subscriptions.map((sub) => ({ ...sub, conditions: sub.conditions.map((c) => ({ ...c, message: said(c.message) })) })) };
    },
  },
  {
    id: 'olm/scoped OperatorGroup naming a service account that does not exist',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-scoped-missing';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns], serviceAccountName: 'installer' });
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable' });
      await until(t, 'the plan to say why it waits', async () => ((await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`)).some((p) => (p.status?.conditions as { reason?: string }[] | undefined)?.some((c) => c.reason === 'InstallCheckFailed')) ? true : undefined));
      await until(t, 'the group to say so', async () => (((await must(t, 'GET', `/apis/operators.coreos.com/v1/namespaces/${ns}/operatorgroups/og`)).status?.conditions as unknown[] | undefined)?.length ? true : undefined));
      // Real OLM retries both (rewriting their times) with a growing backoff; what they say stays.
      await settled(t, ns);
      return readScoped(t, ns);
    },
  },
  {
    id: 'olm/scoped OperatorGroup whose service account has no rights, then granted',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-scoped';
      await namespace(t, ns);
      // The account first, then the group that names it (as OLM's docs do it).
      await must(t, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'installer' } });
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns], serviceAccountName: 'installer' });
      await subscribe(t, ns, 'alpha', { name: 'alpha', channel: 'stable' });
      await until(t, 'the plan to be refused', async () => ((await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`)).some((p) => /forbidden/.test((p.status?.message as string | undefined) ?? '')) ? true : undefined));
      await settled(t, ns);
      const refused = await readScoped(t, ns);
      // OLM's docs: a Role granting everything in the namespace, bound to the account.
      await must(t, 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'scoped' }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] });
      await must(t, 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'scoped-bindings' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'scoped' }, subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: ns }] });
      await until(t, 'alpha.v2.0.0 to succeed', csvPhase(t, ns, 'alpha.v2.0.0', 'Succeeded'));
      await settled(t, ns);
      return { refused, granted: await readScoped(t, ns) };
    },
  },
  {
    id: 'olm/AllNamespaces: copied into every namespace, disableCopiedCSVs on and off',
    run: async (t) => {
      const ns = 'operators';
      await subscribe(t, ns, 'gamma', { name: 'gamma', channel: 'stable' });
      await until(t, 'gamma.v1.0.0 to succeed', csvPhase(t, ns, 'gamma.v1.0.0', 'Succeeded'));
      const later = 'conf-olm-later';
      await namespace(t, later);
      await until(t, 'a copy in a namespace made later', csvPhase(t, later, 'gamma.v1.0.0', 'Succeeded', 'Copied'));
      await settled(t, later);
      const copied = (await readNamespace(t, later, true)).csvs;
      const olmConfig = async () => {
        const c = await must(t, 'GET', '/apis/operators.coreos.com/v1/olmconfigs/cluster');
        return { spec: c.spec, conditions: ((c.status?.conditions ?? []) as { type: string; status: string; reason: string; message: string }[]).map((x) => ({ type: x.type, status: x.status, reason: x.reason, message: x.message })) };
      };
      await must(t, 'PATCH', '/apis/operators.coreos.com/v1/olmconfigs/cluster', { spec: { features: { disableCopiedCSVs: true } } });
      await until(t, 'the copy to go', csvGone(t, later, 'gamma.v1.0.0'));
      await until(t, 'DisabledCopiedCSVs', async () => ((await olmConfig()).conditions.some((c) => c.type === 'DisabledCopiedCSVs' && c.status === 'True') ? true : undefined));
      const disabledEvents = async () => (await list(t, `/api/v1/namespaces/${ns}/events`)).filter((e) => e.reason === 'DisabledCopiedCSVs' && (e.involvedObject as { name?: string } | undefined)?.name === 'gamma.v1.0.0').map((e) => ({ type: e.type, message: e.message }));
      await until(t, 'a DisabledCopiedCSVs event', async () => ((await disabledEvents()).length ? true : undefined)).catch(() => undefined);
      const disabled = { olmConfig: await olmConfig(), csvs: (await readNamespace(t, later, true)).csvs, events: await disabledEvents() };
      await must(t, 'PATCH', '/apis/operators.coreos.com/v1/olmconfigs/cluster', { spec: { features: { disableCopiedCSVs: false } } });
      await until(t, 'the copy back', csvPhase(t, later, 'gamma.v1.0.0', 'Succeeded', 'Copied'));
      await until(t, 'DisabledCopiedCSVs False', async () => ((await olmConfig()).conditions.some((c) => c.type === 'DisabledCopiedCSVs' && c.status === 'False') ? true : undefined));
      // Copies come back namespace by namespace; the condition says so once they all have.
      await until(t, 'every copy back', async () => ((await olmConfig()).conditions.some((c) => c.type === 'DisabledCopiedCSVs' && /present across the cluster/.test(c.message)) ? true : undefined), 60_000).catch(() => undefined);
      const events = (await list(t, `/api/v1/namespaces/${ns}/events`)).filter((e) => (e.involvedObject as { name?: string } | undefined)?.name === 'gamma.v1.0.0').map((e) => ({ reason: e.reason, type: e.type })).filter((e) => e.reason !== 'InstallWaiting');
      return { copied, disabled, enabled: { olmConfig: await olmConfig(), csvs: (await readNamespace(t, later, true)).csvs }, csvEvents: [...new Set(events.map((e) => `${e.type}/${e.reason}`))].sort() };
    },
  },
  {
    id: 'olm/Subscription config written into the operator\'s Deployment, and written again when it changes',
    independent: true,
    run: async (t) => {
      const ns = 'conf-olm-config';
      await namespace(t, ns);
      await operatorGroup(t, ns, 'og', { targetNamespaces: [ns] });
      await subscribe(t, ns, 'epsilon', {
        name: 'epsilon', channel: 'stable', installPlanApproval: 'Automatic',
        config: {
          env: [{ name: 'LOG_LEVEL', value: 'debug' }, { name: 'EXTRA', value: '1' }],
          envFrom: [{ configMapRef: { name: 'settings' } }],
          // Only what the cluster's one (kwok) node satisfies: a pod that cannot be scheduled keeps
          // the CSV Installing, and OLM checks a Deployment's readiness before its spec hash.
          nodeSelector: { 'kubernetes.io/os': 'linux', type: 'kwok' },
          tolerations: [{ key: 'bundle', operator: 'Exists' }, { key: 'infra', operator: 'Equal', value: 'reserved', effect: 'NoSchedule' }],
          resources: { requests: { cpu: '100m' }, limits: { memory: '256Mi' } },
          volumes: [{ name: 'trusted-ca', configMap: { name: 'ca-bundle', items: [{ key: 'ca-bundle.crt', path: 'tls-ca-bundle.pem' }] } }],
          volumeMounts: [{ name: 'trusted-ca', mountPath: '/etc/pki/ca-trust/extracted/pem', readOnly: true }],
          annotations: { 'team.example.com/owner': 'platform' },
        },
      });
      await until(t, 'epsilon.v1.0.0 to succeed', csvPhase(t, ns, 'epsilon.v1.0.0', 'Succeeded'));
      await settled(t, ns);
      /** What a person reads of the operator's Deployment: what the config touches. */
      const deployment = async () => {
        const d = await must(t, 'GET', `/apis/apps/v1/namespaces/${ns}/deployments/epsilon-operator`);
        const pod = ((d.spec as { template: { metadata?: { annotations?: Record<string, string> }; spec: Record<string, unknown> } }).template);
        const containers = (pod.spec.containers ?? []) as { name: string; env?: unknown; envFrom?: unknown; resources?: unknown; volumeMounts?: unknown }[];
        return {
          containers: containers.map((c) => ({ name: c.name, env: c.env, envFrom: c.envFrom, resources: c.resources, volumeMounts: c.volumeMounts })),
          nodeSelector: pod.spec.nodeSelector,
          tolerations: pod.spec.tolerations,
          affinity: pod.spec.affinity,
          volumes: ((pod.spec.volumes ?? []) as { name: string; configMap?: { name: string; items?: unknown } }[]).map((v) => ({ name: v.name, configMap: v.configMap?.name, items: v.configMap?.items })),
          annotation: d.metadata.annotations?.['team.example.com/owner'],
          podAnnotation: pod.metadata?.annotations?.['team.example.com/owner'],
          hashLabel: !!d.metadata.labels?.['olm.deployment-spec-hash'],
        };
      };
      const first = await deployment();
      const before = (await must(t, 'GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/clusterserviceversions/epsilon.v1.0.0`)).status?.conditions as { phase: string }[];
      await must(t, 'PATCH', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/epsilon`, { spec: { config: { env: [{ name: 'LOG_LEVEL', value: 'warn' }], resources: null, envFrom: null, affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }] }] } } } } } });
      await until(t, 'the Deployment written again', async () => ((await deployment()).affinity ? true : undefined));
      await until(t, 'epsilon.v1.0.0 to succeed again', async () => {
        const c = await must(t, 'GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/clusterserviceversions/epsilon.v1.0.0`);
        return c.status?.phase === 'Succeeded' && ((c.status?.conditions as unknown[]) ?? []).length > before.length ? true : undefined;
      });
      await settled(t, ns);
      const csv = await must(t, 'GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/clusterserviceversions/epsilon.v1.0.0`);
      // The hashes in the message are OLM's own (a hash of its Go structs): their presence is what compares.
      const after = ((csv.status?.conditions ?? []) as { phase: string; reason: string; message: string }[]).slice(before.length).map((c) => `${c.phase}/${c.reason}: ${c.message.replace(/hash=\w+/g, 'hash=…')}`).filter((h) => !h.startsWith('Installing/InstallWaiting'));
      return { first, afterChange: await deployment(), transitions: after, phase: csv.status?.phase };
    },
  },
];
