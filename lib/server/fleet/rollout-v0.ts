// One cluster's OLM v0 installs of a package for its rollout row: each Subscription with its CSV,
// the InstallPlan waiting for approval, and the path to its channel's head computed from the
// catalog's own edges (replaces, skips, skipRange) as the registry of that cluster's CatalogSource
// serves them to the person (catalog-indexes.ts). PackageManifests list versions, not edges, so
// a catalog seen only through them gives the head and says the path is unknown.
import type { RolloutInstall } from '../../api/fleet-rollout';
import { graphFromModel } from '../../catalog/graph-view';
import type { CatalogIndex } from '../../catalog/catalog-index';
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { CSV_TYPE, type ClusterServiceVersion } from '../../olm/resources/cluster-service-version';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../../olm/resources/install-plan';
import type { Subscription } from '../../olm/resources/subscription';
import { planParts } from '../../olm/status/plan-parts';
import { csvDisplayStatus } from '../../olm/status/csv-status';

async function getOr<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (isKubeError(err, 404) || isKubeError(err, 403)) return undefined;
    throw err;
  }
}

function waitingPlan(sub: Subscription, plan: InstallPlan | undefined): RolloutInstall['waiting'] {
  if (!plan || plan.spec.approved || plan.status?.phase !== 'RequiresApproval') return undefined;
  // A plan covers every Subscription of its namespace it resolved: only this one's part is its.
  const own = planParts(plan, [sub]).filter((p) => p.subscription === sub.metadata?.name);
  const from = own.find((p) => p.from)?.from ?? sub.status?.installedCSV;
  return {
    installPlan: plan.metadata?.name ?? '',
    ...(from ? { from } : {}),
    to: own.map((p) => p.csv),
  };
}

/** Where the path comes from for this Subscription, and the path itself where the edges are known. */
async function pathOf(
  client: KubeClient,
  index: CatalogIndex,
  sub: Subscription,
  installedCsv: string | undefined,
): Promise<Pick<RolloutInstall, 'head' | 'path' | 'pathUnknown'>> {
  const ns = sub.metadata?.namespace ?? '';
  const ref = { namespace: sub.spec.sourceNamespace, catalog: sub.spec.source, package: sub.spec.name };
  const lookup = await index.lookupPackage(client, ref, [ns]);
  const where = `catalog ${ref.namespace}/${ref.catalog}`;
  if (!lookup) return { pathUnknown: `${where} has no package ${ref.package} that you may read on this cluster` };
  if (lookup.source === 'packagemanifests') {
    const pm = lookup.manifest;
    const name = sub.spec.channel || pm.status.defaultChannel;
    const ch = pm.status.channels.find((c) => c.name === name);
    return {
      ...(ch ? { head: { name: ch.currentCSV, version: ch.currentCSVDesc?.version } } : {}),
      pathUnknown:
        `${where} is read through PackageManifests here, which list each channel's versions but not its ` +
        'upgrade edges (its registry could not be read as you), so the path is not known',
    };
  }
  let view;
  try {
    view = graphFromModel(lookup.pkg, sub.spec.channel || undefined, installedCsv);
  } catch (err) {
    return { pathUnknown: `${where}: ${(err as Error).message}` };
  }
  const headNode = view.nodes.find((n) => n.name === view.head);
  const head = view.head ? { name: view.head, ...(headNode?.version ? { version: headNode.version } : {}) } : undefined;
  if (!installedCsv)
    return { ...(head ? { head } : {}), pathUnknown: 'nothing is installed yet, so there is no path to walk' };
  const p = view.path!;
  const versionOf = (n: string) => view.nodes.find((x) => x.name === n)?.version;
  return {
    ...(head ? { head } : {}),
    path: {
      steps: p.steps.map((s) => ({ from: s.from, to: s.to, toVersion: versionOf(s.to), via: s.via })),
      reachesHead: p.reachesHead,
      ...(p.reachesHead ? {} : { end: p.end }),
      ...(p.error ? { error: p.error } : {}),
    },
  };
}

/** The Subscriptions of `pkg` the person may list on this cluster, each with its path. */
export async function v0Rollout(
  client: KubeClient,
  index: CatalogIndex,
  subs: readonly Subscription[],
): Promise<RolloutInstall[]> {
  return Promise.all(
    subs.map(async (sub): Promise<RolloutInstall> => {
      const ns = sub.metadata?.namespace ?? '';
      const installed = sub.status?.installedCSV;
      const planName = sub.status?.installPlanRef?.name ?? sub.status?.installplan?.name;
      const [csv, plan] = await Promise.all([
        installed ? getOr(() => client.get<ClusterServiceVersion>(CSV_TYPE, installed, ns)) : undefined,
        planName ? getOr(() => client.get<InstallPlan>(INSTALL_PLAN_TYPE, planName, ns)) : undefined,
      ]);
      const version = csv?.spec?.version;
      const status = csv ? csvDisplayStatus(csv) : undefined;
      const approval = sub.spec.installPlanApproval;
      const waiting = waitingPlan(sub, plan);
      return {
        olm: 'v0',
        name: sub.metadata?.name ?? '',
        namespace: ns,
        ...(version ? { version } : {}),
        ...(installed ? { bundle: installed } : {}),
        ...(sub.spec.channel ? { channel: sub.spec.channel } : {}),
        catalog: `${sub.spec.sourceNamespace}/${sub.spec.source}`,
        ...(approval === 'Manual' || approval === 'Automatic' ? { approval } : {}),
        health: status
          ? { severity: status.severity, label: status.label, ...(status.detail ? { detail: status.detail } : {}) }
          : { severity: 'progressing', label: 'Not installed yet' },
        ...(waiting ? { waiting } : {}),
        ...(await pathOf(client, index, sub, installed)),
      };
    }),
  );
}
