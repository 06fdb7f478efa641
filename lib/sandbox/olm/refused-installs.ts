// Installs the OperatorGroup's service account was refused (InstallComponentFailedNoRetry): OLM
// does not try them again on every sync, only once the namespace's OLM-managed RBAC changed or
// the group's account was synced. This part remembers what the RBAC was at the refusal.
import type { ApiServer } from '../server/api-server';
import type { KObject } from '../store/types';
import type { CsvStatusWriter } from './csv-status';
import { OperatorBase } from './operator-base';
import { csvView } from './olm-views';

export class RefusedInstalls extends OperatorBase {
  /** The namespace's OLM-managed RBAC when each CSV was refused its install (by CSV uid). */
  private readonly refusedRbac = new Map<string, string>();

  constructor(
    api: ApiServer,
    private readonly status: CsvStatusWriter,
  ) {
    super(api);
  }

  /**
   * An install the group's account was refused is not tried again (syncClusterServiceVersion
   * skips it) until the namespace's RBAC OLM watches changes or the group's account is synced.
   * Answers the CSV to go on with, or nothing while it waits.
   */
  recheck(csv: KObject): KObject | undefined {
    if (csvView(csv).status?.reason !== 'InstallComponentFailedNoRetry') return csv;
    const at = this.refusedRbac.get(csv.metadata.uid ?? '');
    const nowRbac = this.managedRbacFingerprint(csv.metadata.namespace ?? '');
    if (at === undefined) this.refusedRbac.set(csv.metadata.uid ?? '', nowRbac);
    if (at === undefined || at === nowRbac) return undefined;
    this.refusedRbac.delete(csv.metadata.uid ?? '');
    return this.status.setPhase(csv, 'Pending', 'DetectedClusterChange', 'Cluster resources changed state');
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
  retryRefusedInstalls(ns: string, og: string): void {
    for (const csv of this.api.storeList(this.csvs, ns)) {
      if (csv.metadata.annotations?.['olm.operatorGroup'] !== og) continue;
      if (csvView(csv).status?.reason !== 'InstallComponentFailedNoRetry') continue;
      this.refusedRbac.delete(csv.metadata.uid ?? '');
      this.status.setPhase(csv, 'Pending', 'DetectedClusterChange', 'Cluster resources changed state');
    }
  }
}
