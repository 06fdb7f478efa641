// What the OLM checks do and read on either cluster: the scenario's writes (namespace, group,
// Subscription, approval) and the objects a person reads once it has settled, each reduced to
// what real OLM makes the same from run to run.
import { call, type Target } from '../target';

export const CATALOG = 'generated';
export const CATALOG_NS = 'olm';
export type Obj = {
  metadata: {
    name: string;
    namespace?: string;
    annotations?: Record<string, string>;
    labels?: Record<string, string>;
    creationTimestamp?: string;
    ownerReferences?: unknown[];
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
} & Record<string, unknown>;

export async function must(t: Target, method: string, path: string, body?: unknown): Promise<Obj> {
  const r = await call(t, {
    method,
    path,
    body,
    ...(method === 'PATCH' ? { contentType: 'application/merge-patch+json' } : {}),
  });
  if (r.status >= 300)
    throw new Error(`${t.name}: ${method} ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body as Obj;
}

export async function list(t: Target, path: string): Promise<Obj[]> {
  return ((await must(t, 'GET', path)) as unknown as { items: Obj[] }).items.sort(
    (a, b) =>
      (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
      a.metadata.name.localeCompare(b.metadata.name),
  );
}

/** Polls until `probe` answers something, or fails after `ms` with what it last saw. */
export async function until<T>(t: Target, what: string, probe: () => Promise<T | undefined>, ms = 120_000): Promise<T> {
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
export function caughtUp(subs: Obj[], csvs: Obj[]): boolean {
  const transient = new Set(['CatalogSourcesAdded', 'CatalogSourcesUpdated', 'CatalogSourcesDeleted']);
  return subs.every((s) => {
    const st = (s.status ?? {}) as {
      currentCSV?: string;
      state?: string;
      conditions?: { type: string; reason?: string }[];
    };
    const health = st.conditions?.find((c) => c.type === 'CatalogSourcesUnhealthy');
    if (!health || transient.has(health.reason ?? '')) return false;
    return !st.currentCSV || !csvs.some((c) => c.metadata.name === st.currentCSV) || st.state === 'AtLatestKnown';
  });
}

/** Waits until nothing a person reads in the namespace changes for `quietMs` and OLM has caught up. */
export async function settled(t: Target, ns: string, quietMs = 6_000): Promise<void> {
  let last = '';
  let since = Date.now();
  const deadline = Date.now() + 120_000;
  for (;;) {
    const [subs, plans, csvs] = await Promise.all(
      ['subscriptions', 'installplans', 'clusterserviceversions'].map((r) =>
        list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/${r}`),
      ),
    );
    const now = JSON.stringify([subs!, plans!, csvs!].map((items) => items.map((i) => [i.metadata.name, i.status])));
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs && caughtUp(subs!, csvs!)) return;
    if (Date.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

export async function namespace(t: Target, name: string): Promise<void> {
  const r = await call(t, {
    method: 'POST',
    path: '/api/v1/namespaces',
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
  });
  if (r.status !== 201)
    throw new Error(
      `${t.name}: creating namespace ${name}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)} (a namespace left by an earlier run?)`,
    );
}

export async function operatorGroup(t: Target, ns: string, name: string, spec: Record<string, unknown>): Promise<void> {
  await must(t, 'POST', `/apis/operators.coreos.com/v1/namespaces/${ns}/operatorgroups`, {
    apiVersion: 'operators.coreos.com/v1',
    kind: 'OperatorGroup',
    metadata: { name },
    spec,
  });
}

export async function subscribe(t: Target, ns: string, name: string, spec: Record<string, unknown>): Promise<void> {
  await must(t, 'POST', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions`, {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'Subscription',
    metadata: { name },
    spec: { source: CATALOG, sourceNamespace: CATALOG_NS, ...spec },
  });
}

/**
 * The labels OLM's adoption controller writes (`operators.coreos.com/<pkg>.<ns>`) and those its
 * API labeler is written to write (`olm.api.<hash>`, a hash the same on every cluster): the rest
 * are the bundle's or the console's. OLM v0.38.0 never writes the latter (transitionCSVState hands
 * the labeler a pointer its type switch does not match); reading them shows the sandbox does not either.
 */
export const olmLabels = (o: Obj) =>
  Object.fromEntries(
    Object.entries(o.metadata.labels ?? {})
      .filter(([k]) => k.startsWith('operators.coreos.com/') || k.startsWith('olm.api.'))
      .sort(([a], [b]) => a.localeCompare(b)),
  );

/** Which time stamps a condition carries (their values differ between any two clusters). */
const stamps = (c: Record<string, unknown>) =>
  ['lastHeartbeatTime', 'lastTransitionTime', 'lastUpdateTime'].filter((k) => c[k]);

export const conditions = (o: Obj | undefined) =>
  ((o?.status?.conditions ?? []) as { type: string; status: string; reason?: string; message?: string }[])
    .map((c) => ({ type: c.type, status: c.status, reason: c.reason ?? '', message: c.message ?? '' }))
    .sort((a, b) => a.type.localeCompare(b.type));

/** What a person reads of a Subscription. */
export function subscriptionView(s: Obj) {
  const st = (s.status ?? {}) as Record<string, unknown>;
  return {
    name: s.metadata.name,
    state: st.state ?? '',
    currentCSV: st.currentCSV ?? '',
    installedCSV: st.installedCSV ?? '',
    installPlanGeneration: st.installPlanGeneration,
    installPlanRef: st.installPlanRef
      ? { kind: (st.installPlanRef as Obj).kind, apiVersion: (st.installPlanRef as Obj).apiVersion }
      : undefined,
    // Only the generated catalog is a CatalogSource on both clusters (the sandbox also has one for
    // each catalog the registry checks read): health of the others is not comparable.
    catalogHealth: (
      (st.catalogHealth ?? []) as { catalogSourceRef: { name: string; namespace: string }; healthy: boolean }[]
    )
      .filter((h) => h.catalogSourceRef.name === CATALOG)
      .map((h) => ({ source: `${h.catalogSourceRef.namespace}/${h.catalogSourceRef.name}`, healthy: h.healthy })),
    conditions: conditions(s),
    labels: s.metadata.labels ?? {},
  };
}

/**
 * Created and Present both say the object is there. Which one real OLM writes depends on timing
 * it does not control: a CRD another namespace's plan created a moment earlier is Present, and a
 * plan executed again after a conflicting status write finds every object Present.
 */
export const stepStatus = (s: string) => (s === 'Created' || s === 'Present' ? 'Created or Present' : s);

/** What a person reads of an InstallPlan (its generated name replaced by its order). */
export function planView(p: Obj, i: number) {
  const st = (p.status ?? {}) as Record<string, unknown>;
  return {
    plan: i,
    approval: p.spec?.approval,
    approved: p.spec?.approved,
    // A set: real OLM's order varies from run to run.
    clusterServiceVersionNames: [...((p.spec?.clusterServiceVersionNames as string[] | undefined) ?? [])].sort(),
    generation: p.spec?.generation,
    phase: st.phase ?? '',
    conditions: conditions(p).map((c) => ({
      type: c.type,
      status: c.status,
      reason: c.reason,
      message: c.message,
      stamps: stamps(((st.conditions ?? []) as Record<string, unknown>[]).find((x) => x.type === c.type) ?? {}),
    })),
    steps: (
      (st.plan ?? []) as {
        resolving: string;
        status: string;
        resource: {
          group: string;
          version: string;
          kind: string;
          name: string;
          sourceName: string;
          sourceNamespace: string;
        };
      }[]
    )
      .map((s) => ({
        resolving: s.resolving,
        status: stepStatus(s.status),
        kind: s.resource.kind,
        group: s.resource.group,
        version: s.resource.version,
        name: s.resource.name,
        source: `${s.resource.sourceNamespace}/${s.resource.sourceName}`,
      }))
      .sort((a, b) => `${a.kind}/${a.name}`.localeCompare(`${b.kind}/${b.name}`)),
    bundleLookups: ((st.bundleLookups ?? []) as unknown[]).length,
    // OLM's Go type omits an empty list: whether the key is there at all is what a client sees.
    bundleLookupsKey: 'bundleLookups' in st,
    owners: (p.metadata.ownerReferences ?? []).length,
    labels: olmLabels(p),
  };
}

/** What a person reads of a CSV. */
export function csvView(c: Obj) {
  const st = (c.status ?? {}) as Record<string, unknown>;
  const a = c.metadata.annotations ?? {};
  return {
    name: c.metadata.name,
    phase: st.phase ?? '',
    reason: st.reason ?? '',
    message: st.message ?? '',
    // Whether OLM sees a Deployment not yet available (InstallWaiting) depends on how fast the
    // node runs its pod: left out of the history on both.
    history: ((st.conditions ?? []) as { phase: string; reason: string }[])
      .map((x) => `${x.phase}/${x.reason}`)
      .filter((h) => h !== 'Installing/InstallWaiting'),
    requirementStatus: (
      (st.requirementStatus ?? []) as {
        group: string;
        version: string;
        kind: string;
        name: string;
        status: string;
        message: string;
      }[]
    )
      .map((r) => ({
        kind: r.kind,
        group: r.group,
        version: r.version,
        name: r.name,
        status: r.status,
        message: r.message,
      }))
      .sort((x, y) => `${x.kind}/${x.name}`.localeCompare(`${y.kind}/${y.name}`)),
    annotations: Object.fromEntries(
      ['olm.operatorGroup', 'olm.operatorNamespace', 'olm.targetNamespaces', 'olm.providedAPIs']
        .filter((k) => k in a)
        .map((k) => [k, a[k]]),
    ),
    copied: c.metadata.labels?.['olm.copiedFrom'] ?? '',
    labels: olmLabels(c),
  };
}

/**
 * What a person reads in a namespace. Copied CSVs are left out unless asked for: the
 * AllNamespaces scenario copies its CSV into every namespace, the other scenarios' too.
 */
export async function readNamespace(t: Target, ns: string, withCopies = false) {
  const base = `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}`;
  const [subs, plans, csvs, groups] = await Promise.all([
    list(t, `${base}/subscriptions`),
    list(t, `${base}/installplans`),
    list(t, `${base}/clusterserviceversions`),
    list(t, `/apis/operators.coreos.com/v1/namespaces/${ns}/operatorgroups`),
  ]);
  return {
    // By name: a dependency's Subscription is made when its plan runs, a moment that varies.
    subscriptions: subs.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name)).map(subscriptionView),
    // In the order OLM made them (two plans can share a creation second, and their names are random).
    installPlans: plans
      .sort((a, b) => ((a.spec?.generation as number) ?? 0) - ((b.spec?.generation as number) ?? 0))
      .map(planView),
    csvs: csvs.filter((c) => withCopies || !c.metadata.labels?.['olm.copiedFrom']).map(csvView),
    // A set: real OLM writes the target namespaces in no fixed order.
    operatorGroups: groups.map((g) => ({
      name: g.metadata.name,
      namespaces: (g.status?.namespaces as string[] | undefined)?.slice().sort(),
      annotations: Object.fromEntries(
        Object.entries(g.metadata.annotations ?? {}).filter(([k]) => k.startsWith('olm.')),
      ),
    })),
  };
}

/**
 * What a person reads in a namespace whose OperatorGroup names a service account: besides the
 * usual, the group's account and conditions, and each plan's message and account.
 */
export async function readScoped(t: Target, ns: string) {
  const read = await readNamespace(t, ns);
  const plans = (await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`)).sort(
    (a, b) => ((a.spec?.generation as number) ?? 0) - ((b.spec?.generation as number) ?? 0),
  );
  const groups = await list(t, `/apis/operators.coreos.com/v1/namespaces/${ns}/operatorgroups`);
  const account = (ref: unknown) =>
    ref ? { kind: (ref as Obj).kind, name: (ref as Obj).name, namespace: (ref as Obj).namespace } : undefined;
  return {
    ...read,
    installPlans: read.installPlans.map((p, i) => ({
      ...p,
      message: plans[i]?.status?.message ?? '',
      attenuatedServiceAccountRef: account(plans[i]?.status?.attenuatedServiceAccountRef),
    })),
    operatorGroups: read.operatorGroups.map((g, i) => ({
      ...g,
      serviceAccountName: groups[i]?.spec?.serviceAccountName,
      serviceAccountRef: account(groups[i]?.status?.serviceAccountRef),
      conditions: conditions(groups[i]),
    })),
  };
}

export const csvPhase = (t: Target, ns: string, name: string, phase: string, reason?: string) => () =>
  call(t, { path: `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/clusterserviceversions/${name}` }).then((r) =>
    r.status === 200 &&
    (r.body as Obj).status?.phase === phase &&
    (!reason || (r.body as Obj).status?.reason === reason)
      ? true
      : undefined,
  );

export const csvGone = (t: Target, ns: string, name: string) => () =>
  call(t, { path: `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/clusterserviceversions/${name}` }).then((r) =>
    r.status === 404 ? true : undefined,
  );

export const planWaiting = (t: Target, ns: string, csv: string) => async () =>
  (await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`)).find(
    (p) =>
      p.status?.phase === 'RequiresApproval' &&
      (p.spec?.clusterServiceVersionNames as string[] | undefined)?.includes(csv),
  );

export const approve = (t: Target, ns: string, plan: Obj) =>
  must(t, 'PATCH', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans/${plan.metadata.name}`, {
    spec: { approved: true },
  });

/** The Subscription's conditions, once one of `type` is there. */
export const subscriptionCondition = (t: Target, ns: string, name: string, type: string) => async () =>
  (
    (await must(t, 'GET', `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/${name}`)).status
      ?.conditions as { type: string }[] | undefined
  )?.some((c) => c.type === type) || undefined;

/** The Subscription has been seen by the catalog operator: it carries its catalogs' health. */
export const subscriptionSynced = (t: Target, ns: string, name: string) => () =>
  call(t, { path: `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions/${name}` }).then((r) =>
    r.status === 200 && (r.body as Obj).status?.catalogHealth ? true : undefined,
  );

/**
 * The cluster-scoped Operator OLM makes for a package installed in a namespace (named
 * `<package>.<namespace>`) and what it lists as its components. A Deployment's, CRD's or
 * InstallPlan's condition messages and reasons name generated objects (ReplicaSets) or depend on
 * timing: of a component's conditions, types and statuses compare (a CSV's one condition is its phase).
 */
export async function readOperator(t: Target, name: string) {
  const r = await call(t, { path: `/apis/operators.coreos.com/v1/operators/${name}` });
  if (r.status !== 200) return { status: r.status };
  const op = r.body as Obj;
  const components = (op.status?.components ?? {}) as {
    labelSelector?: unknown;
    refs?: {
      kind: string;
      apiVersion: string;
      namespace?: string;
      name: string;
      conditions?: { type: string; status: string }[];
    }[];
  };
  return {
    status: r.status,
    labelSelector: components.labelSelector,
    // OLM leaves `refs` out when there are none (omitempty), rather than writing [].
    refsWritten: components.refs !== undefined,
    // An InstallPlan's name is generated.
    refs: (components.refs ?? []).map((x) => ({
      kind: x.kind,
      apiVersion: x.apiVersion,
      namespace: x.namespace ?? '',
      name: x.kind === 'InstallPlan' ? '<plan>' : x.name,
      conditions: (x.conditions ?? []).map((c) => `${c.type}=${c.status}`).sort(),
    })),
  };
}
