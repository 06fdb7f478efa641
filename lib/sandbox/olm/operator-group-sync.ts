// OperatorGroups (docs/olm/operator-groups.md#target-namespaces): each group's target namespaces,
// its service account, the annotations it gives its namespace's CSVs and the provided APIs it
// stops advertising; and which one group a CSV belongs to. The rules are lib/olm's.
import { isCopiedCsv } from '../../olm/resources/cluster-service-version';
import { operatorGroupTargets, targetNamespacesAnnotation } from '../../olm/install-modes/operator-group-targets';
import { formatApi, formatProvidedAPIs, parseProvidedAPIs } from '../../olm/install-modes/provided-apis';
import type { ApiServer } from '../server/api-server';
import type { KObject } from '../store/types';
import type { GeneratedRoleSync } from './generated-role-sync';
import { OperatorBase, now, removeCondition, setCondition, type Cond } from './operator-base';
import type { RefusedInstalls } from './refused-installs';
import { serviceAccountRef, type ServiceAccountRef } from './scoped';
import { csvView, operatorGroupView } from './olm-views';

/** The reasons a CSV fails for its OperatorGroup; the CSV goes back to Pending once they clear. */
export const OG_FAILURE_REASONS = new Set([
  'NoOperatorGroup',
  'TooManyOperatorGroups',
  'UnsupportedOperatorGroup',
  'NoTargetNamespaces',
  'InvalidInstallModes',
  'InterOperatorGroupOwnerConflict',
  'CannotModifyStaticOperatorGroupProvidedAPIs',
]);

export class OperatorGroupSync extends OperatorBase {
  constructor(
    api: ApiServer,
    private readonly roles: GeneratedRoleSync,
    private readonly refused: RefusedInstalls,
  ) {
    super(api);
  }

  private get namespaces() {
    return this.res('', 'v1', 'namespaces');
  }

  namespaceFacts() {
    return this.api
      .storeList(this.namespaces)
      .filter((n) => !n.metadata.deletionTimestamp)
      .map((n) => ({ name: n.metadata.name ?? '', labels: n.metadata.labels }));
  }

  syncOperatorGroups(ns: string): void {
    const groups = this.api.storeList(this.ogs, ns);
    for (let og of groups) {
      const targets = operatorGroupTargets(operatorGroupView(og), this.namespaceFacts());
      const namespaces = 'namespaces' in targets ? targets.namespaces : [];
      let conditions: Cond[] = operatorGroupView(og).status?.conditions ?? [];
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
      const prev = operatorGroupView(og).status ?? {};
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
      this.roles.ensureOperatorGroupRoles(og);
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
    const name = operatorGroupView(og).spec?.serviceAccountName ?? '';
    const st = operatorGroupView(og).status ?? {};
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
    this.refused.retryRefusedInstalls(ns, og.metadata.name ?? '');
    return { og, conditions: conds };
  }

  private annotateCsvs(ns: string, og: string, targets: string[]): void {
    const want = {
      'olm.operatorGroup': og,
      'olm.operatorNamespace': ns,
      'olm.targetNamespaces': targetNamespacesAnnotation(targets),
    };
    for (const csv of this.api.storeList(this.csvs, ns)) {
      if (isCopiedCsv(csvView(csv)) || csv.metadata.deletionTimestamp) continue;
      const have = csv.metadata.annotations ?? {};
      if (Object.entries(want).every(([k, v]) => have[k] === v)) continue;
      this.api.updateObject(this.csvs, { ...csv, metadata: { ...csv.metadata, annotations: { ...have, ...want } } });
    }
  }

  /** The annotation loses the APIs no CSV in the namespace provides any more (not while one is pending). */
  private pruneProvidedApis(og: KObject): void {
    if (operatorGroupView(og).spec?.staticProvidedAPIs) return;
    const ns = og.metadata.namespace ?? '';
    const csvs = this.api.storeList(this.csvs, ns).filter((c) => !isCopiedCsv(csvView(c)));
    if (csvs.some((c) => ['', 'Pending', undefined].includes(csvView(c).status?.phase))) return;
    const provided = csvs
      // A CSV refused for an API conflict was never granted its APIs; every other CSV keeps them
      // (pruning them while it waits on its OperatorGroup would make the two passes undo each other).
      .filter(
        (c) =>
          !['InterOperatorGroupOwnerConflict', 'CannotModifyStaticOperatorGroupProvidedAPIs'].includes(
            csvView(c).status?.reason ?? '',
          ),
      )
      .flatMap((c) =>
        (csvView(c).spec.customresourcedefinitions?.owned ?? []).map((d) =>
          formatApi({ group: d.name.split('.').slice(1).join('.'), version: d.version, kind: d.kind }),
        ),
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

  operatorGroupOf(ns: string): { og?: KObject; error?: { reason: string; message: string } } {
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
}
