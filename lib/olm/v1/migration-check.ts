// Whether one operator OLM v0 installed can be handed to OLM v1 v1.2.0 as a ClusterExtension that
// installs the very same bundle, and every reason it cannot, in words. v1 has no migration of its
// own: a ClusterExtension pinned to the installed version must resolve to the installed bundle
// (resolve.ts), render it (render-bundle.ts: AllNamespaces only, no webhooks or API services), pass
// the CRD upgrade-safety preflight against the live CRDs, and find no dependency to resolve; what
// v0 does around the operator (OperatorGroup targets, dependencies it installed, OperatorConditions,
// copies in other namespaces) has no v1 counterpart. The bundle's manifests come from the catalog
// or from its image, as v1 would pull it; either way they only name what v1 would render. Of the
// objects v1 would render, those that exist must be what OLM v0 installed for this CSV and no
// shared role (v0-ownership.ts): the catalog, or the image it names, chose their names. Pure: the
// server gathers the facts as the person, and reads the resolved bundle's manifests once the check
// has said which bundle that is.
// docs/olm-v1/migration.md.
import {
  isCopiedCsv,
  ownedCrds,
  targetNamespacesOf,
  type ClusterServiceVersion,
} from '../resources/cluster-service-version';
import type { FbcBundle } from '../fbc/types';
import type { OperatorCondition } from '../resources/operator-condition';
import type { OperatorGroup } from '../resources/operator-group';
import type { Subscription } from '../resources/subscription';
import { renderBundle } from './render-bundle';
import { resolveBundle, type CatalogPackage } from './resolve';
import { adoptionRefusal, describeObject, type LiveObject } from './v0-ownership';

type Obj = { apiVersion: string; kind: string; metadata: Record<string, unknown> } & Record<string, unknown>;

export type MigrationReasonCode =
  | 'copied'
  | 'not-running'
  | 'no-subscription'
  | 'operator-group'
  | 'install-mode'
  | 'dependency'
  | 'required-by'
  | 'webhooks'
  | 'api-services'
  | 'operator-conditions'
  | 'no-olm-v1'
  | 'catalogs'
  | 'not-in-catalogs'
  | 'not-reachable'
  | 'other-bundle'
  | 'no-manifests'
  | 'render'
  | 'stored-version'
  | 'installed-elsewhere'
  | 'extension-exists'
  | 'extension-name'
  | 'owned-elsewhere'
  | 'shared-role'
  | 'not-installed-by-v0'
  | 'unreadable';

/** An object v1 would render, as a reason names it. */
export interface MigrationObjectRef {
  kind: string;
  name: string;
  namespace?: string;
}

export interface MigrationReason {
  code: MigrationReasonCode;
  message: string;
  /** The existing object the reason is about, when it is about one. */
  object?: MigrationObjectRef;
}

/** What a live CRD keeps that the preflight compares against (status.storedVersions). */
export interface LiveCrd {
  name: string;
  storedVersions: string[];
}

/**
 * An object v1 will render that already exists: its marks as the cluster shows them (uid, labels,
 * ownerReferences: what says whether OLM v0 installed it, v0-ownership.ts), with the Helm release
 * it belongs to, if any.
 */
export interface ExistingObject extends LiveObject {
  /** meta.helm.sh/release-name and -namespace with app.kubernetes.io/managed-by=Helm, when all three are set. */
  helmRelease?: { name: string; namespace: string };
  /** The refusal to read it: whether Helm may adopt it cannot be told. */
  unreadable?: string;
  /**
   * The values of Helm's three marks now, and of OLM v0's `operators.coreos.com/<package>.<namespace>`
   * component label (absent ones left out), so that adoption can be undone.
   */
  marks: { managedBy?: string; releaseName?: string; releaseNamespace?: string; component?: string };
}

/** Where the bundle's manifests were read: the catalog's own objects, or the image at this digest. */
export type MigrationContentSource = { from: 'catalog' } | { from: 'image'; image: string; digest: string };

/** The resolved bundle's manifests (its CSV apart), or why they cannot be known (the reader's words). */
export type MigrationBundleContent = { csv: Obj; others: Obj[]; source: MigrationContentSource } | { unknown: string };

export interface MigrationFacts {
  csv: ClusterServiceVersion;
  /** The Subscription whose installedCSV is this CSV. */
  subscription?: Subscription;
  /** Every OperatorGroup in the CSV's namespace (OLM v0 needs exactly one). */
  operatorGroups: OperatorGroup[];
  /** The other CSVs the InstallPlans that installed this one installed with it (v0 dependencies). */
  installedWith: string[];
  /** Other CSVs (namespace/name) that require an API this CSV owns. */
  requiredBy: { csv: string; api: string }[];
  /** The same package installed by OLM v0 in other namespaces. */
  alsoInstalledIn: string[];
  /** Why the cluster's CSVs could not be listed, when so: requiredBy and alsoInstalledIn are then unknown. */
  otherOperatorsUnreadable?: string;
  /** The CSV's OperatorCondition, or the refusal to read it. */
  operatorCondition?: OperatorCondition | { unreadable: string };
  /** null where the cluster does not serve OLM v1; a string where the catalogs could not be read. */
  catalogs: CatalogPackage[] | null | string;
  /**
   * The manifests of the bundle v1 resolves to, read by the server once a first check named it
   * (the verdict's `read`); absent before, or read for another bundle, the check asks for them.
   */
  content?: { catalog: string; bundle: string; read: MigrationBundleContent };
  /** The name the ClusterExtension would take, and the ClusterExtensions already there. */
  extensionName: string;
  extensions: { name: string; packageName?: string }[];
  liveCrds: LiveCrd[];
  /** The objects v1 will render that exist now (looked up by the server after rendering). */
  existing: ExistingObject[];
}

const refOf = (e: ExistingObject): MigrationObjectRef => ({
  kind: e.kind,
  name: e.name,
  ...(e.namespace ? { namespace: e.namespace } : {}),
});

/**
 * Why existing objects may not be handed to v1: one it may not read, one of another Helm release,
 * and any that OLM v0 did not install for this CSV or that is a shared role (v0-ownership.ts).
 */
function existingReasons(f: MigrationFacts): MigrationReason[] {
  const csv = f.csv.metadata ?? {};
  const install = {
    csv: csv.name ?? '',
    namespace: csv.namespace ?? '',
    uid: csv.uid ?? '',
    ownedCrds: ownedCrds(f.csv).map((c) => c.name),
  };
  const out: MigrationReason[] = [];
  for (const e of f.existing) {
    if (e.unreadable) {
      out.push({
        code: 'unreadable',
        message: `whether OLM v0 installed ${describeObject(e)} cannot be told: ${e.unreadable}`,
        object: refOf(e),
      });
      continue;
    }
    if (e.helmRelease && (e.helmRelease.name !== f.extensionName || e.helmRelease.namespace !== install.namespace)) {
      out.push({
        code: 'owned-elsewhere',
        message: `${e.kind} ${e.name} already belongs to the Helm release ${e.helmRelease.namespace}/${e.helmRelease.name}`,
        object: refOf(e),
      });
      continue;
    }
    // Marked for this very release already (a move tried before) or not: Helm would take it over
    // either way, so it must be this CSV's as much as any other.
    const refused = adoptionRefusal(e, install);
    if (refused) out.push({ ...refused, object: refOf(e) });
  }
  return out;
}

export interface MigrationTarget {
  packageName: string;
  channel?: string;
  version: string;
  bundle: string;
  catalog: string;
  /** Where the manifests v1 would render were read. */
  source: MigrationContentSource;
  /** What v1 will apply, in render order, before Helm's marks. */
  objects: Obj[];
}

export type MigrationVerdict =
  | { canMove: true; target: MigrationTarget }
  | {
      canMove: false;
      reasons: MigrationReason[];
      /** The bundle whose manifests the check needs before it can say more (MigrationFacts.content). */
      read?: { catalog: string; bundle: FbcBundle };
    };

const PACKAGE_LABEL_PREFIX = 'operators.coreos.com/';

/** The package a Subscription names, or the CSV's `operators.coreos.com/<package>.<namespace>` label. */
function packageOf(f: MigrationFacts): string | undefined {
  if (f.subscription?.spec?.name) return f.subscription.spec.name;
  const ns = f.csv.metadata?.namespace ?? '';
  const label = Object.keys(f.csv.metadata?.labels ?? {}).find(
    (k) => k.startsWith(PACKAGE_LABEL_PREFIX) && k.endsWith(`.${ns}`),
  );
  return label?.slice(PACKAGE_LABEL_PREFIX.length, label.length - ns.length - 1);
}

/** What v0 does around the operator that v1 has no counterpart for. */
function v0Reasons(f: MigrationFacts): MigrationReason[] {
  const out: MigrationReason[] = [];
  const csv = f.csv;
  const ns = csv.metadata?.namespace ?? '';
  if (csv.status?.phase !== 'Succeeded')
    out.push({
      code: 'not-running',
      message: `the operator is ${csv.status?.phase || 'not yet installed'}, not Succeeded: only a running operator is moved`,
    });
  if (!f.subscription)
    out.push({
      code: 'no-subscription',
      message: `no Subscription in ${ns} has ${csv.metadata?.name ?? ''} installed, so its channel is unknown`,
    });
  if (f.operatorGroups.length !== 1)
    out.push({
      code: 'operator-group',
      message: `${ns} has ${f.operatorGroups.length} OperatorGroups; OLM v0 needs exactly one to say what the operator watches`,
    });
  const targets = targetNamespacesOf(csv) ?? f.operatorGroups[0]?.status?.namespaces;
  if (targets && !(targets.length === 1 && targets[0] === ''))
    out.push({
      code: 'install-mode',
      message:
        `the operator watches ${targets.join(', ')}; OLM v1.2.0 installs an operator only for all namespaces ` +
        '(its SingleOwnNamespaceInstallSupport feature gate is off by default)',
    });
  for (const other of f.installedWith)
    out.push({
      code: 'dependency',
      message: `OLM v0 installed ${other} with it as a dependency; OLM v1.2.0 resolves no dependencies`,
    });
  for (const r of f.requiredBy)
    out.push({
      code: 'required-by',
      message: `${r.csv} requires ${r.api}, which this operator provides; OLM v0 would look for another provider`,
    });
  if (csv.spec.webhookdefinitions?.length)
    out.push({ code: 'webhooks', message: 'the operator defines webhooks, which OLM v1.2.0 cannot install' });
  if (csv.spec.apiservicedefinitions?.owned?.length)
    out.push({ code: 'api-services', message: 'the operator serves APIServices, which OLM v1.2.0 cannot install' });
  const oc = f.operatorCondition && 'unreadable' in f.operatorCondition ? undefined : f.operatorCondition;
  if (f.operatorCondition && 'unreadable' in f.operatorCondition)
    out.push({
      code: 'operator-conditions',
      message: `whether its OperatorCondition is in use cannot be told: ${f.operatorCondition.unreadable}`,
    });
  const inUse = [...(oc?.spec?.conditions ?? []), ...(oc?.spec?.overrides ?? [])].map((c) => c.type);
  if (inUse.length)
    out.push({
      code: 'operator-conditions',
      message: `its OperatorCondition is in use (${[...new Set(inUse)].join(', ')}); OLM v1 has no OperatorConditions`,
    });
  if (f.otherOperatorsUnreadable)
    out.push({
      code: 'unreadable',
      message: `whether other operators need or share its APIs cannot be told: ${f.otherOperatorsUnreadable}`,
    });
  for (const other of f.alsoInstalledIn)
    out.push({
      code: 'installed-elsewhere',
      message: `OLM v0 also installs this package in ${other}, which shares its CRDs`,
    });
  return out;
}

/** The live CRDs' stored versions the bundle's CRDs would drop: v1's NoStoredVersionRemoved preflight. */
function storedVersionReasons(objects: readonly Obj[], live: readonly LiveCrd[]): MigrationReason[] {
  const out: MigrationReason[] = [];
  for (const o of objects) {
    if (o.kind !== 'CustomResourceDefinition') continue;
    const name = String(o.metadata.name ?? '');
    const versions = new Set(
      ((o.spec as { versions?: { name: string }[] } | undefined)?.versions ?? []).map((v) => v.name),
    );
    for (const stored of live.find((c) => c.name === name)?.storedVersions ?? [])
      if (!versions.has(stored))
        out.push({
          code: 'stored-version',
          message: `CRD ${name} keeps objects stored as ${stored}, which the bundle's CRD drops; v1's upgrade-safety preflight refuses that`,
        });
  }
  return out;
}

export function checkMigration(f: MigrationFacts): MigrationVerdict {
  if (isCopiedCsv(f.csv))
    return {
      canMove: false,
      reasons: [
        {
          code: 'copied',
          message: `this is OLM v0's copy of the operator installed in ${f.csv.metadata?.labels?.['olm.copiedFrom'] ?? 'another namespace'}: move it from there`,
        },
      ],
    };
  const reasons = v0Reasons(f);
  const pkg = packageOf(f);
  const version = f.csv.spec.version;
  const csvName = f.csv.metadata?.name ?? '';
  if (f.catalogs === null) {
    reasons.push({ code: 'no-olm-v1', message: 'this cluster does not run OLM v1 (no ClusterCatalogs are served)' });
    return { canMove: false, reasons };
  }
  if (typeof f.catalogs === 'string') {
    reasons.push({ code: 'catalogs', message: f.catalogs });
    return { canMove: false, reasons };
  }
  if (!pkg || !version) return { canMove: false, reasons };
  // Helm's release name is the ClusterExtension's: at most 53 characters (chartutil ValidateReleaseName).
  if (f.extensionName.length > 53)
    reasons.push({
      code: 'extension-name',
      message: `the ClusterExtension would be named ${f.extensionName}, longer than the 53 characters Helm allows a release`,
    });
  const taken = f.extensions.find((e) => e.name === f.extensionName);
  if (taken)
    reasons.push({
      code: 'extension-exists',
      message: `a ClusterExtension named ${f.extensionName} already exists`,
    });
  for (const e of f.extensions)
    if (e.packageName === pkg && e !== taken)
      reasons.push({ code: 'extension-exists', message: `ClusterExtension ${e.name} already installs ${pkg}` });
  const carrying = f.catalogs.filter((c) => 'error' in c.fbc || c.fbc.packages.some((p) => p.name === pkg));
  if (!carrying.length) {
    reasons.push({ code: 'not-in-catalogs', message: `no ClusterCatalog you may read carries the package ${pkg}` });
    return { canMove: false, reasons };
  }
  const channel = f.subscription?.spec?.channel;
  const resolved = resolveBundle(
    { packageName: pkg, version, ...(channel ? { channels: [channel] } : {}) },
    f.catalogs,
  );
  if ('error' in resolved) {
    reasons.push({
      code: 'not-reachable',
      message: `OLM v1 cannot install version ${version}${channel ? ` from channel ${channel}` : ''}: ${resolved.error}`,
    });
    return { canMove: false, reasons };
  }
  if (resolved.bundle.name !== csvName) {
    reasons.push({
      code: 'other-bundle',
      message: `OLM v1 would install bundle ${resolved.bundle.name} from ${resolved.catalog}, not the installed ${csvName}`,
    });
    return { canMove: false, reasons };
  }
  const content = f.content;
  if (!content || content.catalog !== resolved.catalog || content.bundle !== resolved.bundle.name)
    return { canMove: false, reasons, read: { catalog: resolved.catalog, bundle: resolved.bundle } };
  if ('unknown' in content.read) {
    reasons.push({
      code: 'no-manifests',
      message:
        `the objects OLM v1 would take over cannot be listed, since the manifests of ${csvName} ` +
        `(ClusterCatalog ${resolved.catalog}) are not known: ${content.read.unknown}`,
    });
    return { canMove: false, reasons };
  }
  const rendered = renderBundle(content.read.csv, content.read.others, f.csv.metadata?.namespace ?? '');
  if ('error' in rendered) {
    // The v0 reasons already say it in words for these; v1's own text for the rest.
    const known = reasons.some((r) => ['install-mode', 'webhooks', 'api-services'].includes(r.code));
    if (!known) reasons.push({ code: 'render', message: `OLM v1 refuses the bundle: ${rendered.error}` });
    return { canMove: false, reasons };
  }
  reasons.push(...storedVersionReasons(rendered.objects, f.liveCrds));
  reasons.push(...existingReasons(f));
  if (reasons.length) return { canMove: false, reasons };
  return {
    canMove: true,
    target: {
      packageName: pkg,
      ...(channel ? { channel } : {}),
      version: resolved.version,
      bundle: resolved.bundle.name,
      catalog: resolved.catalog,
      source: content.read.source,
      objects: rendered.objects,
    },
  };
}
