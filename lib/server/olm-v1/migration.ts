// Whether an operator OLM v0 installed can move to OLM v1, and how: the facts lib/olm/v1's check
// and planner need, read as the person (the CSV, its Subscription and OperatorGroup, the
// InstallPlans that installed it, the ClusterCatalogs the person may read, the manifests of the
// bundle v1 resolves to, from the catalog or its image (migration-bundle.ts), the live CRDs and the
// objects v1 would render that exist, with OLM v0's marks on them, which alone decide whether the
// move may take them over), then a SelfSubjectAccessReview for every write of the plan.
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { CRD_TYPE } from '../../k8s/core-kinds';
import { CREATED_BY_LABEL } from '../../olm/install/plan-types';
import {
  CSV_TYPE,
  isCopiedCsv,
  ownedCrds,
  type ClusterServiceVersion,
} from '../../olm/resources/cluster-service-version';
import type { ResourceType } from '../../olm/resources/common';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../../olm/resources/install-plan';
import { OPERATOR_CONDITION_TYPE, type OperatorCondition } from '../../olm/resources/operator-condition';
import { OPERATOR_GROUP_TYPE, type OperatorGroup } from '../../olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '../../olm/resources/subscription';
import {
  checkMigration,
  type ExistingObject,
  type MigrationFacts,
  type MigrationTarget,
} from '../../olm/v1/migration-check';
import {
  HELM_MANAGED_BY,
  HELM_RELEASE_NAME,
  HELM_RELEASE_NAMESPACE,
  componentLabel,
  installerName,
  planMigration,
  typeOf,
  type MigrationStep,
} from '../../olm/v1/migration-plan';
import type { LiveObject, PolicyRule } from '../../olm/v1/v0-ownership';
import type { MigrationView } from '../../api/olm-v1-migration';
import { accessReview } from '../permissions';
import { migrationBundle } from './migration-bundle';
import { packageInCatalogs, readableCatalogs } from './readable-catalogs';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from './resources';

type Meta = {
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: { apiVersion?: string; kind: string; name: string; uid: string }[];
  };
  aggregationRule?: unknown;
  rules?: PolicyRule[];
};

/** A get that answers undefined for 404 and keeps every other refusal. */
async function maybe<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (isKubeError(err, 404)) return undefined;
    throw err;
  }
}

/** A read the person may be refused: the refusal becomes a reason instead of failing the page. */
async function readable<T>(p: Promise<T>): Promise<T | string> {
  try {
    return await p;
  } catch (err) {
    if (isKubeError(err, 403)) return (err as Error).message;
    throw err;
  }
}

function marksOf(o: Meta, component: string): ExistingObject['marks'] {
  const l = o.metadata?.labels ?? {};
  const a = o.metadata?.annotations ?? {};
  return {
    ...(l[component] !== undefined ? { component: l[component] } : {}),
    ...(l[HELM_MANAGED_BY] !== undefined ? { managedBy: l[HELM_MANAGED_BY] } : {}),
    ...(a[HELM_RELEASE_NAME] !== undefined ? { releaseName: a[HELM_RELEASE_NAME] } : {}),
    ...(a[HELM_RELEASE_NAMESPACE] !== undefined ? { releaseNamespace: a[HELM_RELEASE_NAMESPACE] } : {}),
  };
}

/** What the move knows of an object besides the object: what v1 renders for it, what OLM v0 wrote. */
export interface ObjectContext {
  /** The object as the bundle renders it. */
  rendered?: { rules?: unknown };
  /** The step of an InstallPlan naming the live CSV that wrote it (cluster-scoped objects only). */
  v0Step?: LiveObject['v0Step'];
}

/**
 * One live object as the move's rules read it: OLM v0's marks (uid, labels, ownerReferences,
 * whether it aggregates other roles, the InstallPlan step that wrote it), a role's rules beside the
 * ones v1 renders, and Helm's marks.
 */
export function existingObject(kind: string, live: Meta, component: string, ctx: ObjectContext = {}): ExistingObject {
  const m = live.metadata ?? {};
  const marks = marksOf(live, component);
  const role = kind === 'ClusterRole' || kind === 'Role';
  return {
    kind,
    name: m.name ?? '',
    ...(m.namespace ? { namespace: m.namespace } : {}),
    ...(m.uid ? { uid: m.uid } : {}),
    labels: m.labels ?? {},
    ownerReferences: m.ownerReferences ?? [],
    ...(live.aggregationRule ? { aggregated: true } : {}),
    ...(role ? { rules: live.rules ?? [] } : {}),
    ...(role && ctx.rendered ? { renderedRules: (ctx.rendered.rules as PolicyRule[] | undefined) ?? [] } : {}),
    ...(ctx.v0Step ? { v0Step: ctx.v0Step } : {}),
    marks,
    ...(marks.managedBy === 'Helm' && marks.releaseName && marks.releaseNamespace
      ? { helmRelease: { name: marks.releaseName, namespace: marks.releaseNamespace } }
      : {}),
  };
}

/**
 * The step that wrote a cluster-scoped object for the CSV, from the InstallPlans naming the CSV:
 * one resolving the CSV, of the object's kind and name in RBAC's group, that OLM ran.
 */
function v0StepFor(plans: InstallPlan[], csvName: string, kind: string, name: string): LiveObject['v0Step'] {
  for (const p of plans)
    for (const s of p.status?.plan ?? [])
      if (
        s.resolving === csvName &&
        s.resource.group === 'rbac.authorization.k8s.io' &&
        s.resource.kind === kind &&
        s.resource.name === name &&
        (s.status === 'Created' || s.status === 'Present')
      )
        return { installPlan: p.metadata?.name ?? '', resolving: s.resolving };
  return undefined;
}

/** The rendered objects that exist now, as the cluster shows them. */
async function existingObjects(
  client: KubeClient,
  target: MigrationTarget,
  namespace: string,
  v0: { csv: string; plans: InstallPlan[] },
): Promise<ExistingObject[]> {
  const component = componentLabel(target.packageName, namespace);
  const found = await Promise.all(
    target.objects.map(async (o) => {
      const name = String(o.metadata.name ?? '');
      const namespace = o.metadata.namespace as string | undefined;
      const live = await readable(maybe(client.get<Meta>(typeOf(o as never), name, namespace)));
      if (!live) return undefined;
      if (typeof live === 'string')
        return { kind: o.kind, name, ...(namespace ? { namespace } : {}), marks: {}, unreadable: live };
      const v0Step = namespace ? undefined : v0StepFor(v0.plans, v0.csv, o.kind, name);
      const rendered = o as { rules?: unknown };
      return existingObject(o.kind, live, component, { rendered, ...(v0Step ? { v0Step } : {}) });
    }),
  );
  return found.filter((e): e is ExistingObject => !!e);
}

/** Everything checkMigration reads, gathered as the person. */
async function gatherFacts(client: KubeClient, namespace: string, csvName: string) {
  const csv = await client.get<ClusterServiceVersion>(CSV_TYPE, csvName, namespace);
  const [subs, groups, plans, oc, allCsvs] = await Promise.all([
    client.listAll<Subscription>(SUBSCRIPTION_TYPE, { namespace }),
    client.listAll<OperatorGroup>(OPERATOR_GROUP_TYPE, { namespace }),
    client.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace }),
    readable(maybe(client.get<OperatorCondition>(OPERATOR_CONDITION_TYPE, csvName, namespace))),
    readable(client.listAll<ClusterServiceVersion>(CSV_TYPE)),
  ]);
  const subscription = subs.items.find((s) => s.status?.installedCSV === csvName);
  const pkg = subscription?.spec?.name;
  const mine = plans.items.filter((p) => p.spec.clusterServiceVersionNames.includes(csvName));
  // A plan that created a Subscription for another CSV pulled that operator in as a dependency.
  const installedWith = [
    ...new Set(
      mine.flatMap((p) =>
        (p.status?.plan ?? [])
          .filter((s) => s.resource.kind === 'Subscription' && s.resolving !== csvName)
          .map((s) => s.resolving),
      ),
    ),
  ];
  const owned = new Set(ownedCrds(csv).map((c) => c.name));
  const others = typeof allCsvs === 'string' ? [] : allCsvs.items.filter((c) => !isCopiedCsv(c));
  const where = (c: ClusterServiceVersion) => `${c.metadata?.namespace}/${c.metadata?.name}`;
  const requiredBy = others
    .filter((c) => where(c) !== `${namespace}/${csvName}`)
    .flatMap((c) =>
      (c.spec.customresourcedefinitions?.required ?? [])
        .filter((r) => owned.has(r.name))
        .map((r) => ({ csv: where(c), api: r.name })),
    );
  const alsoInstalledIn = [
    ...new Set(
      others
        .filter((c) => c.metadata?.namespace !== namespace)
        .filter((c) => ownedCrds(c).some((o) => owned.has(o.name)))
        .map((c) => c.metadata?.namespace ?? ''),
    ),
  ];
  return {
    csv,
    subscription,
    pkg,
    groups: groups.items,
    plans: mine,
    oc,
    installedWith,
    requiredBy,
    alsoInstalledIn,
    allCsvs,
  };
}

/** The catalogs' walk for the package, or why it cannot be made. */
export async function catalogsFor(client: KubeClient, pkg: string | undefined): Promise<MigrationFacts['catalogs']> {
  const cats = await readable(readableCatalogs(client));
  if (cats === null) return null;
  if (typeof cats === 'string') return `you may not list ClusterCatalogs: ${cats}`;
  if (!pkg) return [];
  const walked = await packageInCatalogs(cats, pkg);
  if ('error' in walked) return walked.error;
  return walked.map((w) => w.pkg);
}

export interface MigrationAnalysis {
  view: MigrationView;
  steps?: MigrationStep[];
  subscription?: Subscription;
  /** What v1 will apply, and which of those objects exist now (kind/name). */
  objects?: MigrationTarget['objects'];
  /** The bundle v1 resolves to and where its manifests were read. */
  target?: MigrationTarget;
  existingKeys?: Set<string>;
}

/** The verdict and, for an operator that can move, the plan with what the person may not do. */
export async function analyseMigration(
  client: KubeClient,
  namespace: string,
  csvName: string,
): Promise<MigrationAnalysis> {
  const g = await gatherFacts(client, namespace, csvName);
  const catalogs = await catalogsFor(client, g.pkg);
  const extensions = await readable(client.listAll<ClusterExtension>(CLUSTER_EXTENSION_TYPE));
  const liveCrds = await Promise.all(
    [...new Set(ownedCrds(g.csv).map((c) => c.name))].map(async (name) => {
      const crd = await maybe(readable(client.get<{ status?: { storedVersions?: string[] } }>(CRD_TYPE, name)));
      return { name, storedVersions: typeof crd === 'object' ? (crd.status?.storedVersions ?? []) : [] };
    }),
  );
  const extensionName = g.pkg ?? csvName;
  const facts: MigrationFacts = {
    csv: g.csv,
    subscription: g.subscription,
    operatorGroups: g.groups,
    installedWith: g.installedWith,
    requiredBy: g.requiredBy,
    alsoInstalledIn: g.alsoInstalledIn,
    ...(typeof g.allCsvs === 'string' ? { otherOperatorsUnreadable: g.allCsvs } : {}),
    operatorCondition: typeof g.oc === 'string' ? { unreadable: g.oc } : g.oc,
    catalogs:
      typeof extensions === 'string' && Array.isArray(catalogs)
        ? `you may not list ClusterExtensions: ${extensions}`
        : catalogs,
    extensionName,
    extensions:
      typeof extensions === 'string'
        ? []
        : extensions.items.map((e) => ({
            name: e.metadata?.name ?? '',
            packageName: e.spec?.source?.catalog?.packageName,
          })),
    liveCrds,
    existing: [],
  };
  let verdict = checkMigration(facts);
  // The bundle's manifests are read once the check has said which bundle v1 resolves to: from the
  // catalog, or pulled from its image, and only then rendered.
  if (!verdict.canMove && verdict.read) {
    const { catalog, bundle } = verdict.read;
    facts.content = {
      catalog,
      bundle: bundle.name,
      read: await migrationBundle(bundle, { client, catalog: { kind: 'ClusterCatalog', name: catalog } }),
    };
    verdict = checkMigration(facts);
  }
  // Which objects exist, and whether OLM v0 installed them for this CSV, is known only once the
  // bundle is rendered; the plan then marks exactly those read here.
  let existing: ExistingObject[] = [];
  if (verdict.canMove) {
    existing = await existingObjects(client, verdict.target, namespace, { csv: csvName, plans: g.plans });
    verdict = checkMigration({ ...facts, existing });
  }
  // Where the manifests were read is said whether or not the operator can move: a refusal may be
  // about what the image brings.
  const read = facts.content?.read;
  const base: MigrationView = {
    csv: csvName,
    namespace,
    canMove: verdict.canMove,
    reasons: [],
    ...(read && 'source' in read ? { source: read.source } : {}),
  };
  if (!verdict.canMove) return { view: { ...base, reasons: verdict.reasons } };
  const target = verdict.target;
  const steps = planMigration({
    namespace,
    csvName,
    extensionName,
    subscription: g.subscription!,
    target,
    existing,
    installerExisting: await installerExisting(client, namespace, extensionName),
    leftovers: await leftovers(client, namespace, csvName, target, g.oc),
    installPlans: g.plans
      .filter((p) => p.spec.clusterServiceVersionNames.every((n) => n === csvName))
      .map((p) => p.metadata?.name ?? ''),
    operatorGroupToDelete: operatorGroupToDelete(g, csvName),
  });
  const stepViews = await Promise.all(steps.map((s) => reviewStep(client, s)));
  const existingKeys = new Set(existing.map((e) => `${e.kind}/${e.name}`));
  return {
    view: {
      ...base,
      extension: extensionName,
      version: target.version,
      ...(target.channel ? { channel: target.channel } : {}),
      catalog: target.catalog,
      steps: stepViews,
      blocked: stepViews.some((s) => s.denied),
      objects: target.objects.map((o) => ({
        kind: o.kind,
        name: String(o.metadata.name ?? ''),
        ...(o.metadata.namespace ? { namespace: String(o.metadata.namespace) } : {}),
        fate: existingKeys.has(`${o.kind}/${String(o.metadata.name ?? '')}`) ? ('adopt' as const) : ('new' as const),
      })),
    },
    steps,
    subscription: g.subscription,
    objects: target.objects,
    target,
    existingKeys,
  };
}

async function installerExisting(client: KubeClient, namespace: string, ext: string): Promise<string[]> {
  const sa = await maybe(
    client.get(
      typeOf({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { namespace } }),
      installerName(ext),
      namespace,
    ),
  );
  return sa ? [`ServiceAccount/${installerName(ext)}`] : [];
}

/** v0's namespaced objects for the CSV (owner labels) that v1 does not render, and its OperatorCondition. */
async function leftovers(
  client: KubeClient,
  namespace: string,
  csvName: string,
  target: MigrationTarget,
  oc: OperatorCondition | string | undefined,
): Promise<{ type: ResourceType; name: string }[]> {
  const rendered = new Set(target.objects.map((o) => `${o.kind}/${String(o.metadata.name)}`));
  const selector = `olm.owner=${csvName},olm.owner.kind=ClusterServiceVersion,olm.owner.namespace=${namespace}`;
  const kinds = [
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role' },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding' },
    { apiVersion: 'v1', kind: 'ServiceAccount' },
  ];
  const out: { type: ResourceType; name: string }[] = [];
  for (const k of kinds) {
    const type = typeOf({ ...k, metadata: { namespace } });
    const list = await readable(client.listAll<Meta>(type, { namespace, labelSelector: selector }));
    if (typeof list === 'string') continue;
    for (const o of list.items) {
      const name = o.metadata?.name ?? '';
      if (!rendered.has(`${k.kind}/${name}`)) out.push({ type, name });
    }
  }
  if (typeof oc === 'object') out.push({ type: OPERATOR_CONDITION_TYPE, name: csvName });
  return out;
}

/** The OperatorGroup goes only when the console made it and no other operator in the namespace uses it. */
function operatorGroupToDelete(g: Awaited<ReturnType<typeof gatherFacts>>, csvName: string): string | undefined {
  const og = g.groups[0];
  if (g.groups.length !== 1 || !og?.metadata?.labels?.[CREATED_BY_LABEL]) return undefined;
  const ns = g.csv.metadata?.namespace;
  const csvs = typeof g.allCsvs === 'string' ? undefined : g.allCsvs.items;
  if (!csvs) return undefined;
  const othersHere = csvs.some((c) => c.metadata?.namespace === ns && c.metadata?.name !== csvName && !isCopiedCsv(c));
  return othersHere ? undefined : og.metadata?.name;
}

/** A SelfSubjectAccessReview per write; the first refusal says why the step cannot be made. */
async function reviewStep(client: KubeClient, s: MigrationStep) {
  const reviews = await Promise.all(
    s.writes.map((w) =>
      accessReview(client, w.verb, w.type.group, w.type.plural, w.namespace, w.verb === 'create' ? undefined : w.name),
    ),
  );
  const refused = reviews.find((r) => !r.allowed);
  const watch =
    s.id === 'wait-installed'
      ? await accessReview(client, 'get', CLUSTER_EXTENSION_TYPE.group, CLUSTER_EXTENSION_TYPE.plural)
      : undefined;
  const denied = refused?.reason ?? (watch && !watch.allowed ? watch.reason : undefined);
  return {
    id: s.id,
    title: s.title,
    why: s.why,
    writes: s.writes.map((w) => ({
      verb: w.verb,
      kind: w.type.kind,
      name: w.name,
      ...(w.namespace ? { namespace: w.namespace } : {}),
      ...(w.propagationPolicy ? { propagationPolicy: w.propagationPolicy } : {}),
    })),
    ...(denied ? { denied } : {}),
  };
}
