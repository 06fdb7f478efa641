// Recovering from a bad upgrade. OLM never downgrades an installed operator in place; the way back
// is to remove its Subscription and CSV (the CRDs and every instance stay) and subscribe again at
// the earlier version with `startingCSV`, under Manual approval so OLM does not walk straight back
// up to the head. What can go wrong is in the CRDs: the earlier bundle's CRD replaces the cluster's
// when its InstallPlan runs, and OLM's catalog operator refuses one that drops a version the
// cluster has stored objects in (lib/crd/storage.go SafeStorageVersionUpgrade: "risk of data
// loss"); fields the earlier schema lacks are pruned from instances when they are next written.
import type { Subscription } from '../resources/subscription';
import { SUBSCRIPTION_TYPE } from '../resources/subscription';

export interface CrdVersion {
  name: string;
  served?: boolean;
  storage?: boolean;
  schema?: { openAPIV3Schema?: JsonSchema };
}

export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
}

/** A CRD as the cluster has it: its versions and the ones objects are stored in. */
export interface ClusterCrd {
  name: string;
  versions: CrdVersion[];
  storedVersions: string[];
}

/** A CRD as a bundle ships it. */
export interface BundleCrd {
  name: string;
  versions: CrdVersion[];
}

export interface RollbackFacts {
  namespace: string;
  subscription: Subscription;
  installed: { csvName: string; version?: string };
  /** The earlier version picked. */
  target: { csvName: string; version?: string };
  /** The channel's versions older than the installed one, newest first; the target must be one. */
  earlier: { csvName: string; version?: string }[];
  /** CRDs the installed CSV owns, as the cluster has them; a string says why they could not be read. */
  clusterCrds: ClusterCrd[] | string;
  /** The target bundle's CRDs; a string says why they are not known (an image bundle, say). */
  targetCrds: BundleCrd[] | string;
  /** What the person may not do, with the cluster's reason. */
  denied: { deleteSubscription?: string; deleteCsv?: string; createSubscription?: string };
}

export type RiskLevel = 'blocker' | 'warning' | 'info';

export interface Risk {
  level: RiskLevel;
  message: string;
}

export interface RollbackStep {
  action: 'delete' | 'create';
  kind: 'Subscription' | 'ClusterServiceVersion';
  namespace: string;
  name: string;
  why: string;
}

export interface RollbackPlan {
  steps: RollbackStep[];
  /** The Subscription made again, exactly as it will be created. */
  subscription: Subscription;
  risks: Risk[];
  blocked: boolean;
}

/** Every property path a schema names under `spec` and `status`, to a few levels. */
export function schemaPaths(schema: JsonSchema | undefined, prefix = '', depth = 4): string[] {
  if (!schema || depth === 0) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(schema.properties ?? {})) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (prefix || k === 'spec' || k === 'status') {
      if (prefix) out.push(path);
      out.push(...schemaPaths(v.type === 'array' ? v.items : v, path, depth - 1));
    }
  }
  return out;
}

const storageOf = (versions: readonly CrdVersion[]) => versions.find((v) => v.storage)?.name;

function crdRisks(cluster: ClusterCrd, target: BundleCrd | undefined, targetLabel: string): Risk[] {
  if (!target)
    return [
      {
        level: 'info',
        message: `${targetLabel}'s bundle does not ship ${cluster.name}: OLM leaves the cluster's CRD as it is`,
      },
    ];
  const risks: Risk[] = [];
  const targetNames = new Set(target.versions.map((v) => v.name));
  for (const stored of cluster.storedVersions) {
    if (!targetNames.has(stored))
      risks.push({
        level: 'blocker',
        message: `OLM would fail the InstallPlan: risk of data loss updating "${cluster.name}": new CRD removes version ${stored} that is listed as a stored version on the existing CRD`,
      });
  }
  const from = storageOf(cluster.versions);
  const to = storageOf(target.versions);
  if (from && to && from !== to)
    risks.push({
      level: 'warning',
      message: `${cluster.name}: the storage version goes from ${from} to ${to}; instances are converted when next written, and the operator at ${targetLabel} must read them`,
    });
  for (const v of cluster.versions.filter((x) => x.served !== false)) {
    const t = target.versions.find((x) => x.name === v.name);
    if (!t) {
      if (!cluster.storedVersions.includes(v.name))
        risks.push({
          level: 'warning',
          message: `${cluster.name}: version ${v.name} is no longer served at ${targetLabel}; clients using it get 404`,
        });
      continue;
    }
    if (t.schema?.openAPIV3Schema?.['x-kubernetes-preserve-unknown-fields']) continue;
    const kept = new Set(schemaPaths(t.schema?.openAPIV3Schema));
    const lost = schemaPaths(v.schema?.openAPIV3Schema).filter((p) => !kept.has(p));
    // A path whose parent is already lost says nothing more.
    const top = lost.filter((p) => !lost.includes(p.split('.').slice(0, -1).join('.')));
    if (top.length)
      risks.push({
        level: 'warning',
        message: `${cluster.name} ${v.name}: ${top.slice(0, 6).join(', ')}${top.length > 6 ? ` and ${top.length - 6} more` : ''} ${top.length === 1 ? 'is' : 'are'} not in ${targetLabel}'s schema; instances that set ${top.length === 1 ? 'it lose it' : 'them lose them'} when next written (the API server prunes unknown fields)`,
      });
  }
  return risks;
}

export function planRollback(f: RollbackFacts): RollbackPlan {
  const sub = f.subscription;
  const name = sub.metadata?.name ?? '';
  const targetLabel = f.target.version ?? f.target.csvName;
  const risks: Risk[] = [];
  if (!f.earlier.some((e) => e.csvName === f.target.csvName)) {
    risks.push({
      level: 'blocker',
      message: `${f.target.csvName} is not an earlier version of ${f.installed.csvName} in channel ${sub.spec.channel ?? 'the default channel'}; earlier ones: ${f.earlier.map((e) => e.version ?? e.csvName).join(', ') || 'none'}`,
    });
  }
  for (const [what, reason] of [
    ['delete the Subscription', f.denied.deleteSubscription],
    ['delete the ClusterServiceVersion', f.denied.deleteCsv],
    ['create the Subscription', f.denied.createSubscription],
  ] as const) {
    if (reason) risks.push({ level: 'blocker', message: `you may not ${what} in ${f.namespace}: ${reason}` });
  }
  if (typeof f.clusterCrds === 'string')
    risks.push({ level: 'info', message: `the cluster's CRDs could not be compared: ${f.clusterCrds}` });
  else if (typeof f.targetCrds === 'string')
    risks.push({ level: 'info', message: `${targetLabel}'s CRDs cannot be compared: ${f.targetCrds}` });
  else {
    const targets = f.targetCrds;
    const found = f.clusterCrds.flatMap((c) =>
      crdRisks(
        c,
        targets.find((t) => t.name === c.name),
        targetLabel,
      ),
    );
    risks.push(...found);
    if (!found.length && f.clusterCrds.length)
      risks.push({
        level: 'info',
        message: `${targetLabel}'s CRDs (${f.clusterCrds.map((c) => c.name).join(', ')}) compared with the cluster's: no stored version dropped, no field lost`,
      });
  }
  risks.push({
    level: 'info',
    message: `until ${targetLabel} is installed and running, the operator does not run: its instances stay, unmanaged`,
  });

  const subscription: Subscription = {
    apiVersion: `${SUBSCRIPTION_TYPE.group}/${SUBSCRIPTION_TYPE.version}`,
    kind: 'Subscription',
    metadata: {
      name,
      namespace: f.namespace,
      ...(sub.metadata?.labels ? { labels: sub.metadata.labels } : {}),
      ...(sub.metadata?.annotations ? { annotations: sub.metadata.annotations } : {}),
    },
    spec: {
      name: sub.spec.name,
      source: sub.spec.source,
      sourceNamespace: sub.spec.sourceNamespace,
      ...(sub.spec.channel ? { channel: sub.spec.channel } : {}),
      startingCSV: f.target.csvName,
      installPlanApproval: 'Manual',
      ...(sub.spec.config ? { config: sub.spec.config } : {}),
    },
  };
  const steps: RollbackStep[] = [
    {
      action: 'delete',
      kind: 'Subscription',
      namespace: f.namespace,
      name,
      why: 'OLM would otherwise keep the installed version',
    },
    {
      action: 'delete',
      kind: 'ClusterServiceVersion',
      namespace: f.namespace,
      name: f.installed.csvName,
      why: 'its Deployments go with it; the CRDs and every instance stay',
    },
    {
      action: 'create',
      kind: 'Subscription',
      namespace: f.namespace,
      name,
      why: `starting at ${f.target.csvName}, Manual approval: OLM plans ${targetLabel} and waits for your approval, and later upgrades wait too`,
    },
  ];
  return { steps, subscription, risks, blocked: risks.some((r) => r.level === 'blocker') };
}
