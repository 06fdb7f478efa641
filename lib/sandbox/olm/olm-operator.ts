// The sandbox's OLM operator (OLM's olm-operator): moves each CSV through its phases (docs/olm/csv-phases.md) —
// OperatorGroup membership, install modes and provided APIs, requirements (requirements.ts),
// deployments — and keeps what hangs off CSVs and OperatorGroups in line: OperatorConditions,
// Copied CSVs, the OperatorGroup's status and annotations, the generated roles, and OLMConfig's
// status. It acts on the CSVs the catalog operator's InstallPlans create (catalog-operator.ts).
import { createHash, randomBytes } from 'node:crypto';
import type { ClusterServiceVersion } from '../../olm/resources/cluster-service-version';
import { isCopiedCsv, isReplacementOf } from '../../olm/resources/cluster-service-version';
import {
  operatorGroupTargets,
  targetNamespacesAnnotation,
  isAllNamespaces,
} from '../../olm/install-modes/operator-group-targets';
import { supportsTargetNamespaces } from '../../olm/install-modes/supports';
import {
  formatApi,
  formatProvidedAPIs,
  groupSurface,
  operatorGroupsIntersect,
  parseProvidedAPIs,
  providedApiOutcome,
} from '../../olm/install-modes/provided-apis';
import type { OperatorGroup } from '../../olm/resources/operator-group';
import { upgradeBlock, type OperatorCondition } from '../../olm/resources/operator-condition';
import {
  operatorDeployment,
  type ClusterProxy,
  type DeploymentSpec,
  type SubscriptionConfig,
} from '../../olm/resources/subscription-config';
import type { ApiServer } from '../server/api-server';
import { ApiStatusError } from '../server/http-util';
import type { KObject } from '../store/types';
import { crdRoles, operatorGroupRoles } from './generated-roles';
import { olmRoleName } from './install-steps';
import { CSV_FINALIZER, OLM, OperatorBase, now, removeCondition, setCondition, type Cond } from './operator-base';
import {
  minKubeVersionStatus,
  permissionStatuses,
  type AccountState,
  type Permission,
  type RequirementStatus,
} from './requirements';
import { rulesFor, type PolicyRule } from '../auth/rbac';
import {
  checkAccess,
  namespaceServiceAccount,
  ruleGranted,
  serviceAccountRef,
  serviceAccountUser,
  type ServiceAccountRef,
} from './scoped';

const OG_FAILURE_REASONS = new Set([
  'NoOperatorGroup',
  'TooManyOperatorGroups',
  'UnsupportedOperatorGroup',
  'NoTargetNamespaces',
  'InvalidInstallModes',
  'InterOperatorGroupOwnerConflict',
  'CannotModifyStaticOperatorGroupProvidedAPIs',
]);
const NOT_COPIABLE = new Set(['Copied', ...OG_FAILURE_REASONS]);
/** The label in which OLM keeps the hash of the Deployment spec it wrote (install/deployment.go). */
const SPEC_HASH_LABEL = 'olm.deployment-spec-hash';

type StrategyDeployment = { name: string; spec: Record<string, unknown>; label?: Record<string, string> };

export interface OperatorOptions {
  /** How long created Deployments take to report available (there is no kubelet). */
  deploymentDelayMs: number;
}

/**
 * The spec as OLM sends it, encoded from Go's types: an env var's empty value is omitted
 * (omitempty) and a container's resources, a struct, are always there, `{}` when empty.
 */
function goEncoded(spec: DeploymentSpec): DeploymentSpec {
  const pod = spec.template?.spec;
  if (!pod) return spec;
  const container = (c: NonNullable<typeof pod.containers>[number]) => ({
    ...c,
    ...(c.env
      ? {
          env: c.env.map((e) =>
            e.value === '' ? { name: e.name, ...(e.valueFrom ? { valueFrom: e.valueFrom } : {}) } : e,
          ),
        }
      : {}),
    resources: c.resources ?? {},
  });
  return {
    ...spec,
    template: {
      ...spec.template,
      spec: {
        ...pod,
        containers: (pod.containers ?? []).map(container),
        ...(pod.initContainers ? { initContainers: pod.initContainers.map(container) } : {}),
      },
    },
  };
}

export class OlmOperator extends OperatorBase {
  /** The namespace's OLM-managed RBAC when each CSV was refused its install (by CSV uid). */
  private readonly refusedRbac = new Map<string, string>();

  constructor(
    api: ApiServer,
    private readonly opts: OperatorOptions,
  ) {
    super(api);
  }

  private get deployments() {
    return this.res('apps', 'v1', 'deployments');
  }
  private get namespaces() {
    return this.res('', 'v1', 'namespaces');
  }

  /** OLMConfig's DisabledCopiedCSVs condition (docs/olm/olm-config.md#disabledcopiedcsvs-condition). */
  syncOlmConfig(): void {
    const cfgRes = this.api.resources.find(OLM, 'v1', 'olmconfigs');
    const cfg = cfgRes ? this.exists(cfgRes, undefined, 'cluster') : undefined;
    if (!cfgRes || !cfg) return;
    const disabled =
      (cfg.spec as { features?: { disableCopiedCSVs?: boolean } } | undefined)?.features?.disableCopiedCSVs === true;
    const copiesOfGlobal = this.api.storeList(this.csvs).some((c) => {
      const from = c.metadata.labels?.['olm.copiedFrom'];
      if (!from) return false;
      const src = this.exists(this.csvs, from, c.metadata.name ?? '');
      return src?.metadata.annotations?.['olm.targetNamespaces'] === '';
    });
    const condition = !disabled
      ? {
          type: 'DisabledCopiedCSVs',
          status: 'False',
          reason: 'CopiedCSVsEnabled',
          message: 'Copied CSVs are enabled and present across the cluster',
        }
      : copiesOfGlobal
        ? {
            type: 'DisabledCopiedCSVs',
            status: 'False',
            reason: 'CopiedCSVsDisabled',
            message:
              'Copied CSVs are disabled and at least one unexpected copied CSV was found for an operator installed in AllNamespace mode',
          }
        : {
            type: 'DisabledCopiedCSVs',
            status: 'True',
            reason: 'CopiedCSVsDisabled',
            message:
              'Copied CSVs are disabled and no unexpected copied CSVs were found for operators installed in AllNamespace mode',
          };
    const st = (cfg.status ?? {}) as { conditions?: Cond[] };
    const conditions = setCondition(st.conditions, condition);
    this.writeStatus(cfgRes, cfg, { ...st, conditions });
  }

  // ---- OperatorGroups (docs/olm/operator-groups.md#target-namespaces) ----

  private namespaceFacts() {
    return this.api
      .storeList(this.namespaces)
      .filter((n) => !n.metadata.deletionTimestamp)
      .map((n) => ({ name: n.metadata.name ?? '', labels: n.metadata.labels }));
  }

  syncOperatorGroups(ns: string): void {
    const groups = this.api.storeList(this.ogs, ns);
    for (let og of groups) {
      const targets = operatorGroupTargets(og as unknown as OperatorGroup, this.namespaceFacts());
      const namespaces = 'namespaces' in targets ? targets.namespaces : [];
      let conditions = ((og.status ?? {}) as { conditions?: Cond[] }).conditions ?? [];
      conditions =
        groups.length > 1
          ? setCondition(conditions, {
              type: 'MultipleOperatorGroup',
              status: 'True',
              reason: 'MultipleOperatorGroupsFound',
              message: 'Multiple OperatorGroup found in the same namespace',
            })
          : removeCondition(conditions, 'MultipleOperatorGroup');
      // The group's service account (scoped/syncer.go), before anything else of the group: a
      // group naming an account that does not exist says so and goes no further.
      const synced = this.syncServiceAccount(og, conditions);
      if (!synced) continue;
      og = synced.og;
      conditions = synced.conditions;
      const prev = (og.status ?? {}) as {
        namespaces?: string[];
        conditions?: Cond[];
        lastUpdated?: string;
        serviceAccountRef?: ServiceAccountRef;
      };
      const same =
        JSON.stringify(prev.namespaces ?? []) === JSON.stringify(namespaces) &&
        JSON.stringify(prev.conditions ?? []) === JSON.stringify(conditions);
      if (!same) {
        this.writeStatus(this.ogs, og, {
          ...(namespaces.length ? { namespaces } : {}),
          ...(prev.serviceAccountRef ? { serviceAccountRef: prev.serviceAccountRef } : {}),
          lastUpdated: now(),
          ...(conditions.length ? { conditions } : {}),
        });
        // A group whose status changed annotates every CSV of its namespace as its own
        // (operatorgroup.go annotateCSVs), even while another group there makes them fail.
        this.annotateCsvs(ns, og.metadata.name ?? '', namespaces);
      }
      this.pruneProvidedApis(og);
      this.ensureOperatorGroupRoles(og);
    }
  }

  /**
   * UserDefinedServiceAccountSyncer.SyncOperatorGroup: `status.serviceAccountRef` follows
   * `spec.serviceAccountName`; an account that does not exist gives the group the condition
   * OperatorGroupServiceAccount and a status without a reference, and the rest of the group's
   * sync does not run (no target namespaces are written). An account that exists is labelled
   * `olm.managed` so OLM's filtered caches see it. Answers the group and its conditions to go
   * on with, or nothing.
   */
  private syncServiceAccount(og: KObject, conditions: Cond[]): { og: KObject; conditions: Cond[] } | undefined {
    const ns = og.metadata.namespace ?? '';
    const name = (og.spec as { serviceAccountName?: string } | undefined)?.serviceAccountName ?? '';
    const st = (og.status ?? {}) as { serviceAccountRef?: ServiceAccountRef; conditions?: Cond[] };
    const write = (ref: ServiceAccountRef | undefined, conds: Cond[]) => {
      const { serviceAccountRef: _r, conditions: _c, ...rest } = st;
      void _r;
      void _c;
      return this.writeStatus(this.ogs, og, {
        ...rest,
        ...(ref ? { serviceAccountRef: ref } : {}),
        lastUpdated: now(),
        ...(conds.length ? { conditions: conds } : {}),
      });
    };
    if (!name) {
      if (!st.serviceAccountRef) return { og, conditions };
      const conds = removeCondition(conditions, 'OperatorGroupServiceAccount');
      return { og: write(undefined, conds), conditions: conds };
    }
    const saRes = this.res('', 'v1', 'serviceaccounts');
    let sa = this.exists(saRes, ns, name);
    if (!sa) {
      const conds = setCondition(conditions, {
        type: 'OperatorGroupServiceAccount',
        status: 'True',
        reason: 'ServiceAccountNotFound',
        message: `ServiceAccount ${name} not found`,
      });
      // OLM writes this on every retry; once is what a person reads.
      if (st.serviceAccountRef || JSON.stringify(conds) !== JSON.stringify(st.conditions ?? []))
        write(undefined, conds);
      return undefined;
    }
    if (sa.metadata.labels?.['olm.managed'] !== 'true')
      sa = this.api.updateObject(saRes, {
        ...sa,
        metadata: { ...sa.metadata, labels: { ...sa.metadata.labels, 'olm.managed': 'true' } },
      });
    const ref = serviceAccountRef(sa);
    if (JSON.stringify(st.serviceAccountRef) === JSON.stringify(ref)) return { og, conditions };
    const conds = removeCondition(conditions, 'OperatorGroupServiceAccount');
    og = write(ref, conds);
    // A new reference gives a CSV whose install the account was refused another try.
    this.retryRefusedInstalls(ns, og.metadata.name ?? '');
    return { og, conditions: conds };
  }

  private annotateCsvs(ns: string, og: string, targets: string[]): void {
    const want = {
      'olm.operatorGroup': og,
      'olm.operatorNamespace': ns,
      'olm.targetNamespaces': targetNamespacesAnnotation(targets),
    };
    for (const csv of this.api.storeList(this.csvs, ns)) {
      if (isCopiedCsv(csv as unknown as ClusterServiceVersion) || csv.metadata.deletionTimestamp) continue;
      const have = csv.metadata.annotations ?? {};
      if (Object.entries(want).every(([k, v]) => have[k] === v)) continue;
      this.api.updateObject(this.csvs, { ...csv, metadata: { ...csv.metadata, annotations: { ...have, ...want } } });
    }
  }

  private get clusterRoles() {
    return this.res('rbac.authorization.k8s.io', 'v1', 'clusterroles');
  }

  /** Creates a generated ClusterRole, or brings its rules and aggregation in line. */
  private ensureClusterRole(role: KObject): void {
    const cur = this.exists(this.clusterRoles, undefined, role.metadata.name ?? '');
    if (!cur) {
      this.api.createObject(this.clusterRoles, role);
      return;
    }
    if (
      JSON.stringify(cur.rules) === JSON.stringify(role.rules) &&
      JSON.stringify(cur.aggregationRule) === JSON.stringify(role.aggregationRule)
    )
      return;
    this.api.updateObject(this.clusterRoles, {
      ...cur,
      rules: role.rules,
      aggregationRule: role.aggregationRule,
    } as KObject);
  }

  private ensureOperatorGroupRoles(og: KObject): void {
    const cur = this.exists(this.ogs, og.metadata.namespace, og.metadata.name ?? '') ?? og;
    const apis = [...parseProvidedAPIs(cur.metadata.annotations?.['olm.providedAPIs'])];
    for (const role of operatorGroupRoles(
      { name: cur.metadata.name ?? '', namespace: cur.metadata.namespace ?? '' },
      apis,
    ))
      this.ensureClusterRole(role);
  }

  private ensureCrdRoles(csv: KObject): void {
    const crdRes = this.res('apiextensions.k8s.io', 'v1', 'customresourcedefinitions');
    for (const d of (
      csv.spec as { customresourcedefinitions?: { owned?: { name: string; version: string; kind: string }[] } }
    ).customresourcedefinitions?.owned ?? []) {
      const crd = this.exists(crdRes, undefined, d.name);
      if (!crd) continue;
      const spec = crd.spec as { group: string; names: { plural: string } };
      for (const role of crdRoles({
        name: d.name,
        group: spec.group,
        plural: spec.names.plural,
        version: d.version,
        kind: d.kind,
        uid: crd.metadata.uid,
      }))
        this.ensureClusterRole(role);
    }
  }

  /** OperatorGroup roles go with their OperatorGroup. */
  sweepOperatorGroupRoles(): void {
    for (const role of this.api.storeList(this.clusterRoles)) {
      const labels = role.metadata.labels ?? {};
      if (labels['olm.owner.kind'] !== 'OperatorGroup') continue;
      if (this.exists(this.ogs, labels['olm.owner.namespace'], labels['olm.owner'] ?? '')) continue;
      this.api.deleteObject(this.clusterRoles, undefined, role.metadata.name ?? '');
    }
  }

  /** The annotation loses the APIs no CSV in the namespace provides any more (not while one is pending). */
  private pruneProvidedApis(og: KObject): void {
    if ((og.spec as { staticProvidedAPIs?: boolean } | undefined)?.staticProvidedAPIs) return;
    const ns = og.metadata.namespace ?? '';
    const csvs = this.api.storeList(this.csvs, ns).filter((c) => !isCopiedCsv(c as unknown as ClusterServiceVersion));
    if (csvs.some((c) => ['', 'Pending', undefined].includes((c.status as { phase?: string } | undefined)?.phase)))
      return;
    const provided = csvs
      // A CSV refused for an API conflict was never granted its APIs; every other CSV keeps them
      // (pruning them while it waits on its OperatorGroup would make the two passes undo each other).
      .filter(
        (c) =>
          !['InterOperatorGroupOwnerConflict', 'CannotModifyStaticOperatorGroupProvidedAPIs'].includes(
            (c.status as { reason?: string } | undefined)?.reason ?? '',
          ),
      )
      .flatMap((c) =>
        (
          (c.spec as { customresourcedefinitions?: { owned?: { name: string; version: string; kind: string }[] } })
            .customresourcedefinitions?.owned ?? []
        ).map((d) => formatApi({ group: d.name.split('.').slice(1).join('.'), version: d.version, kind: d.kind })),
      );
    const cur = this.exists(this.ogs, ns, og.metadata.name ?? '')!;
    const have = cur.metadata.annotations?.['olm.providedAPIs'] ?? '';
    // Pruning only removes: APIs are added by the CSV checks, never here.
    const still = new Set(provided);
    const want = formatProvidedAPIs([...parseProvidedAPIs(have)].filter((a) => still.has(a)));
    if (have === want) return;
    // Pruned to nothing, the annotation stays, empty, as OLM leaves it.
    const annotations = { ...cur.metadata.annotations, 'olm.providedAPIs': want };
    this.api.updateObject(this.ogs, { ...cur, metadata: { ...cur.metadata, annotations } });
  }

  private operatorGroupOf(ns: string): { og?: KObject; error?: { reason: string; message: string } } {
    const groups = this.api.storeList(this.ogs, ns);
    if (groups.length === 0)
      return { error: { reason: 'NoOperatorGroup', message: 'csv in namespace with no operatorgroups' } };
    if (groups.length > 1)
      return {
        error: {
          reason: 'TooManyOperatorGroups',
          message: `csv created in namespace with multiple operatorgroups, can't pick one automatically`,
        },
      };
    return { og: groups[0] };
  }

  // ---- OLM operator: the CSV phase machine (docs/olm/csv-phases.md#phase-machine) ----

  syncCsvs(ns: string): void {
    for (const csv of this.api.storeList(this.csvs, ns))
      if (!isCopiedCsv(csv as unknown as ClusterServiceVersion)) this.syncCsv(csv);
  }

  private setPhase(
    csv: KObject,
    phase: string,
    reason: string,
    message: string,
    extra: Record<string, unknown> = {},
  ): KObject {
    const st = (csv.status ?? {}) as { phase?: string; reason?: string; message?: string; conditions?: unknown[] };
    if (st.phase === phase && st.reason === reason && st.message === message && Object.keys(extra).length === 0)
      return csv;
    const t = now();
    const conditions =
      st.phase === phase && st.reason === reason
        ? st.conditions
        : [...(st.conditions ?? []), { phase, reason, message, lastUpdateTime: t, lastTransitionTime: t }].slice(-20);
    const next = this.writeStatus(this.csvs, csv, {
      ...st,
      ...extra,
      phase,
      reason,
      message,
      lastUpdateTime: t,
      lastTransitionTime: st.phase === phase ? (st as { lastTransitionTime?: string }).lastTransitionTime : t,
      conditions,
    });
    if (st.phase !== phase || st.reason !== reason)
      this.event(next, phase === 'Failed' ? 'Warning' : 'Normal', reason, message);
    return next;
  }

  private event(obj: KObject, type: string, reason: string, message: string): void {
    const evRes = this.res('', 'v1', 'events');
    const t = now();
    try {
      this.api.createObject(evRes, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `${obj.metadata.name}.${randomBytes(8).toString('hex')}`, namespace: obj.metadata.namespace },
        involvedObject: {
          apiVersion: obj.apiVersion,
          kind: obj.kind,
          name: obj.metadata.name,
          namespace: obj.metadata.namespace,
          uid: obj.metadata.uid,
          resourceVersion: obj.metadata.resourceVersion,
        },
        reason,
        message,
        type,
        count: 1,
        firstTimestamp: t,
        lastTimestamp: t,
        source: { component: 'operator-lifecycle-manager' },
        reportingComponent: 'operator-lifecycle-manager',
      });
    } catch {
      // events are best effort, as in a real cluster
    }
  }

  private syncCsv(csv: KObject): void {
    this.syncCsvPhase(csv);
    // OLM requeues the copy of every CSV it synced, whatever its phase, unless the CSV is
    // uncopiable (api's IsUncopiable: no phase yet, or a Copied / OperatorGroup failure reason).
    const ns = csv.metadata.namespace ?? '';
    const cur = this.exists(this.csvs, ns, csv.metadata.name ?? '');
    if (!cur || cur.metadata.deletionTimestamp) return;
    const st = (cur.status ?? {}) as { phase?: string; reason?: string };
    if (!st.phase || NOT_COPIABLE.has(st.reason ?? '')) return;
    const { og } = this.operatorGroupOf(ns);
    if (!og) return;
    this.syncCopies(cur, og, (og.status as { namespaces?: string[] } | undefined)?.namespaces ?? []);
  }

  private syncCsvPhase(csv: KObject): void {
    const ns = csv.metadata.namespace ?? '';
    const name = csv.metadata.name ?? '';
    if (csv.metadata.deletionTimestamp) {
      this.deleteCopies(csv, []);
      if (csv.metadata.finalizers?.includes(CSV_FINALIZER))
        this.api.updateObject(this.csvs, {
          ...csv,
          metadata: { ...csv.metadata, finalizers: csv.metadata.finalizers.filter((f) => f !== CSV_FINALIZER) },
        });
      return;
    }
    // An install the group's account was refused is not tried again (syncClusterServiceVersion
    // skips it) until the namespace's RBAC OLM watches changes or the group's account is synced.
    if ((csv.status as { reason?: string } | undefined)?.reason === 'InstallComponentFailedNoRetry') {
      const at = this.refusedRbac.get(csv.metadata.uid ?? '');
      const nowRbac = this.managedRbacFingerprint(ns);
      if (at === undefined) this.refusedRbac.set(csv.metadata.uid ?? '', nowRbac);
      if (at === undefined || at === nowRbac) return;
      this.refusedRbac.delete(csv.metadata.uid ?? '');
      csv = this.setPhase(csv, 'Pending', 'DetectedClusterChange', 'Cluster resources changed state');
    }
    this.ensureOperatorCondition(csv);
    const spec = csv.spec as {
      installModes?: { type: string; supported: boolean }[];
      replaces?: string;
      install?: {
        spec?: { deployments?: { name: string; spec: Record<string, unknown>; label?: Record<string, string> }[] };
      };
      customresourcedefinitions?: {
        owned?: { name: string; version: string; kind: string }[];
        required?: { name: string; version: string; kind: string }[];
      };
    };
    const st = (csv.status ?? {}) as { phase?: string; reason?: string };
    let phase = st.phase ?? '';

    // Pre-checks: OperatorGroup membership and install modes (docs/olm/csv-phases.md#pre-checks, docs/olm/install-modes.md).
    const { og, error } = this.operatorGroupOf(ns);
    if (error) {
      this.setPhase(csv, 'Failed', error.reason, error.message);
      return;
    }
    const targets = (og!.status as { namespaces?: string[] } | undefined)?.namespaces ?? [];
    const annotations = {
      'olm.operatorGroup': og!.metadata.name ?? '',
      'olm.operatorNamespace': ns,
      'olm.targetNamespaces': targetNamespacesAnnotation(targets),
    };
    const have = csv.metadata.annotations ?? {};
    if (Object.entries(annotations).some(([k, v]) => have[k] !== v)) {
      csv = this.api.updateObject(this.csvs, {
        ...csv,
        metadata: { ...csv.metadata, annotations: { ...have, ...annotations } },
      });
    }
    if (targets.length === 0) {
      this.setPhase(
        csv,
        'Failed',
        'NoTargetNamespaces',
        'no targetNamespaces are matched operatorgroups namespace selection',
      );
      return;
    }
    const verdict = supportsTargetNamespaces(spec.installModes ?? [], ns, targets);
    if (!verdict.ok) {
      this.setPhase(csv, 'Failed', verdict.reason, verdict.message);
      return;
    }
    // Provided APIs: no two intersecting OperatorGroups may provide the same API (docs/olm/operator-groups.md#provided-apis).
    const apis = new Set(
      (spec.customresourcedefinitions?.owned ?? []).map((d) =>
        formatApi({ group: d.name.split('.').slice(1).join('.'), version: d.version, kind: d.kind }),
      ),
    );
    if (apis.size > 0) {
      const ownSurface = groupSurface(ns, targets);
      const others = this.api
        .storeList(this.ogs)
        .filter(
          (o) =>
            o.metadata.uid !== og!.metadata.uid &&
            operatorGroupsIntersect(
              ownSurface,
              groupSurface(
                o.metadata.namespace ?? '',
                (o.status as { namespaces?: string[] } | undefined)?.namespaces ?? [],
              ),
            ),
        );
      const union = new Set(
        others.flatMap((o) => [...parseProvidedAPIs(o.metadata.annotations?.['olm.providedAPIs'])]),
      );
      const outcome = providedApiOutcome(
        apis,
        parseProvidedAPIs(og!.metadata.annotations?.['olm.providedAPIs']),
        union,
        (og!.spec as { staticProvidedAPIs?: boolean } | undefined)?.staticProvidedAPIs === true,
      );
      if (outcome.action === 'fail') {
        this.setPhase(csv, 'Failed', outcome.reason, outcome.message);
        return;
      }
      if (outcome.action === 'add' || outcome.action === 'remove') {
        const cur = this.exists(this.ogs, ns, og!.metadata.name ?? '')!;
        this.api.updateObject(this.ogs, {
          ...cur,
          metadata: {
            ...cur.metadata,
            annotations: { ...cur.metadata.annotations, 'olm.providedAPIs': outcome.annotation },
          },
        });
        return;
      }
    }
    if (phase === 'Failed' && OG_FAILURE_REASONS.has(st.reason ?? '')) {
      csv = this.setPhase(csv, 'Pending', 'RequirementsUnknown', 'requirements not yet checked');
      phase = 'Pending';
    }

    const others = this.api
      .storeList(this.csvs, ns)
      .filter((c) => c.metadata.name !== name && !isCopiedCsv(c as unknown as ClusterServiceVersion));
    const replacer = others.find((c) => isReplacementOf(c as unknown as ClusterServiceVersion, name));

    switch (phase) {
      case '':
      case 'None':
        this.setPhase(csv, 'Pending', 'RequirementsUnknown', 'requirements not yet checked');
        return;
      case 'Pending': {
        // The installed version may hold its replacement back (OperatorCondition
        // Upgradeable=False); OLM asks before it checks requirements.
        if (spec.replaces) {
          const old = others.find((c) => c.metadata.name === spec.replaces);
          const oc = old
            ? this.exists(this.res(OLM, 'v2', 'operatorconditions'), ns, old.metadata.name ?? '')
            : undefined;
          const block = oc ? upgradeBlock(oc as unknown as OperatorCondition) : { blocked: false as const };
          if (block.blocked) {
            this.setPhase(csv, 'Pending', 'OperatorConditionNotUpgradeable', block.message);
            return;
          }
        }
        const requirementStatus = this.requirementStatus(csv);
        if (requirementStatus.some((r) => r.status !== 'Present')) {
          this.setPhase(csv, 'Pending', 'RequirementsNotMet', "one or more requirements couldn't be found", {
            requirementStatus,
          });
          return;
        }
        if (spec.replaces) {
          // Not yet: the CSV it replaces is not Replacing (OLM has written what it found, though).
          const old = others.find((c) => c.metadata.name === spec.replaces);
          if (old && (old.status as { phase?: string } | undefined)?.phase !== 'Replacing') {
            this.writeStatus(this.csvs, csv, { ...(csv.status as object), requirementStatus });
            return;
          }
        }
        this.setPhase(csv, 'InstallReady', 'AllRequirementsMet', 'all requirements found, attempting install', {
          requirementStatus,
        });
        return;
      }
      case 'InstallReady': {
        // With a group that names an account, the deployments are written with its token
        // (parseStrategiesAndUpdateStatus); while OLM cannot say which account, nothing is done.
        const scope = namespaceServiceAccount(this.api.storeList(this.ogs, ns));
        if (scope.error) return;
        try {
          for (const d of spec.install?.spec?.deployments ?? []) this.ensureDeployment(csv, d, scope.ref);
        } catch (err) {
          if (!(err instanceof ApiStatusError && err.code === 403)) throw err;
          // A refusal is an unrecoverable strategy error, its message wrapped twice.
          this.setPhase(
            csv,
            'Failed',
            'InstallComponentFailedNoRetry',
            `install strategy failed: install strategy failed: ${err.message}`,
          );
          return;
        }
        this.setPhase(csv, 'Installing', 'InstallSucceeded', 'waiting for install components to report healthy');
        return;
      }
      case 'Installing': {
        const waitingFor = (spec.install?.spec?.deployments ?? []).find((d) => !this.deploymentAvailable(ns, d.name));
        if (waitingFor) {
          this.setPhase(
            csv,
            'Installing',
            'InstallWaiting',
            `installing: waiting for deployment ${waitingFor.name} to become ready: deployment "${waitingFor.name}" not available: Deployment does not have minimum availability.`,
          );
          return;
        }
        if (this.reinstallIfChanged(csv, spec.install?.spec?.deployments ?? [], 'InstallWaiting')) return;
        this.setPhase(csv, 'Succeeded', 'InstallSucceeded', 'install strategy completed with no errors');
        return;
      }
      case 'Succeeded': {
        this.ensureCrdRoles(csv);
        if (replacer) {
          this.setPhase(csv, 'Replacing', 'BeingReplaced', `being replaced by csv: ${replacer.metadata.name}`);
          return;
        }
        // Requirements are checked again: an account whose rules went away fails the CSV.
        const requirementStatus = this.requirementStatus(csv);
        if (requirementStatus.some((r) => r.status !== 'Present')) {
          this.setPhase(csv, 'Failed', 'RequirementsNotMet', 'requirements no longer met', { requirementStatus });
          return;
        }
        // A Deployment that is no longer what OLM would write (the Subscription's config or the
        // cluster proxy changed) is written again (updateInstallStatus).
        this.reinstallIfChanged(csv, spec.install?.spec?.deployments ?? [], 'ComponentUnhealthy');
        // Copies are synced after every phase (syncCsv).
        return;
      }
      case 'Failed': {
        // Fail-forward lets a newer CSV replace a failed one (syncClusterServiceVersion).
        if (replacer && this.failForward(ns)) {
          this.setPhase(
            csv,
            'Replacing',
            'BeingReplaced',
            `Fail Forward is enabled, allowing Failed csv to be replaced by csv: ${replacer.metadata.name}`,
          );
          return;
        }
        // Requirements again: still unmet sends the CSV back to Pending; met, with its
        // deployments available, it has succeeded again (updateInstallStatus).
        const requirementStatus = this.requirementStatus(csv);
        if (requirementStatus.some((r) => r.status !== 'Present')) {
          this.setPhase(csv, 'Pending', 'RequirementsNotMet', 'requirements not met', { requirementStatus });
          return;
        }
        if ((spec.install?.spec?.deployments ?? []).every((d) => this.deploymentAvailable(ns, d.name)))
          this.setPhase(csv, 'Succeeded', 'InstallSucceeded', 'install strategy completed with no errors');
        return;
      }
      case 'Replacing': {
        if (replacer && (replacer.status as { phase?: string } | undefined)?.phase === 'Succeeded') {
          this.setPhase(
            csv,
            'Deleting',
            'Replaced',
            'has been replaced by a newer ClusterServiceVersion that has successfully installed.',
          );
        }
        return;
      }
      case 'Deleting':
        this.api.deleteObject(this.csvs, ns, name);
        return;
      default:
        return;
    }
  }

  /**
   * requirementAndPermissionStatus: minKubeVersion, each owned or required CRD, and each service
   * account of the install strategy with its rules. An account another CSV owns (and this one
   * does not) is not this CSV's yet; rules are met by the roles OLM made for this CSV, or else by
   * whatever RBAC grants the account (OLM's rule checker reads every role and binding).
   */
  private requirementStatus(csv: KObject): RequirementStatus[] {
    const ns = csv.metadata.namespace ?? '';
    const name = csv.metadata.name ?? '';
    const spec = csv.spec as {
      minKubeVersion?: string;
      install?: { spec?: { permissions?: Permission[]; clusterPermissions?: Permission[] } };
      customresourcedefinitions?: { owned?: { name: string }[]; required?: { name: string }[] };
    };
    const crdRes = this.res('apiextensions.k8s.io', 'v1', 'customresourcedefinitions');
    const required = [
      ...(spec.customresourcedefinitions?.owned ?? []),
      ...(spec.customresourcedefinitions?.required ?? []),
    ];
    const crdStatuses = required.map((d) => {
      const crd = this.exists(crdRes, undefined, d.name);
      return {
        group: 'apiextensions.k8s.io',
        version: 'v1',
        kind: 'CustomResourceDefinition',
        name: d.name,
        status: crd ? 'Present' : 'NotPresent',
        message: crd ? 'CRD is present and Established condition is true' : 'CRD is not present',
        ...(crd ? { uuid: crd.metadata.uid } : {}),
      };
    });
    const install = spec.install?.spec ?? {};
    const saRes = this.res('', 'v1', 'serviceaccounts');
    const held = new Map<string, PolicyRule[]>();
    return [
      ...minKubeVersionStatus(name, spec.minKubeVersion, this.api.version.gitVersion),
      ...crdStatuses,
      ...permissionStatuses(
        { namespaced: install.permissions ?? [], cluster: install.clusterPermissions ?? [] },
        {
          account: (sa): AccountState => {
            const found = this.exists(saRes, ns, sa);
            if (!found) return 'missing';
            const owners = found.metadata.ownerReferences ?? [];
            return owners.some((o) => o.kind === 'ClusterServiceVersion') &&
              !owners.some((o) => o.uid === csv.metadata.uid)
              ? 'ownedByAnother'
              : 'present';
          },
          previouslyCreated: (p, cluster) => {
            // OLM's own Role (ClusterRole) and binding for this account, by the name it gives them, labelled as this CSV's.
            const roleName = olmRoleName(name, ns, p, cluster);
            const kinds = cluster ? ['clusterroles', 'clusterrolebindings'] : ['roles', 'rolebindings'];
            return kinds.every(
              (k) =>
                this.exists(this.res('rbac.authorization.k8s.io', 'v1', k), cluster ? undefined : ns, roleName)
                  ?.metadata.labels?.['olm.owner'] === name,
            );
          },
          ruleSatisfied: (sa, rule, cluster) => {
            // The checker's user is the account alone (toDefaultInfo: no groups).
            const key = `${sa}/${cluster}`;
            if (!held.has(key))
              held.set(
                key,
                rulesFor(
                  this.api.rbac,
                  { name: `system:serviceaccount:${ns}:${sa}`, groups: [] },
                  cluster ? undefined : ns,
                ),
              );
            return ruleGranted(held.get(key)!, cluster ? undefined : ns, rule);
          },
        },
      ),
    ];
  }

  /** The Roles, RoleBindings and ServiceAccounts OLM's filtered caches see (label `olm.managed`), as they are now. */
  private managedRbacFingerprint(ns: string): string {
    return ['roles', 'rolebindings']
      .map((k) => this.res('rbac.authorization.k8s.io', 'v1', k))
      .concat(this.res('', 'v1', 'serviceaccounts'))
      .flatMap((r) =>
        this.api
          .storeList(r, ns)
          .filter((o) => o.metadata.labels?.['olm.managed'] === 'true')
          .map((o) => `${r.resource}/${o.metadata.name}@${o.metadata.resourceVersion}`),
      )
      .sort()
      .join(',');
  }

  /** The group's CSVs whose install its account was refused try again (operatorgroup.go). */
  private retryRefusedInstalls(ns: string, og: string): void {
    for (const csv of this.api.storeList(this.csvs, ns)) {
      if (csv.metadata.annotations?.['olm.operatorGroup'] !== og) continue;
      if ((csv.status as { reason?: string } | undefined)?.reason !== 'InstallComponentFailedNoRetry') continue;
      this.refusedRbac.delete(csv.metadata.uid ?? '');
      this.setPhase(csv, 'Pending', 'DetectedClusterChange', 'Cluster resources changed state');
    }
  }

  /** One OperatorCondition per installed CSV (docs/olm/operator-conditions.md#what-olm-creates): owned by it, naming its accounts and deployments. */
  private ensureOperatorCondition(csv: KObject): void {
    const ocRes = this.res(OLM, 'v2', 'operatorconditions');
    const ns = csv.metadata.namespace ?? '';
    const name = csv.metadata.name ?? '';
    const install = (
      csv.spec as {
        install?: {
          spec?: {
            permissions?: { serviceAccountName: string }[];
            clusterPermissions?: { serviceAccountName: string }[];
            deployments?: { name: string }[];
          };
        };
      }
    ).install?.spec;
    const accounts = [
      ...new Set(
        [...(install?.permissions ?? []), ...(install?.clusterPermissions ?? [])].map((p) => p.serviceAccountName),
      ),
    ];
    let oc = this.exists(ocRes, ns, name);
    if (!oc) {
      oc = this.api.createObject(ocRes, {
        apiVersion: `${OLM}/v2`,
        kind: 'OperatorCondition',
        metadata: {
          name,
          namespace: ns,
          ownerReferences: [
            {
              apiVersion: `${OLM}/v1alpha1`,
              kind: 'ClusterServiceVersion',
              name,
              uid: csv.metadata.uid ?? '',
              controller: true,
              blockOwnerDeletion: false,
            },
          ],
        },
        spec: {
          serviceAccounts: accounts.length ? accounts : ['default'],
          deployments: (install?.deployments ?? []).map((d) => d.name),
        },
      });
    }
    // The operator writes spec.conditions; OLM mirrors them into the status with observedGeneration.
    const conditions = ((oc.spec as { conditions?: Record<string, unknown>[] } | undefined)?.conditions ?? []).map(
      (c) => ({ ...c, observedGeneration: oc!.metadata.generation }),
    );
    if (conditions.length || (oc.status as { conditions?: unknown[] } | undefined)?.conditions?.length)
      this.writeStatus(ocRes, oc, { conditions });
  }

  /**
   * The config of the Subscription whose installed CSV this is (overrides/config.go findOwner),
   * and on OpenShift the cluster proxy's status.
   */
  private deploymentInputs(csv: KObject): { config?: SubscriptionConfig; proxy?: ClusterProxy } {
    const owner = this.api
      .storeList(this.subs, csv.metadata.namespace)
      .find((s) => (s.status as { installedCSV?: string } | undefined)?.installedCSV === csv.metadata.name);
    const proxyRes = this.api.resources.find('config.openshift.io', 'v1', 'proxies');
    const p = proxyRes
      ? ((this.exists(proxyRes, undefined, 'cluster')?.status ?? {}) as {
          httpProxy?: string;
          httpsProxy?: string;
          noProxy?: string;
        })
      : undefined;
    return {
      config: (owner?.spec as { config?: SubscriptionConfig } | undefined)?.config,
      ...(p ? { proxy: { HTTP_PROXY: p.httpProxy, HTTPS_PROXY: p.httpsProxy, NO_PROXY: p.noProxy } } : {}),
    };
  }

  /** What OLM would write for one deployment of the strategy now (lib/olm's rule), and its hash. */
  private desiredDeployment(
    csv: KObject,
    d: StrategyDeployment,
  ): { spec: DeploymentSpec; annotations: Record<string, string>; hash: string } {
    const { config, proxy } = this.deploymentInputs(csv);
    const olm = operatorDeployment(
      d.spec as DeploymentSpec,
      { name: csv.metadata.name ?? '', annotations: csv.metadata.annotations },
      config,
      proxy,
    );
    const out = { spec: goEncoded(olm.spec), annotations: olm.annotations };
    const hash = BigInt(
      `0x${createHash('sha256')
        .update(JSON.stringify([d.name, out.spec]))
        .digest('hex')
        .slice(0, 12)}`,
    ).toString(36);
    return { ...out, hash };
  }

  /** OLM's CheckInstalled spec-hash step: a changed Deployment sends the CSV back to InstallReady. */
  private reinstallIfChanged(csv: KObject, deployments: StrategyDeployment[], reason: string): boolean {
    const ns = csv.metadata.namespace ?? '';
    for (const d of deployments) {
      const there = this.exists(this.deployments, ns, d.name);
      const old = there?.metadata.labels?.[SPEC_HASH_LABEL];
      const { hash } = this.desiredDeployment(csv, d);
      if (!there || old === hash) continue;
      this.setPhase(
        csv,
        'InstallReady',
        reason,
        old
          ? `installing: deployment changed old hash=${old}, new hash=${hash}`
          : `installing: deployment ${d.name} doesn't have a spec hash, update it`,
      );
      return true;
    }
    return false;
  }

  private ensureDeployment(csv: KObject, d: StrategyDeployment, account?: ServiceAccountRef): void {
    const ns = csv.metadata.namespace ?? '';
    if (account) {
      // CreateOrRollingUpdateDeployment with the account's token: a get, then a create or a patch.
      const user = serviceAccountUser(account.namespace, account.name);
      checkAccess(this.api.rbac, user, {
        verb: 'get',
        group: 'apps',
        resource: 'deployments',
        namespace: ns,
        name: d.name,
      });
      const there = !!this.exists(this.deployments, ns, d.name);
      checkAccess(this.api.rbac, user, {
        verb: there ? 'patch' : 'create',
        group: 'apps',
        resource: 'deployments',
        namespace: ns,
        ...(there ? { name: d.name } : {}),
      });
    }
    const desired = this.desiredDeployment(csv, d);
    const metadata = {
      name: d.name,
      namespace: ns,
      labels: {
        ...d.label,
        'olm.owner': csv.metadata.name ?? '',
        'olm.owner.kind': 'ClusterServiceVersion',
        'olm.owner.namespace': ns,
        'olm.managed': 'true',
        [SPEC_HASH_LABEL]: desired.hash,
      },
      ...(Object.keys(desired.annotations).length ? { annotations: desired.annotations } : {}),
      ownerReferences: [
        {
          apiVersion: `${OLM}/v1alpha1`,
          kind: 'ClusterServiceVersion',
          name: csv.metadata.name ?? '',
          uid: csv.metadata.uid ?? '',
          controller: false,
          blockOwnerDeletion: false,
        },
      ],
    };
    const existing = this.exists(this.deployments, ns, d.name);
    if (existing) {
      // An upgrade takes over the previous version's deployment: new spec, new owner, and it
      // rolls out again (not available until the new pods would be).
      this.api.updateObject(this.deployments, {
        ...existing,
        metadata: { ...existing.metadata, ...metadata, resourceVersion: existing.metadata.resourceVersion },
        spec: desired.spec,
      } as KObject);
      const cur = this.exists(this.deployments, ns, d.name)!;
      this.api.updateObject(this.deployments, { ...cur, status: {} } as KObject, 'status');
    } else {
      this.api.createObject(this.deployments, {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata,
        spec: desired.spec,
      });
    }
    // There is no kubelet: the deployment reports available after a delay.
    const t = setTimeout(() => {
      const cur = this.exists(this.deployments, ns, d.name);
      if (!cur) return;
      const replicas = (cur.spec as { replicas?: number }).replicas ?? 1;
      // The two conditions the deployment controller leaves on a rolled-out Deployment. The
      // sandbox makes no ReplicaSets: the one named is the name the template's hash would give it.
      const at = now();
      const replicaSet = `${d.name}-${createHash('sha256')
        .update(JSON.stringify((cur.spec as { template?: unknown }).template ?? {}))
        .digest('hex')
        .slice(0, 10)}`;
      const conditions = [
        {
          type: 'Available',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
          lastUpdateTime: at,
          lastTransitionTime: at,
        },
        {
          type: 'Progressing',
          status: 'True',
          reason: 'NewReplicaSetAvailable',
          message: `ReplicaSet "${replicaSet}" has successfully progressed.`,
          lastUpdateTime: at,
          lastTransitionTime: at,
        },
      ];
      this.api.updateObject(
        this.deployments,
        {
          ...cur,
          status: {
            observedGeneration: cur.metadata.generation,
            replicas,
            readyReplicas: replicas,
            availableReplicas: replicas,
            updatedReplicas: replicas,
            conditions,
          },
        },
        'status',
      );
    }, this.opts.deploymentDelayMs);
    t.unref();
  }

  private deploymentAvailable(ns: string, name: string): boolean {
    const d = this.exists(this.deployments, ns, name);
    const st = (d?.status ?? {}) as { availableReplicas?: number };
    const replicas = (d?.spec as { replicas?: number } | undefined)?.replicas ?? 1;
    return !!d && (st.availableReplicas ?? 0) >= replicas;
  }

  // ---- Copied CSVs (docs/olm/copied-csvs.md) ----

  private copiesDisabled(targets: readonly string[]): boolean {
    const cfgRes = this.api.resources.find(OLM, 'v1', 'olmconfigs');
    const cfg = cfgRes ? this.exists(cfgRes, undefined, 'cluster') : undefined;
    return (
      isAllNamespaces(targets) &&
      (cfg?.spec as { features?: { disableCopiedCSVs?: boolean } } | undefined)?.features?.disableCopiedCSVs === true
    );
  }

  private syncCopies(csv: KObject, og: KObject, targets: string[]): void {
    const ns = csv.metadata.namespace ?? '';
    const reason = (csv.status as { reason?: string } | undefined)?.reason ?? '';
    const ownOnly = targets.length === 1 && targets[0] === ns;
    if (this.copiesDisabled(targets)) {
      this.deleteCopies(csv, []);
      this.ensureCopyingDisabledEvent(csv);
      return;
    }
    if (isAllNamespaces(targets)) this.deleteCopyingDisabledEvents(csv);
    if (ownOnly || NOT_COPIABLE.has(reason)) {
      this.deleteCopies(csv, []);
      return;
    }
    const all = isAllNamespaces(targets) ? this.namespaceFacts().map((n) => n.name) : targets;
    const wanted = all.filter((t) => t !== ns && this.exists(this.namespaces, undefined, t));
    for (const target of wanted) this.ensureCopy(csv, target);
    this.deleteCopies(csv, wanted);
    void og;
  }

  private ensureCopy(csv: KObject, target: string): void {
    const ns = csv.metadata.namespace ?? '';
    const annotations = { ...csv.metadata.annotations };
    delete annotations['olm.targetNamespaces'];
    delete annotations['kubectl.kubernetes.io/last-applied-configuration'];
    const labels = Object.fromEntries(
      Object.entries(csv.metadata.labels ?? {}).filter(([k]) => !k.startsWith('operators.coreos.com/')),
    );
    labels['olm.copiedFrom'] = ns;
    const status = {
      ...(csv.status as object),
      reason: 'Copied',
      message: `The operator is running in ${ns} but is managing this namespace`,
    };
    const existing = this.exists(this.csvs, target, csv.metadata.name ?? '');
    if (!existing) {
      const created = this.api.createObject(this.csvs, {
        apiVersion: csv.apiVersion,
        kind: csv.kind,
        metadata: { name: csv.metadata.name, namespace: target, labels, annotations },
        spec: csv.spec,
      } as KObject);
      this.writeStatus(this.csvs, created, status);
      return;
    }
    if (!isCopiedCsv(existing as unknown as ClusterServiceVersion)) return;
    let cur = existing;
    if (
      JSON.stringify(cur.spec) !== JSON.stringify(csv.spec) ||
      JSON.stringify(cur.metadata.labels) !== JSON.stringify(labels)
    ) {
      cur = this.api.updateObject(this.csvs, {
        ...cur,
        metadata: { ...cur.metadata, labels, annotations },
        spec: csv.spec,
      } as KObject);
    }
    this.writeStatus(this.csvs, cur, status);
  }

  private copyingDisabledEvents(csv: KObject): KObject[] {
    return this.api.storeList(this.res('', 'v1', 'events'), csv.metadata.namespace).filter((e) => {
      const io = (e as { involvedObject?: { name?: string; uid?: string } }).involvedObject;
      return (
        (e as { reason?: string }).reason === 'DisabledCopiedCSVs' &&
        io?.name === csv.metadata.name &&
        io?.uid === csv.metadata.uid
      );
    });
  }

  /**
   * OLM keeps exactly one Warning event per CSV while its copies are disabled
   * (createCSVCopyingDisabledEvent), and deletes it once copying is back.
   */
  private ensureCopyingDisabledEvent(csv: KObject): void {
    const existing = this.copyingDisabledEvents(csv);
    if (existing.length === 1) return;
    this.deleteCopyingDisabledEvents(csv);
    this.event(
      csv,
      'Warning',
      'DisabledCopiedCSVs',
      `CSV copying disabled for ${csv.metadata.namespace}/${csv.metadata.name}`,
    );
  }

  private deleteCopyingDisabledEvents(csv: KObject): void {
    const evRes = this.res('', 'v1', 'events');
    for (const e of this.copyingDisabledEvents(csv)) {
      try {
        this.api.deleteObject(evRes, e.metadata.namespace, e.metadata.name ?? '');
      } catch {
        // gone already
      }
    }
  }

  /** Deletes this CSV's copies everywhere except in `keep`. */
  private deleteCopies(csv: KObject, keep: readonly string[]): void {
    const ns = csv.metadata.namespace ?? '';
    for (const c of this.api.storeList(this.csvs)) {
      if (c.metadata.name !== csv.metadata.name || c.metadata.namespace === ns) continue;
      if (c.metadata.labels?.['olm.copiedFrom'] !== ns) continue;
      if (keep.includes(c.metadata.namespace ?? '')) continue;
      try {
        this.api.deleteObject(this.csvs, c.metadata.namespace, c.metadata.name ?? '');
      } catch (err) {
        if (!(err instanceof ApiStatusError && err.code === 404)) throw err;
      }
    }
  }

  /** Removes copies whose source CSV is gone (the source's namespace pass cannot see them). */
  sweepOrphanCopies(): void {
    for (const c of this.api.storeList(this.csvs)) {
      const from = c.metadata.labels?.['olm.copiedFrom'];
      if (!from) continue;
      const src = this.exists(this.csvs, from, c.metadata.name ?? '');
      if (!src || src.metadata.deletionTimestamp) {
        try {
          this.api.deleteObject(this.csvs, c.metadata.namespace, c.metadata.name ?? '');
        } catch {
          // gone already
        }
      }
    }
  }
}
