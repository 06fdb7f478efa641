// InstallPlan execution (docs/olm/install-plans.md#phases): an approved plan's steps written in
// order, as the OperatorGroup's service account when it names one, with OLM's retries, backoff
// and timeout for the errors a cluster answers, and the plan's phase and conditions.

import type { UserInfo } from '../auth/rbac';

import { ApiStatusError } from '../server/http-util';
import type { KObject } from '../store/types';

import { type PlanStep } from './install-steps';

import { PlanStepError, createPrefix, planCondition, updatePrefix, type PlanStatus } from './plan-status';
import { CSV_FINALIZER, OperatorBase, now } from './operator-base';

import { RBAC_KINDS, type RbacKind } from '../auth/escalation';
import { checkAccess, checkNoEscalation, namespaceServiceAccount, serviceAccountUser } from './scoped';

/** The catalog operator's --install-plan-retry-timeout: errors other than Forbidden fail a plan after this long. */
const PLAN_RETRY_TIMEOUT_MS = 60_000;

export class PlanExecution extends OperatorBase {
  /** Fault injection: the next InstallPlan to execute fails with this message. */
  failNextInstallPlan?: string;
  /** Set by the wiring: runs the namespace's pass again after `ms` (a plan retrying until its timeout). */
  requeueAfter?: (ns: string, ms: number) => void;
  /** The namespace's RBAC when each failed scoped plan was first seen failed (by plan uid). */
  private readonly failedRbac = new Map<string, string>();
  /** How often each plan (by uid) has been refused in a row: its retry backs off as OLM's queue does. */
  private readonly refusals = new Map<string, number>();

  executePlans(ns: string): void {
    for (const plan of this.api.storeList(this.plans, ns)) this.executePlan(plan);
  }

  /** The namespace's Roles, RoleBindings and ServiceAccounts as they are now (what triggerInstallPlanRetry watches). */
  private rbacFingerprint(ns: string): string {
    return ['roles', 'rolebindings']
      .map((k) => this.res('rbac.authorization.k8s.io', 'v1', k))
      .concat(this.res('', 'v1', 'serviceaccounts'))
      .flatMap((r) =>
        this.api.storeList(r, ns).map((o) => `${r.resource}/${o.metadata.name}@${o.metadata.resourceVersion}`),
      )
      .sort()
      .join(',');
  }

  private executePlan(plan: KObject): void {
    const ns = plan.metadata.namespace ?? '';
    let st = (plan.status ?? {}) as PlanStatus;
    // The subscription sync writes the steps; until then there is nothing to do.
    if (!st.plan?.length && !st.bundleLookups?.length) return;
    // A scoped plan that failed goes back to Installing when someone changes the namespace's
    // Roles, RoleBindings or ServiceAccounts (installplan_sync.go triggerInstallPlanRetry).
    if (st.phase === 'Failed' && st.attenuatedServiceAccountRef) {
      const key = plan.metadata.uid ?? '';
      const current = this.rbacFingerprint(ns);
      const at = this.failedRbac.get(key);
      if (at === undefined) this.failedRbac.set(key, current);
      if (at === undefined || at === current) return;
      this.failedRbac.delete(key);
      plan = this.writeStatus(this.plans, plan, { ...st, phase: 'Installing' });
      st = plan.status as PlanStatus;
    }
    // Complete and Failed are terminal.
    if (st.phase === 'Failed' || st.phase === 'Complete') return;
    // Which account the namespace's OperatorGroup names, if any (syncInstallPlans): when that
    // cannot be said, the plan says why and waits.
    const scope = namespaceServiceAccount(this.api.storeList(this.ogs, ns));
    if (scope.error) {
      this.writeStatus(this.plans, plan, {
        ...st,
        conditions: planCondition(st.conditions, {
          type: 'Installed',
          status: 'False',
          reason: 'InstallCheckFailed',
          message: scope.error,
        }),
      });
      return;
    }
    // Once it can, the condition is reset (to reason Unknown, as OLM resets it), not removed.
    if (st.conditions?.find((c) => c.type === 'Installed')?.reason === 'InstallCheckFailed') {
      plan = this.writeStatus(this.plans, plan, {
        ...st,
        conditions: planCondition(st.conditions, { type: 'Installed', status: 'False', reason: 'Unknown' }),
      });
      st = plan.status as PlanStatus;
    }
    if (scope.ref && JSON.stringify(st.attenuatedServiceAccountRef) !== JSON.stringify(scope.ref)) {
      // Written on its own; the plan is executed on the next sync.
      this.writeStatus(this.plans, plan, { ...st, attenuatedServiceAccountRef: scope.ref });
      return;
    }
    if (st.phase === 'RequiresApproval' && (plan.spec as { approved?: boolean }).approved) {
      const { message: _m, ...rest } = st;
      void _m;
      plan = this.writeStatus(this.plans, plan, { ...rest, phase: 'Installing' });
    }
    const cur = (plan.status ?? {}) as PlanStatus;
    if (cur.phase !== 'Installing') return;
    if (this.failNextInstallPlan) {
      const message = this.failNextInstallPlan;
      this.failNextInstallPlan = undefined;
      this.writeStatus(this.plans, plan, {
        ...cur,
        phase: 'Failed',
        message,
        conditions: planCondition(cur.conditions, {
          type: 'Installed',
          status: 'False',
          reason: 'InstallComponentFailed',
          message,
        }),
      });
      return;
    }
    const steps = (cur.plan ?? []).map((s) => ({ ...s, resource: { ...s.resource } }));
    const startTime = cur.startTime ?? now();
    const todo = (s: PlanStep) => s.status === 'Unknown' || s.status === 'NotPresent';
    // Real OLM creates the CSV first and its olm operator checks it before the catalog operator
    // has written the service accounts and roles of the same plan: every new CSV passes through
    // Pending/RequirementsNotMet. The sandbox makes that order explicit: the CSVs and CRDs first
    // (in the plan's order), the rest once each CSV this plan created has had its first check.
    const early = (k: string) => k === 'CustomResourceDefinition' || k === 'ClusterServiceVersion';
    const held = this.heldRbac(plan, steps);
    try {
      // With the group's account, the plan's objects are written with a token of that account
      // (scoped.requestSAToken); the CRDs are still written by OLM itself.
      const user = cur.attenuatedServiceAccountRef ? this.attenuatedUser(cur.attenuatedServiceAccountRef) : undefined;
      for (const step of steps.filter((x) => todo(x) && early(x.resource.kind))) this.executeStep(plan, step, user);
      const unchecked = steps.some((x) => {
        if (x.resource.kind !== 'ClusterServiceVersion' || x.status !== 'Created') return false;
        const csv = this.exists(this.csvs, ns, x.resource.name);
        const cst = (csv?.status ?? {}) as { phase?: string; reason?: string };
        return !!csv && (!cst.phase || (cst.phase === 'Pending' && cst.reason === 'RequirementsUnknown'));
      });
      if (unchecked) {
        this.writeStatus(this.plans, plan, { ...cur, plan: steps, startTime });
        return;
      }
      for (const step of steps.filter((x) => todo(x) && !held.has(x))) this.executeStep(plan, step, user);
    } catch (err) {
      if (err instanceof PlanStepError) {
        // Forbidden is never terminal: nobody knows when the account gets its rights. Anything
        // else is retried for --install-plan-retry-timeout (1 min) from the start.
        const elapsed = Date.now() - Date.parse(startTime);
        if (err.forbidden || elapsed < PLAN_RETRY_TIMEOUT_MS) {
          this.writeStatus(this.plans, plan, {
            ...cur,
            plan: steps,
            startTime,
            message: `retrying execution due to error: ${err.message}`,
          });
          if (!err.forbidden) this.requeueAfter?.(ns, PLAN_RETRY_TIMEOUT_MS - elapsed + 50);
          else {
            // OLM's sync returns the error and its rate-limited queue tries the plan again after
            // 5 ms doubling up to 1000 s (client-go's default controller rate limiter): a right
            // granted cluster-wide, which no namespace event announces, is found that way.
            const n = (this.refusals.get(plan.metadata.uid ?? '') ?? 0) + 1;
            this.refusals.set(plan.metadata.uid ?? '', n);
            this.requeueAfter?.(ns, Math.min(5 * 2 ** n, 1_000_000));
          }
          return;
        }
        this.writeStatus(this.plans, plan, {
          ...cur,
          plan: steps,
          phase: 'Failed',
          message: err.message,
          startTime,
          conditions: planCondition(cur.conditions, {
            type: 'Installed',
            status: 'False',
            reason: 'InstallComponentFailed',
            message: err.message,
          }),
        });
        return;
      }
      const message = `error creating objects: ${(err as Error).message}`;
      this.writeStatus(this.plans, plan, {
        ...cur,
        plan: steps,
        phase: 'Failed',
        message,
        startTime,
        conditions: planCondition(cur.conditions, {
          type: 'Installed',
          status: 'False',
          reason: 'InstallComponentFailed',
          message,
        }),
      });
      return;
    }
    if (steps.some(todo)) {
      this.writeStatus(this.plans, plan, { ...cur, plan: steps, startTime });
      return;
    }
    this.refusals.delete(plan.metadata.uid ?? '');
    const { message: _m, ...rest } = cur;
    void _m;
    this.writeStatus(this.plans, plan, {
      ...rest,
      plan: steps,
      phase: 'Complete',
      startTime,
      conditions: planCondition(cur.conditions, { type: 'Installed', status: 'True' }),
    });
  }

  /**
   * The RBAC steps this pass leaves for later. On an upgrade whose service account the replaced
   * CSV already owns, real OLM's catalog operator merges the account's owners at once but writes
   * the new version's Role and RoleBinding only about a second later: meanwhile its olm operator
   * installs the new CSV on the strength of the old version's Role (its rule check reads every
   * binding of the account), deletes the old CSV, and the garbage collector takes the old Role
   * with it; the new CSV then fails its check ("requirements no longer met") until the new roles
   * arrive. The sandbox keeps that order: those steps wait until the CSV they serve has been
   * found wanting again (Pending, or Failed for another reason than its requirements), in a pass
   * after the account was merged.
   */
  private heldRbac(plan: KObject, steps: PlanStep[]): Set<PlanStep> {
    const held = new Set<PlanStep>();
    const before = (plan.status as PlanStatus | undefined)?.plan ?? [];
    for (const csvName of new Set(steps.map((s) => s.resolving))) {
      const mine = steps.filter((s) => s.resolving === csvName);
      const accounts = mine.filter((s) => s.resource.kind === 'ServiceAccount');
      const shared = accounts.some(
        (s) =>
          s.status === 'Present' ||
          (s.status !== 'Created' &&
            !!this.exists(this.res('', 'v1', 'serviceaccounts'), plan.metadata.namespace, s.resource.name)),
      );
      if (!shared) continue;
      const mergedEarlier = accounts.some(
        (s) =>
          before.find(
            (b) =>
              b.resolving === s.resolving &&
              b.resource.kind === 'ServiceAccount' &&
              b.resource.name === s.resource.name,
          )?.status === 'Present',
      );
      const csv = this.exists(this.csvs, plan.metadata.namespace, csvName);
      const cst = (csv?.status ?? {}) as {
        phase?: string;
        reason?: string;
        requirementStatus?: { status: string; message?: string }[];
      };
      // Found wanting by a check that saw the merged account (not one that found it another CSV's),
      // or held back for another reason (an OperatorCondition), or failed for one.
      const unmet = (cst.requirementStatus ?? []).some(
        (r) => r.status !== 'Present' && r.message !== 'Service account is owned by another ClusterServiceVersion',
      );
      const wanting =
        (cst.phase === 'Pending' &&
          (cst.reason === 'OperatorConditionNotUpgradeable' || (cst.reason === 'RequirementsNotMet' && unmet))) ||
        (cst.phase === 'Failed' && cst.reason !== 'RequirementsNotMet');
      // A CSV already on its way out (replaced in turn before its plan finished) waits for nothing.
      const leaving = !csv || !!csv.metadata.deletionTimestamp || cst.phase === 'Replacing' || cst.phase === 'Deleting';
      if ((mergedEarlier && wanting) || leaving) continue;
      for (const s of mine) if (RBAC_KINDS.has(s.resource.kind)) held.add(s);
    }
    return held;
  }

  /** The user a token of the account is (scoped.BearerTokenRetriever): the account must exist. */
  private attenuatedUser(ref: { name: string; namespace: string }): UserInfo {
    if (!this.exists(this.res('', 'v1', 'serviceaccounts'), ref.namespace, ref.name))
      throw new PlanStepError(`serviceaccounts "${ref.name}" not found`, false);
    return serviceAccountUser(ref.namespace, ref.name);
  }

  /**
   * Creates one step's object as step_ensurer.go does: a CRD is updated when it exists, a
   * service account gets the new CSV as another owner, roles and bindings are updated; with a
   * scoped account every write but the CRD's is the account's, refused as the API server would.
   */
  private executeStep(plan: KObject, step: PlanStep, user?: UserInfo): void {
    const ns = plan.metadata.namespace ?? '';
    const obj = JSON.parse(step.resource.manifest) as KObject;
    const r = this.api.resources.find(
      step.resource.group,
      step.resource.version,
      this.pluralOf(step.resource.group, step.resource.version, step.resource.kind),
    );
    if (!r) {
      step.status = 'UnsupportedResource';
      throw new ApiStatusError(422, 'Invalid', `${step.resource.kind} is not a supported resource`);
    }
    obj.metadata.labels = { ...obj.metadata.labels, 'olm.managed': 'true' };
    // getUpdatedOwnerReferences: the CSV's uid, read now.
    if (obj.metadata.ownerReferences?.length) {
      obj.metadata.ownerReferences = obj.metadata.ownerReferences.map((ref) => {
        if (ref.kind !== 'ClusterServiceVersion') return ref;
        const owner = this.exists(this.csvs, ns, ref.name);
        if (!owner)
          throw new PlanStepError(
            `error generating ownerrefs for ${step.resource.kind.toLowerCase()} ${obj.metadata.name}: clusterserviceversions.operators.coreos.com "${ref.name}" not found`,
            false,
          );
        return { ...ref, uid: owner.metadata.uid ?? '' };
      });
    }
    const kind = r.kind;
    const name = obj.metadata.name ?? '';
    const scoped = user && kind !== 'CustomResourceDefinition';
    const as = (prefix: string, verb: string, withName: boolean, extra?: () => void) => {
      if (!scoped) return;
      try {
        checkAccess(this.api.rbac, user!, {
          verb,
          group: r.group,
          resource: r.resource,
          namespace: r.namespaced ? obj.metadata.namespace : undefined,
          ...(withName ? { name } : {}),
        });
        extra?.();
      } catch (err) {
        if (err instanceof ApiStatusError) throw new PlanStepError(`${prefix}: ${err.message}`, err.code === 403);
        throw err;
      }
    };
    // RBAC's escalation check on what the token writes: the object as created, or as it
    // replaces the one there.
    const escalation = (written: KObject, old?: KObject) => () => {
      if (RBAC_KINDS.has(kind)) checkNoEscalation(this.api.rbac, user!, written, kind as RbacKind, old);
    };
    as(createPrefix(kind, name), 'create', false, escalation(obj));
    const found = this.exists(r, obj.metadata.namespace, name);
    if (!found) {
      if (kind === 'ClusterServiceVersion') obj.metadata.finalizers = [CSV_FINALIZER];
      if (kind === 'Subscription')
        obj.metadata.annotations = { ...obj.metadata.annotations, 'olm.generated-by': plan.metadata.name ?? '' };
      try {
        this.api.createObject(r, obj);
      } catch (err) {
        // Refused by the API server (a CSV its CRD's schema rejects): the step's error, retried
        // until the plan's timeout like any other that is not Forbidden.
        if (err instanceof ApiStatusError)
          throw new PlanStepError(`${createPrefix(kind, name)}: ${err.message}`, err.code === 403);
        throw err;
      }
      step.status = 'Created';
      return;
    }
    step.status = 'Present';
    if (kind === 'CustomResourceDefinition') {
      this.api.updateObject(r, {
        ...obj,
        metadata: { ...obj.metadata, resourceVersion: found.metadata.resourceVersion },
      } as KObject);
      return;
    }
    if (kind === 'ClusterServiceVersion' || kind === 'Subscription') return;
    if (kind === 'ServiceAccount') {
      // EnsureServiceAccount (step_ensurer.go): the step's account, with the live one's secrets, the
      // owners of both and the live annotations the step does not set; its labels are the step's
      // alone, so a label someone else put there goes when it is written. It is written only when
      // the step's account is not already contained in the live one (apimachinery's DeepDerivative:
      // each label and annotation the step's has, the same owners).
      as(`error getting older version of service account: ${name}`, 'get', true);
      const owners = [...(found.metadata.ownerReferences ?? [])];
      for (const o of obj.metadata.ownerReferences ?? []) if (!owners.some((x) => x.uid === o.uid)) owners.push(o);
      const annotations = { ...found.metadata.annotations, ...obj.metadata.annotations };
      const labels = { ...obj.metadata.labels };
      const within = (part: Record<string, string>, whole: Record<string, string> = {}) =>
        Object.entries(part).every(([k, v]) => whole[k] === v);
      if (
        owners.length === (found.metadata.ownerReferences ?? []).length &&
        within(labels, found.metadata.labels) &&
        within(annotations, found.metadata.annotations)
      )
        return;
      as(`error updating service account: ${name}`, 'patch', true);
      this.api.updateObject(r, {
        ...found,
        metadata: { ...found.metadata, labels, annotations, ownerReferences: owners },
      });
      return;
    }
    // Roles and bindings are brought in line with the step's manifest (a ClusterRole then names
    // the newest CSV as its owner); other objects already there are left as they are.
    if (!RBAC_KINDS.has(kind)) return;
    if (kind === 'ClusterRole' || kind === 'ClusterRoleBinding')
      obj.metadata.labels = { ...obj.metadata.labels, 'olm.owner': step.resolving };
    const updated = {
      ...found,
      ...obj,
      metadata: {
        ...found.metadata,
        labels: { ...found.metadata.labels, ...obj.metadata.labels },
        ownerReferences: obj.metadata.ownerReferences ?? found.metadata.ownerReferences,
      },
    } as KObject;
    as(updatePrefix(kind, name), 'patch', true, escalation(updated, found));
    this.api.updateObject(r, updated);
  }

  private pluralOf(group: string, version: string, kind: string): string {
    return (
      this.api.resources.all().find((r) => r.group === group && r.versions.includes(version) && r.kind === kind)
        ?.resource ?? `${kind.toLowerCase()}s`
    );
  }
}
