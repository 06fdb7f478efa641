// Disabling and enabling a catalog of a global catalog namespace where OLM has no switch for it
// (lib/olm/catalog/disabled-catalogs.ts), as the person, in the plan/apply style. Disabling records
// the CatalogSource in the namespace's ConfigMap, sealed (disabled-catalog-seal.ts), then deletes it
// — and takes the record back out when the delete fails, so nothing is half done; enabling makes it
// again from the record, then removes the record. A record without this console's seal is reported
// and never acted on: whoever may write that ConfigMap may not thereby choose what Enable makes.
import type { Allowed, CatalogSourcePlan } from '../api/catalog-sources';
import { GLOBAL_CATALOG_NAMESPACES } from '../catalog/catalog-index';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import {
  DISABLED_CATALOGS_CONFIGMAP,
  readRecords,
  recordOf,
  type DisabledCatalog,
  type RecordedCatalog,
} from '../olm/catalog/disabled-catalogs';
import { isManagedByMarketplace } from '../olm/catalog/operator-hub-config';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../olm/resources/catalog-source';
import { ApiError } from './api-error';
import { planCatalogSourceChange } from './catalog-source-edit';
import { accessReview, whoAmI } from './permissions';
import { CONFIG_MAP_TYPE } from '../k8s/core-kinds';
import { sessionKey } from './context';
import { DisabledCatalogSeal } from './disabled-catalog-seal';

const recordSeal = () => DisabledCatalogSeal.fromSessionKey(sessionKey());

/** The record as the page and Enable may use it: sealed by this console, or why not. */
function checked(c: RecordedCatalog): { catalog: DisabledCatalog } | { problem: string } {
  const verdict = recordSeal().check(c, c.seal);
  if (!verdict.ok)
    return {
      problem:
        `entry ${c.name} of ConfigMap ${c.namespace}/${DISABLED_CATALOGS_CONFIGMAP} ${verdict.reason}; ` +
        `if CatalogSource ${c.namespace}/${c.name} is wanted, check that entry and make it by hand`,
    };
  // The seal stays in the ConfigMap: the page and the plan have no use for it.
  const catalog: DisabledCatalog = { ...c };
  delete (catalog as RecordedCatalog).seal;
  return { catalog };
}

type ConfigMap = {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
  data?: Record<string, string>;
};

/** The disabled catalogs of the global namespaces the person may read, and what could not be read. */
export async function listDisabledCatalogs(
  client: KubeClient,
  present: readonly CatalogSource[],
): Promise<{ catalogs: DisabledCatalog[]; problems: string[] }> {
  const catalogs: DisabledCatalog[] = [];
  const problems: string[] = [];
  for (const ns of GLOBAL_CATALOG_NAMESPACES) {
    let cm: ConfigMap;
    try {
      cm = await client.get<ConfigMap>(CONFIG_MAP_TYPE, DISABLED_CATALOGS_CONFIGMAP, ns);
    } catch (err) {
      if (isKubeError(err, 404)) continue;
      if (isKubeError(err, 403)) {
        problems.push(`the catalogs disabled in ${ns} could not be read: ${err.message}`);
        continue;
      }
      throw err;
    }
    const read = readRecords(ns, cm.data);
    problems.push(...read.problems);
    for (const r of read.catalogs) {
      const verdict = checked(r);
      if ('problem' in verdict) {
        problems.push(verdict.problem);
        continue;
      }
      const c = verdict.catalog;
      if (present.some((p) => p.metadata?.namespace === ns && p.metadata?.name === c.name))
        problems.push(
          `CatalogSource ${ns}/${c.name} exists again though ConfigMap ${ns}/${DISABLED_CATALOGS_CONFIGMAP} still records it as disabled (made again outside the console): the record is stale`,
        );
      else catalogs.push(c);
    }
  }
  return { catalogs, problems };
}

async function readConfigMap(client: KubeClient, namespace: string): Promise<ConfigMap | undefined> {
  try {
    return await client.get<ConfigMap>(CONFIG_MAP_TYPE, DISABLED_CATALOGS_CONFIGMAP, namespace);
  } catch (err) {
    if (isKubeError(err, 404)) return undefined;
    throw err;
  }
}

/** Sets or removes one entry, at the resourceVersion just read (retried when it moved). */
async function writeEntry(
  client: KubeClient,
  namespace: string,
  key: string,
  value: string | undefined,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const cm = await readConfigMap(client, namespace);
    try {
      if (!cm) {
        if (value === undefined) return;
        await client.create(
          CONFIG_MAP_TYPE,
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: DISABLED_CATALOGS_CONFIGMAP, namespace },
            data: { [key]: value },
          },
          { namespace },
        );
        return;
      }
      const data = { ...cm.data };
      if (value === undefined) delete data[key];
      else data[key] = value;
      await client.replace(CONFIG_MAP_TYPE, { apiVersion: 'v1', kind: 'ConfigMap', metadata: cm.metadata, data });
      return;
    } catch (err) {
      if (!(isKubeError(err, 409) && attempt < 5)) throw err;
    }
  }
}

const both = (a: Allowed, b: Allowed): Allowed => (a.allowed ? b : a);

function checkNamespace(namespace: string): void {
  if (!GLOBAL_CATALOG_NAMESPACES.includes(namespace))
    throw new ApiError(
      400,
      'BadRequest',
      `namespace: only a catalog of a global catalog namespace (${GLOBAL_CATALOG_NAMESPACES.join(', ')}) is disabled and enabled here; delete ${namespace}'s catalogs instead`,
    );
}

/** Disabling: the delete's plan, with the record kept and the rights both writes need. */
export async function planDisable(
  client: KubeClient,
  namespace: string,
  name: string,
  seen: string,
): Promise<CatalogSourcePlan> {
  checkNamespace(namespace);
  const cs = await client.get<CatalogSource>(CATALOG_SOURCE_TYPE, name, namespace);
  if (isManagedByMarketplace(cs))
    throw new ApiError(
      409,
      'Conflict',
      `${name} is one of OpenShift's default sources: its marketplace operator would make it again at once; disable it under Default sources instead`,
    );
  const del = await planCatalogSourceChange(client, { action: 'delete', namespace, name, seen });
  const record = await accessReview(client, 'update', '', 'configmaps', namespace);
  const warnings = del.warnings.filter((w) => !w.startsWith('OLM deletes the catalog pod'));
  return {
    ...del,
    action: 'disable',
    allowed: both(del.allowed, record),
    warnings: [
      `OLM has no switch to disable a catalog: the console deletes CatalogSource ${namespace}/${name} (OLM then removes its pod and Service, and its packages leave OperatorHub) and keeps its definition in ConfigMap ${namespace}/${DISABLED_CATALOGS_CONFIGMAP}, so that Enable makes it again as it is.`,
      ...warnings,
    ],
  };
}

export async function applyDisable(
  client: KubeClient,
  namespace: string,
  name: string,
  seen: string,
): Promise<{ plan: CatalogSourcePlan }> {
  const plan = await planDisable(client, namespace, name, seen);
  const cs = await client.get<CatalogSource>(CATALOG_SOURCE_TYPE, name, namespace);
  const who = await whoAmI(client).catch(() => '');
  const seal = recordSeal();
  const { key, value } = recordOf(cs, new Date().toISOString(), who || undefined, (c) => seal.sign(c));
  await writeEntry(client, namespace, key, value);
  try {
    await client.delete(CATALOG_SOURCE_TYPE, name, {
      namespace,
      ...(plan.readAt ? { resourceVersion: plan.readAt } : {}),
    });
  } catch (err) {
    const undo = await writeEntry(client, namespace, key, undefined).then(
      () => 'its record was taken back out',
      (e: Error) =>
        `its record could not be taken back out (${e.message}): remove key ${key} from ConfigMap ${namespace}/${DISABLED_CATALOGS_CONFIGMAP}`,
    );
    if (isKubeError(err))
      throw new ApiError(
        err.code,
        err.reason,
        `deleting CatalogSource ${namespace}/${name} failed: ${err.message}; ${undo}`,
      );
    throw err;
  }
  return { plan };
}

async function recordFor(client: KubeClient, namespace: string, name: string): Promise<DisabledCatalog> {
  const cm = await readConfigMap(client, namespace);
  const found = readRecords(namespace, cm?.data).catalogs.find((c) => c.name === name);
  if (!found)
    throw new ApiError(
      404,
      'NotFound',
      `no disabled catalog ${name} is recorded in ConfigMap ${namespace}/${DISABLED_CATALOGS_CONFIGMAP}`,
    );
  const verdict = checked(found);
  if ('problem' in verdict) throw new ApiError(409, 'Conflict', verdict.problem);
  return verdict.catalog;
}

/** Enabling: the CatalogSource to make again, and whether one of that name exists meanwhile. */
export async function planEnable(client: KubeClient, namespace: string, name: string): Promise<CatalogSourcePlan> {
  checkNamespace(namespace);
  const record = await recordFor(client, namespace, name);
  const [create, update] = await Promise.all([
    accessReview(client, 'create', 'operators.coreos.com', 'catalogsources', namespace),
    accessReview(client, 'update', '', 'configmaps', namespace),
  ]);
  const warnings = [
    `The console makes CatalogSource ${namespace}/${name} again as it was when ${record.disabledBy ?? 'someone'} disabled it (${record.disabledAt}); OLM starts its catalog pod, its packages come back to OperatorHub, and Subscriptions that install from it are healthy again.`,
  ];
  try {
    await client.get(CATALOG_SOURCE_TYPE, name, namespace);
    warnings.unshift(`A CatalogSource ${namespace}/${name} exists already: enabling would fail; its record is stale.`);
  } catch (err) {
    if (!isKubeError(err, 404) && !isKubeError(err, 403)) throw err;
  }
  return {
    action: 'enable',
    namespace,
    name,
    object: record.catalogSource,
    subscriptions: [],
    warnings,
    allowed: both(create, update),
  };
}

export async function applyEnable(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<{ plan: CatalogSourcePlan; warning?: string }> {
  const plan = await planEnable(client, namespace, name);
  await client.create<CatalogSource>(CATALOG_SOURCE_TYPE, plan.object!, { namespace });
  try {
    await writeEntry(client, namespace, name, undefined);
    return { plan };
  } catch (err) {
    return {
      plan,
      warning: `CatalogSource ${namespace}/${name} is back, but its record could not be removed from ConfigMap ${namespace}/${DISABLED_CATALOGS_CONFIGMAP} (${(err as Error).message}): the page lists it as stale until someone removes key ${name}`,
    };
  }
}
