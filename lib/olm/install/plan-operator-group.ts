// The OperatorGroup step of an install plan: the group OLM needs in the namespace (one per
// namespace, its targets shared by every operator there: docs/olm/operator-groups.md), and the
// service account it may name, with the rights the bundle needs when the person grants them.
import type { OperatorGroup } from '../resources/operator-group';
import { planOperatorGroup as decideOperatorGroup } from '../install-modes/wizard';
import { scopedInstallRbac } from './scoped-install';
import {
  CREATED_BY_LABEL,
  operatorGroupName,
  type InstallFacts,
  type Notice,
  type PlanDraft,
  type PlannedKind,
  type PlannedObject,
  type ScopedInstall,
} from './plan-types';

/**
 * Adds the group (and its account) to the draft when the install mode has targets; answers the
 * scoped install it makes, if any.
 */
export function planOperatorGroup(f: InstallFacts, d: PlanDraft, targets: string[]): ScopedInstall | undefined {
  const { objects, warnings, blockers } = d;
  const r = f.request;
  let scoped: ScopedInstall | undefined;
  if (targets.length > 0) {
    const og = decideOperatorGroup(
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

  return scoped;
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
