// Installing a package as an OLM v1 ClusterExtension, planned (docs/olm-v1/install.md): the
// objects to create in the order they must exist — the namespace (operator-controller never creates
// it: Helm runs with CreateNamespace=false), the ServiceAccount whose token v1 installs with, the
// rights that account needs for this bundle (installer-rbac.ts), and last the ClusterExtension, so
// that v1's first reconcile finds everything; what v1 would resolve to now and whether v1.2.0 can
// install that bundle at all, in its words; and what the person may not do, from the cluster.
import type { PlannedObject } from '../install/plan-types';
import type { LabelSelector } from '../resources/common';
import { installerRbac } from './installer-rbac';
import type { UpgradeConstraintPolicy } from './resolve';

export interface V1InstallRequest {
  /** The ClusterExtension's name (also Helm's release name, so at most 53 characters). */
  name: string;
  packageName: string;
  namespace: string;
  serviceAccount: string;
  /** Create the account's rights with the install (the person may create RBAC). */
  grant: boolean;
  version?: string;
  channels: string[];
  selector?: LabelSelector;
  upgradeConstraintPolicy: UpgradeConstraintPolicy;
}

export interface V1InstallFacts {
  request: V1InstallRequest;
  namespaceExists: boolean | 'unknown';
  serviceAccountExists: boolean | 'unknown';
  /** A ClusterExtension of that name, when there is one: what v1 says of it. */
  existing?: {
    packageName?: string;
    conditions: { type: string; status: string; reason?: string; message?: string }[];
  };
  /** What v1 would install now (resolve.ts), or its error. */
  resolution: { bundle: string; version: string; catalog: string } | { error: string };
  /** The bundle as v1 renders it (render-bundle.ts), its error in v1's words, or why it is not known. */
  rendered?: { objects: Record<string, unknown>[] } | { error: string } | { unknown: string };
  /**
   * Installer rights objects (`<extension>-installer`) already there, as `Kind name`: the rights are
   * not owned by the extension, so an earlier install of the same name leaves them behind.
   */
  rbacExisting?: string[];
  /** The API server's refusal of the ClusterExtension in a dry run (its validation), if any. */
  invalid?: string;
  /** What the person may not do, with the cluster's reason (SelfSubjectAccessReview). */
  denied: {
    createNamespace?: string;
    createServiceAccount?: string;
    createExtension?: string;
    grantRbac?: string;
  };
}

export interface V1Notice {
  code:
    | 'forbidden'
    | 'exists'
    | 'invalid'
    | 'unresolved'
    | 'unsupported'
    | 'rightsUnknown'
    | 'rightsNotGranted'
    | 'accountExists'
    | 'namespaceUnknown'
    | 'selfCertified'
    | 'unmarked';
  message: string;
}

export interface V1InstallPlan {
  objects: PlannedObject[];
  resolution: V1InstallFacts['resolution'];
  /** The account's rights for the resolved bundle, whether or not the plan creates them. */
  rbac: Record<string, unknown>[];
  /** The plan creates the rights (else they are for an administrator to apply). */
  granted: boolean;
  warnings: V1Notice[];
  blockers: V1Notice[];
  existing?: V1InstallFacts['existing'];
}

const meta = (o: Record<string, unknown>) => (o.metadata ?? {}) as { name?: string; namespace?: string };

export function clusterExtensionObject(r: V1InstallRequest): Record<string, unknown> {
  return {
    apiVersion: 'olm.operatorframework.io/v1',
    kind: 'ClusterExtension',
    metadata: { name: r.name },
    spec: {
      namespace: r.namespace,
      serviceAccount: { name: r.serviceAccount },
      source: {
        sourceType: 'Catalog',
        catalog: {
          packageName: r.packageName,
          ...(r.version ? { version: r.version } : {}),
          ...(r.channels.length ? { channels: r.channels } : {}),
          ...(r.selector ? { selector: r.selector } : {}),
          upgradeConstraintPolicy: r.upgradeConstraintPolicy,
        },
      },
    },
  };
}

export function planV1Install(f: V1InstallFacts): V1InstallPlan {
  const r = f.request;
  const warnings: V1Notice[] = [];
  const blockers: V1Notice[] = [];
  const objects: PlannedObject[] = [];
  const add = (o: Record<string, unknown>, action: PlannedObject['action'] = 'create') =>
    objects.push({
      action,
      kind: o.kind as PlannedObject['kind'],
      name: meta(o).name ?? '',
      ...(meta(o).namespace ? { namespace: meta(o).namespace } : {}),
      object: o,
    });

  if (f.existing)
    blockers.push({
      code: 'exists',
      message: `A ClusterExtension named ${r.name} already exists${
        f.existing.packageName ? ` (package ${f.existing.packageName})` : ''
      }: choose another name.`,
    });
  if (f.invalid) blockers.push({ code: 'invalid', message: f.invalid });

  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: r.namespace } };
  if (f.namespaceExists === true) add(ns, 'reuse');
  else if (f.namespaceExists === 'unknown' && f.denied.createNamespace) {
    // A namespace admin may not read or create namespaces: theirs exists, or nothing they do can make it.
    add(ns, 'reuse');
    warnings.push({
      code: 'namespaceUnknown',
      message: `You may not read namespace ${r.namespace}: the install takes it as existing (and fails at the ServiceAccount if it does not).`,
    });
  } else {
    add(ns);
    if (f.denied.createNamespace && f.namespaceExists === false)
      blockers.push({
        code: 'forbidden',
        message: `Namespace ${r.namespace} does not exist and you may not create namespaces: ${f.denied.createNamespace}`,
      });
  }
  const sa = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: r.serviceAccount, namespace: r.namespace } };
  if (f.serviceAccountExists === true) {
    add(sa, 'reuse');
    warnings.push({
      code: 'accountExists',
      message: `ServiceAccount ${r.serviceAccount} already exists in ${r.namespace}: v1 installs with whatever rights it holds, and anything it can already do, the operator's installer can too.`,
    });
  } else {
    add(sa);
    if (f.denied.createServiceAccount)
      blockers.push({
        code: 'forbidden',
        message: `You may not create ServiceAccounts in ${r.namespace}: ${f.denied.createServiceAccount}`,
      });
  }

  if ('error' in f.resolution)
    warnings.push({
      code: 'unresolved',
      message: `v1 would not find a bundle to install right now; the ClusterExtension would keep retrying with: ${f.resolution.error}`,
    });
  const rendered = f.rendered;
  let rbac: Record<string, unknown>[] = [];
  if (rendered && 'error' in rendered) {
    const res = f.resolution as { bundle: string; version: string };
    warnings.push({
      code: 'unsupported',
      message: `operator-controller v1.2.0 cannot install this bundle: ${rendered.error} for resolved bundle "${res.bundle}" with version "${res.version}"`,
    });
  } else if (rendered && 'unknown' in rendered) {
    warnings.push({
      code: 'rightsUnknown',
      message: `The rights ${r.serviceAccount} needs are not known here (${rendered.unknown}); an administrator must grant them, or v1 keeps retrying in Forbidden words.`,
    });
  } else if (rendered) {
    rbac = installerRbac({
      manifests: rendered.objects,
      namespace: r.namespace,
      serviceAccount: r.serviceAccount,
      extensionName: r.name,
    });
  }
  const granted = rbac.length > 0 && r.grant && !f.denied.grantRbac;
  if (granted && f.rbacExisting?.length)
    blockers.push({
      code: 'exists',
      message: `${f.rbacExisting.join(', ')} already exist${f.rbacExisting.length === 1 ? 's' : ''} (left by an earlier install of ${r.name}?): delete ${f.rbacExisting.length === 1 ? 'it' : 'them'}, choose another name, or leave the rights to an administrator.`,
    });
  if (granted) for (const o of rbac) add(o);
  else if (rbac.length)
    warnings.push({
      code: 'rightsNotGranted',
      message: f.denied.grantRbac
        ? `You may not grant ${r.serviceAccount} the rights it needs (${f.denied.grantRbac}): copy them for an administrator. Until they are applied, v1 retries the install in Forbidden words.`
        : `The rights ${r.serviceAccount} needs are left to you: until they are applied, v1 retries the install in Forbidden words.`,
    });

  if (r.upgradeConstraintPolicy === 'SelfCertified')
    warnings.push({
      code: 'selfCertified',
      message:
        'SelfCertified: v1 will move to any version the version field allows, downgrades and skipped upgrade paths included, without checking the catalog’s upgrade edges.',
    });

  add(clusterExtensionObject(r));
  if (f.denied.createExtension)
    blockers.push({ code: 'forbidden', message: `You may not create ClusterExtensions: ${f.denied.createExtension}` });
  return {
    objects,
    resolution: f.resolution,
    rbac,
    granted,
    warnings,
    blockers,
    ...(f.existing ? { existing: f.existing } : {}),
  };
}
