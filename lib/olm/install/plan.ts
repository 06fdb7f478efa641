// What an install will do, decided before anything is written: the Namespace, OperatorGroup and
// Subscription it creates or reuses, every warning about what OLM will do with them, and what
// blocks it. Pure: the server gathers the cluster's facts as the person, this decides.
// OLM's rules it applies: one OperatorGroup per namespace and its targets shared by every
// operator there (docs/olm/operator-groups.md, docs/olm/install-modes.md), one InstallPlan per namespace, so one Manual subscription makes every
// upgrade in the namespace wait (docs/olm/install-plans.md#one-plan-per-namespace), and Automatic approval moving a non-head install to the
// head at once (docs/olm/upgrade-graphs.md#update-paths).
import type { InstallMode, InstallModeType } from '../resources/cluster-service-version';
import { isCommunityCatalog } from '../resources/catalog-source';
import { Keys } from '../resources/common';
import type { NamespaceTemplate } from '../resources/csv-description';
import type { OperatorGroup } from '../resources/operator-group';
import { SUBSCRIPTION_TYPE, type Approval, type Subscription } from '../resources/subscription';
import { sameConfig, type SubscriptionConfig } from '../resources/subscription-config';
import { groupSurface, operatorGroupsIntersect, parseProvidedAPIs } from '../install-modes/provided-apis';
import { planOperatorGroup, targetsFor } from '../install-modes/wizard';
import { scopedInstallRbac, type BundleContent, type ScopedRbac } from './scoped-install';
import type { CsvOpenShiftOptions, OpenShiftClusterFacts, OpenShiftOptionsView } from './openshift-options';
import { planOpenShiftOptions, type OpenShiftChoices, type OpenShiftNoticeCode } from './openshift-plan';

export interface InstallRequest {
  catalog: { namespace: string; name: string };
  package: string;
  channel: string;
  /** The version picked (CSV name); the channel head when absent. */
  csvName?: string;
  namespace: string;
  installMode: InstallModeType;
  /** Watched namespaces for SingleNamespace / MultiNamespace. */
  targetNamespaces?: string[];
  approval: Approval;
  /** The Subscription's `spec.config` (pod placement, resources, environment…), if any. */
  config?: SubscriptionConfig;
  /**
   * Install with a service account's rights (the OperatorGroup's `serviceAccountName`): named
   * for a group the install creates; `grant` also creates the Role and bindings the bundle needs.
   */
  serviceAccount?: { name: string; grant: boolean };
  /** OpenShift's install options: cloud token values, console plugins to enable, cluster monitoring. */
  openshift?: OpenShiftChoices;
}

export interface VersionFacts {
  csvName: string;
  version?: string;
  isHead: boolean;
  headCsvName?: string;
  installModes: InstallMode[];
  /** `Kind.version.group` of every API the version owns. */
  providedApis: string[];
  suggestedNamespaceTemplate?: NamespaceTemplate;
  nonStandalone: boolean;
  deprecations: string[];
  /** `olm.package.required` (package and range) and `olm.gvk.required` (Kind.version.group). */
  requiredPackages?: { packageName: string; versionRange: string }[];
  requiredApis?: string[];
  /** What the CSV's annotations say about OpenShift's install options. */
  openshiftOptions?: CsvOpenShiftOptions;
}

export interface InstallFacts {
  request: InstallRequest;
  version: VersionFacts;
  catalog: { displayName?: string; publisher?: string };
  /** `unknown` when the person may not read namespaces. */
  namespaceExists: boolean | 'unknown';
  operatorGroups: OperatorGroup[];
  subscriptions: Subscription[];
  /** Subscriptions to the same package in other namespaces, when the person may list them. */
  elsewhere?: { namespace: string; name: string }[];
  /** Every OperatorGroup of the cluster, when the person may list them (provided-API conflicts). */
  clusterGroups?: OperatorGroup[];
  /** What the person may not do, with the cluster's reason (from SelfSubjectAccessReview). */
  denied: {
    createNamespace?: string;
    createOperatorGroup?: string;
    createSubscription?: string;
    createServiceAccount?: string;
    grantRbac?: string;
    monitoringRbac?: string;
  };
  /** The service accounts of the namespace, when an install with one is planned and they are readable. */
  serviceAccounts?: string[];
  /** The bundle's CSV and manifests, read when an install with a service account is planned. */
  bundle?: BundleContent;
  /**
   * The dependencies OLM would install with it (resolved from the same catalog, as OLM tries it
   * first) and their bundles; `unresolved` says why they could not all be known.
   */
  dependencyBundles?: { names: string[]; contents: BundleContent[]; unresolved?: string };
  /** OpenShift's cluster objects the install options read; absent on other clusters. */
  openshiftCluster?: OpenShiftClusterFacts;
}

export type PlannedKind =
  | 'Namespace'
  | 'ServiceAccount'
  | 'Role'
  | 'RoleBinding'
  | 'ClusterRole'
  | 'ClusterRoleBinding'
  | 'OperatorGroup'
  | 'Subscription'
  | 'Console';

export interface PlannedObject {
  /** `patch`: an existing object changed (only Console `cluster`'s spec.plugins), `change` says how. */
  action: 'create' | 'reuse' | 'patch';
  change?: string;
  /** For `patch`: the plugins to add, the rest of the list being whatever it is when applied. */
  adds?: string[];
  kind: PlannedKind;
  name: string;
  namespace?: string;
  object: Record<string, unknown>;
}

export type NoticeCode =
  | 'unsupportedInstallMode'
  | 'operatorGroupConflict'
  | 'alreadyInstalledHere'
  | 'subscriptionNameTaken'
  | 'forbidden'
  | 'alreadyInstalledElsewhere'
  | 'nonHeadForcesManual'
  | 'sharedApprovalManual'
  | 'manualAffectsOthers'
  | 'communityCatalog'
  | 'providedApiConflict'
  | 'deprecated'
  | 'nonStandalone'
  | 'namespaceUnknown'
  | 'namespaceNotSuggested'
  | 'dependencies'
  | 'scopedInstall'
  | 'serviceAccountMismatch'
  | OpenShiftNoticeCode;

export interface Notice {
  code: NoticeCode;
  message: string;
}

export interface InstallPlanResult {
  objects: PlannedObject[];
  /** The approval the Subscription gets (a non-head version forces Manual). */
  approval: Approval;
  startingCSV?: string;
  targets: string[];
  warnings: Notice[];
  /** Non-empty: the install cannot go ahead as asked. */
  blockers: Notice[];
  /** The same Subscription already exists: applying again changes nothing. */
  alreadyInstalled: boolean;
  /** OLM installs with the OperatorGroup's service account: which, and the rights it needs. */
  scoped?: ScopedInstall;
  /** On OpenShift: which of its install options apply to this version and namespace, and why not. */
  openshift?: OpenShiftOptionsView;
}

export interface ScopedInstall {
  serviceAccount: string;
  operatorGroup: string;
  /** The install creates the OperatorGroup (and so chose the account). */
  groupIsNew: boolean;
  accountExists: boolean | 'unknown';
  rbac: ScopedRbac;
  /** The plan creates the rbac objects. */
  granted: boolean;
  /** OLM installs the version's dependencies in the same plan, as the same account: whether their rules are in `rbac`, in words. */
  dependencies?: { included: boolean; message: string };
}

/** Marks what the console made, so uninstall can offer to remove a group it created. */
export const CREATED_BY_LABEL = 'olm-console.io/created-by';

export function operatorGroupName(namespace: string): string {
  return `${namespace}-operators`.slice(0, 63).replace(/-+$/, '');
}

function describeTargets(targets: readonly string[]): string {
  return targets[0] === '' ? 'all namespaces' : targets.join(', ');
}

export function planInstall(f: InstallFacts): InstallPlanResult {
  const r = f.request;
  const warnings: Notice[] = [];
  const blockers: Notice[] = [];
  const objects: PlannedObject[] = [];

  const picked = targetsFor(r.installMode, r.namespace, r.targetNamespaces ?? []);
  const targets = 'targets' in picked ? picked.targets : [];
  if ('error' in picked) blockers.push({ code: 'unsupportedInstallMode', message: picked.error });
  else if (!f.version.installModes.some((m) => m.type === r.installMode && m.supported)) {
    const supported = f.version.installModes.filter((m) => m.supported).map((m) => m.type);
    blockers.push({
      code: 'unsupportedInstallMode',
      message: `${f.version.csvName} does not support ${r.installMode}; it supports ${supported.join(', ') || 'no install mode'}`,
    });
  }

  // OpenShift's options change the Namespace, add objects after it and shape the Subscription.
  const os = planOpenShiftOptions({
    choices: r.openshift ?? {},
    cluster: f.openshiftCluster,
    csv: f.version.openshiftOptions ?? { tokenAuth: [], plugins: [], clusterMonitoring: false },
    csvKnown: !!f.version.openshiftOptions,
    catalogName: r.catalog.name,
    namespace: r.namespace,
    createsNamespace: f.namespaceExists === false,
    config: r.config,
    monitoringRbacDenied: f.denied.monitoringRbac,
  });
  blockers.push(...os.blockers);

  // Namespace.
  const template = f.version.suggestedNamespaceTemplate;
  // A namespace the person may not read but may not create either is taken to exist: creating
  // it could only fail, and if it is missing the OperatorGroup and Subscription writes say so.
  const assumeExists = f.namespaceExists === 'unknown' && !!f.denied.createNamespace;
  if (f.namespaceExists === true || assumeExists) {
    if (assumeExists)
      warnings.push({
        code: 'namespaceUnknown',
        message: `you may not read namespace ${r.namespace}; the plan assumes it exists`,
      });
    objects.push({
      action: 'reuse',
      kind: 'Namespace',
      name: r.namespace,
      object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: r.namespace } },
    });
  } else {
    if (f.namespaceExists === 'unknown')
      warnings.push({
        code: 'namespaceUnknown',
        message: `you may not read namespace ${r.namespace}; the plan creates it, and uses it as it is if it exists`,
      });
    const fromTemplate = template?.name === r.namespace ? template : undefined;
    const labels = { ...(fromTemplate?.labels ?? {}), ...os.namespaceLabels };
    const metadata = {
      name: r.namespace,
      ...(Object.keys(labels).length ? { labels } : {}),
      ...(fromTemplate && Object.keys(fromTemplate.annotations).length
        ? { annotations: fromTemplate.annotations }
        : {}),
    };
    objects.push({
      action: 'create',
      kind: 'Namespace',
      name: r.namespace,
      object: { apiVersion: 'v1', kind: 'Namespace', metadata },
    });
    if (f.denied.createNamespace)
      blockers.push({
        code: 'forbidden',
        message: `namespace ${r.namespace} does not exist and you may not create it: ${f.denied.createNamespace}`,
      });
  }
  for (const o of os.afterNamespace) objects.push({ action: 'create', ...o });
  if (template && template.name !== r.namespace) {
    warnings.push({
      code: 'namespaceNotSuggested',
      message: `the operator suggests namespace ${template.name}${Object.keys(template.labels).length ? ', created with its labels' : ''}; installing into ${r.namespace} does not apply the template's labels and annotations`,
    });
  }

  // OperatorGroup, and the service account it may name.
  let scoped: ScopedInstall | undefined;
  if (targets.length > 0) {
    const og = planOperatorGroup(
      f.operatorGroups,
      r.namespace,
      targets,
      f.version.installModes,
      operatorGroupName(r.namespace),
    );
    if (og.action === 'conflict') {
      if (!blockers.some((b) => b.code === 'unsupportedInstallMode'))
        blockers.push({ code: 'operatorGroupConflict', message: og.message });
    } else {
      const named =
        og.action === 'create' && r.serviceAccount
          ? { ...og.operatorGroup.spec, serviceAccountName: r.serviceAccount.name }
          : og.operatorGroup.spec;
      const group: OperatorGroup =
        og.action === 'create'
          ? {
              ...og.operatorGroup,
              metadata: { ...og.operatorGroup.metadata, labels: { [CREATED_BY_LABEL]: 'olm-console' } },
              spec: named,
            }
          : og.operatorGroup;
      const account = planServiceAccount(f, group, og.action === 'create', warnings, blockers);
      scoped = account?.scoped;
      objects.push(...(account?.objects ?? []));
      objects.push({
        action: og.action,
        kind: 'OperatorGroup',
        name: group.metadata?.name ?? '',
        namespace: r.namespace,
        object: group as Record<string, unknown>,
      });
      if (og.action === 'create' && f.denied.createOperatorGroup)
        blockers.push({
          code: 'forbidden',
          message: `namespace ${r.namespace} has no OperatorGroup and you may not create one: ${f.denied.createOperatorGroup}`,
        });
    }
  }

  // Subscription.
  const nonHead = !f.version.isHead;
  const approval: Approval = nonHead || os.forceManual ? 'Manual' : r.approval;
  if (os.forceManual && !nonHead && r.approval === 'Automatic') {
    warnings.push({
      code: 'tokenAuthForcesManual',
      message: `${os.view?.tokenAuth.reason}: the Subscription is made with Manual approval, as OpenShift's console makes it, so each upgrade waits until someone has checked the cloud role still grants what the new version needs`,
    });
  }
  if (nonHead && r.approval === 'Automatic') {
    warnings.push({
      code: 'nonHeadForcesManual',
      message: `${f.version.csvName} is not the head of channel ${r.channel}${f.version.headCsvName ? ` (${f.version.headCsvName} is)` : ''}: with Automatic approval OLM would upgrade it at once, so the Subscription is made with Manual approval`,
    });
  }
  const others = f.subscriptions.filter((s) => s.spec.name !== r.package);
  const manualOthers = others.filter((s) => s.spec.installPlanApproval === 'Manual');
  if (approval === 'Automatic' && manualOthers.length > 0) {
    warnings.push({
      code: 'sharedApprovalManual',
      message: `namespace ${r.namespace} has Manual subscriptions (${manualOthers.map((s) => s.metadata?.name).join(', ')}); OLM makes one InstallPlan per namespace, so this operator's installs and upgrades will wait for approval too`,
    });
  }
  if (approval === 'Manual' && others.length > manualOthers.length) {
    const auto = others.filter((s) => s.spec.installPlanApproval !== 'Manual');
    warnings.push({
      code: 'manualAffectsOthers',
      message: `namespace ${r.namespace} has Automatic subscriptions (${auto.map((s) => s.metadata?.name).join(', ')}); with this Manual one, any InstallPlan that touches them together waits for approval`,
    });
  }
  const subscription: Subscription = {
    apiVersion: `${SUBSCRIPTION_TYPE.group}/${SUBSCRIPTION_TYPE.version}`,
    kind: 'Subscription',
    metadata: { name: r.package, namespace: r.namespace },
    spec: {
      name: r.package,
      source: r.catalog.name,
      sourceNamespace: r.catalog.namespace,
      channel: r.channel,
      installPlanApproval: approval,
      ...(nonHead ? { startingCSV: f.version.csvName } : {}),
      ...(os.config ? { config: os.config as Record<string, unknown> } : {}),
    },
  };
  const same = f.subscriptions.find((s) => s.spec.name === r.package);
  let alreadyInstalled = false;
  if (same) {
    const matches =
      same.spec.source === r.catalog.name &&
      same.spec.sourceNamespace === r.catalog.namespace &&
      (same.spec.channel ?? '') === r.channel &&
      (same.spec.installPlanApproval ?? 'Automatic') === approval &&
      (same.spec.startingCSV ?? undefined) === subscription.spec.startingCSV &&
      sameConfig(same.spec.config, subscription.spec.config);
    if (matches) {
      alreadyInstalled = true;
      objects.push({
        action: 'reuse',
        kind: 'Subscription',
        name: same.metadata?.name ?? r.package,
        namespace: r.namespace,
        object: same as unknown as Record<string, unknown>,
      });
    } else {
      blockers.push({
        code: 'alreadyInstalledHere',
        message: `${r.package} is already subscribed in ${r.namespace} (Subscription ${same.metadata?.name}, channel ${same.spec.channel ?? 'default'}, ${same.spec.installPlanApproval ?? 'Automatic'} approval, from ${same.spec.sourceNamespace}/${same.spec.source}${sameConfig(same.spec.config, subscription.spec.config) ? '' : ', with another pod configuration'}); change that subscription, or uninstall it first`,
      });
    }
  } else {
    const taken = f.subscriptions.find((s) => s.metadata?.name === r.package);
    if (taken)
      blockers.push({
        code: 'subscriptionNameTaken',
        message: `namespace ${r.namespace} already has a Subscription named ${r.package}, for package ${taken.spec.name}`,
      });
    objects.push({
      action: 'create',
      kind: 'Subscription',
      name: r.package,
      namespace: r.namespace,
      object: subscription as unknown as Record<string, unknown>,
    });
    if (f.denied.createSubscription)
      blockers.push({
        code: 'forbidden',
        message: `you may not create Subscriptions in ${r.namespace}: ${f.denied.createSubscription}`,
      });
  }

  for (const e of f.elsewhere ?? []) {
    if (e.namespace === r.namespace) continue;
    warnings.push({
      code: 'alreadyInstalledElsewhere',
      message: `${r.package} is already installed in namespace ${e.namespace} (Subscription ${e.name}); two copies whose OperatorGroups overlap conflict over the APIs they own`,
    });
  }

  // Provided APIs already owned by another OperatorGroup that overlaps this one.
  if (f.clusterGroups && targets.length > 0 && f.version.providedApis.length > 0) {
    const mine = groupSurface(r.namespace, targets);
    for (const g of f.clusterGroups) {
      if (g.metadata?.namespace === r.namespace) continue;
      const theirs = groupSurface(g.metadata?.namespace ?? '', g.status?.namespaces ?? g.spec?.targetNamespaces ?? []);
      if (!operatorGroupsIntersect(mine, theirs)) continue;
      const owned = parseProvidedAPIs(g.metadata?.annotations?.[Keys.providedAPIs]);
      const clash = f.version.providedApis.filter((a) => owned.has(a));
      if (clash.length) {
        warnings.push({
          code: 'providedApiConflict',
          message: `OperatorGroup ${g.metadata?.name} in ${g.metadata?.namespace} overlaps ${describeTargets(targets)} and already provides ${clash.join(', ')}; OLM will fail this operator with InterOperatorGroupOwnerConflict`,
        });
      }
    }
  }

  if (
    isCommunityCatalog({
      name: f.request.catalog.name,
      displayName: f.catalog.displayName,
      publisher: f.catalog.publisher,
    })
  ) {
    warnings.push({
      code: 'communityCatalog',
      message: `${f.catalog.displayName || f.request.catalog.name} is a community catalog: its operators are not supported by the cluster's vendor`,
    });
  }
  const deps = [
    ...(f.version.requiredPackages ?? []).map((p) => `package ${p.packageName} ${p.versionRange}`),
    ...(f.version.requiredApis ?? []).map((a) => `an operator providing ${a}`),
  ];
  if (deps.length)
    warnings.push({
      code: 'dependencies',
      message: `${f.version.csvName} depends on ${deps.join(', ')}: OLM installs what is missing into ${r.namespace} from the cluster's catalogs, with its own Subscription`,
    });
  for (const d of f.version.deprecations) warnings.push({ code: 'deprecated', message: d });
  if (f.version.nonStandalone)
    warnings.push({
      code: 'nonStandalone',
      message: `${r.package} is marked non-standalone: it is meant to be installed as a dependency of another operator`,
    });

  // Last: nothing after it can fail and leave the Console changed for an operator not installed.
  if (os.consolePlugins) {
    const { before, after } = os.consolePlugins;
    objects.push({
      action: 'patch',
      kind: 'Console',
      name: 'cluster',
      adds: after.filter((p) => !before.includes(p)),
      change: `spec.plugins: ${before.length ? before.join(', ') : '(none)'} → ${after.join(', ')}`,
      object: {
        apiVersion: 'operator.openshift.io/v1',
        kind: 'Console',
        metadata: { name: 'cluster' },
        spec: { plugins: after },
      },
    });
  }
  warnings.push(...os.warnings);
  return {
    objects,
    approval,
    startingCSV: subscription.spec.startingCSV,
    targets,
    warnings,
    blockers,
    alreadyInstalled,
    ...(scoped ? { scoped } : {}),
    ...(os.view ? { openshift: os.view } : {}),
  };
}

/**
 * With a group that names a service account, OLM installs with that account's rights
 * (doc/design/scoped-operator-install.md): the account, and the Role and bindings this bundle
 * needs, are planned before the group, as OLM's docs order them.
 */
function planServiceAccount(
  f: InstallFacts,
  group: OperatorGroup,
  groupIsNew: boolean,
  warnings: Notice[],
  blockers: Notice[],
): { objects: PlannedObject[]; scoped: ScopedInstall } | undefined {
  const r = f.request;
  const groupName = group.metadata?.name ?? '';
  const name = group.spec?.serviceAccountName;
  if (!groupIsNew && r.serviceAccount && r.serviceAccount.name !== name) {
    blockers.push({
      code: 'serviceAccountMismatch',
      message: `OperatorGroup ${groupName} of namespace ${r.namespace} ${name ? `names service account ${name}` : 'names no service account'}, and OLM installs every operator there with ${name ? 'that account' : 'its own rights'}: change the group, or install without choosing an account`,
    });
    return undefined;
  }
  if (!name) return undefined;
  const accountExists = f.serviceAccounts ? f.serviceAccounts.includes(name) : 'unknown';
  const rbac = scopedInstallRbac(
    r.namespace,
    name,
    r.package,
    f.bundle ?? { unknown: 'the bundle was not read' },
    f.dependencyBundles?.contents ?? [],
  );
  const granted = !!r.serviceAccount?.grant;
  const objects: PlannedObject[] = [];
  warnings.push({
    code: 'scopedInstall',
    message: `OperatorGroup ${groupName} names service account ${name}: OLM creates this operator's objects and Deployments with ${name}'s rights, not its own${granted ? '' : '; until the account holds the rights listed under "Service account rights", the InstallPlan waits and says which one it lacks'}`,
  });
  if (accountExists === false) {
    objects.push({
      action: 'create',
      kind: 'ServiceAccount',
      name,
      namespace: r.namespace,
      object: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: r.namespace } },
    });
    if (f.denied.createServiceAccount) {
      const message = `service account ${name} does not exist in ${r.namespace} and you may not create it: ${f.denied.createServiceAccount}`;
      if (groupIsNew)
        blockers.push({
          code: 'forbidden',
          message: `${message}; ask an administrator to create it, or install without a service account`,
        });
      else warnings.push({ code: 'forbidden', message: `${message}; OLM installs nothing here until it exists` });
    }
  } else if (accountExists === 'unknown') {
    warnings.push({
      code: 'namespaceUnknown',
      message: `you may not list the service accounts of ${r.namespace}: the plan assumes ${name} exists (OLM waits until it does)`,
    });
  } else {
    objects.push({
      action: 'reuse',
      kind: 'ServiceAccount',
      name,
      namespace: r.namespace,
      object: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: r.namespace } },
    });
  }
  if (granted) {
    for (const o of rbac.objects) {
      const meta = o.metadata as { name: string; namespace?: string };
      objects.push({
        action: 'create',
        kind: o.kind as PlannedKind,
        name: meta.name,
        ...(meta.namespace ? { namespace: meta.namespace } : {}),
        object: o,
      });
    }
    if (f.denied.grantRbac)
      blockers.push({
        code: 'forbidden',
        message: `you may not grant service account ${name} its rights: ${f.denied.grantRbac}; install without granting them and hand the Role below to an administrator`,
      });
  }
  const deps = [...(f.version.requiredPackages ?? []).map((p) => p.packageName), ...(f.version.requiredApis ?? [])];
  const resolved = f.dependencyBundles;
  const included = !!resolved && !resolved.unresolved;
  const dependencies = !deps.length
    ? undefined
    : {
        included,
        message: included
          ? `${f.version.csvName} depends on ${deps.join(', ')}: OLM installs ${resolved!.names.join(', ') || 'nothing more'} with it, in the same InstallPlan and as ${name}, so their rules are in this Role too`
          : `${f.version.csvName} depends on ${deps.join(', ')}: what OLM installs for them goes into the same InstallPlan and is written as ${name} too, with rules not in this Role${resolved?.unresolved ? ` (${resolved.unresolved})` : ''}`,
      };
  return {
    objects,
    scoped: {
      serviceAccount: name,
      operatorGroup: groupName,
      groupIsNew,
      accountExists,
      rbac,
      granted,
      ...(dependencies ? { dependencies } : {}),
    },
  };
}
