// The sandbox's OLM operator (OLM's olm-operator): moves each CSV through its phases (docs/olm/csv-phases.md) —
// OperatorGroup membership, install modes and provided APIs, requirements (requirements.ts),
// deployments — and keeps what hangs off CSVs and OperatorGroups in line: OperatorConditions,
// Copied CSVs, the OperatorGroup's status and annotations, the generated roles, and OLMConfig's
// status. It acts on the CSVs the catalog operator's InstallPlans create (catalog-operator.ts).
import { isCopiedCsv } from '../../olm/resources/cluster-service-version';
import type { ApiServer } from '../server/api-server';
import type { KObject } from '../store/types';
import { CopiedCsvs, NOT_COPIABLE } from './copied-csvs';
import { CsvDeployments, type OperatorOptions } from './csv-deployments';
import { CsvPhases } from './csv-phases';
import { CsvRequirements } from './csv-requirements';
import { CsvStatusWriter } from './csv-status';
import { GeneratedRoleSync } from './generated-role-sync';
import type { OlmParts } from './olm-parts';
import { OperatorBase } from './operator-base';
import { OperatorConditionSync } from './operator-condition-sync';
import { OperatorGroupSync } from './operator-group-sync';
import { RefusedInstalls } from './refused-installs';
import { csvView, operatorGroupView } from './olm-views';

export type { OperatorOptions };

export class OlmOperator extends OperatorBase {
  private readonly parts: OlmParts;
  private readonly phases: CsvPhases;

  constructor(api: ApiServer, opts: OperatorOptions) {
    super(api);
    const status = new CsvStatusWriter(api);
    const roles = new GeneratedRoleSync(api);
    const refused = new RefusedInstalls(api, status);
    const groups = new OperatorGroupSync(api, roles, refused);
    this.parts = {
      status,
      roles,
      refused,
      groups,
      deployments: new CsvDeployments(api, status, opts),
      copies: new CopiedCsvs(api, groups, status),
      requirements: new CsvRequirements(api),
      conditions: new OperatorConditionSync(api),
    };
    this.phases = new CsvPhases(api, this.parts);
  }

  /** OLMConfig's DisabledCopiedCSVs condition (docs/olm/olm-config.md#disabledcopiedcsvs-condition). */
  syncOlmConfig(): void {
    this.parts.copies.syncOlmConfig();
  }

  syncOperatorGroups(ns: string): void {
    this.parts.groups.syncOperatorGroups(ns);
  }

  /** OperatorGroup roles go with their OperatorGroup. */
  sweepOperatorGroupRoles(): void {
    this.parts.roles.sweepOperatorGroupRoles();
  }

  /** Removes copies whose source CSV is gone (the source's namespace pass cannot see them). */
  sweepOrphanCopies(): void {
    this.parts.copies.sweepOrphanCopies();
  }

  // ---- OLM operator: the CSV phase machine (docs/olm/csv-phases.md#phase-machine) ----

  syncCsvs(ns: string): void {
    for (const csv of this.api.storeList(this.csvs, ns)) if (!isCopiedCsv(csvView(csv))) this.syncCsv(csv);
  }

  private syncCsv(csv: KObject): void {
    this.phases.syncCsvPhase(csv);
    // OLM requeues the copy of every CSV it synced, whatever its phase, unless the CSV is
    // uncopiable (api's IsUncopiable: no phase yet, or a Copied / OperatorGroup failure reason).
    const ns = csv.metadata.namespace ?? '';
    const cur = this.exists(this.csvs, ns, csv.metadata.name ?? '');
    if (!cur || cur.metadata.deletionTimestamp) return;
    const st = csvView(cur).status ?? {};
    if (!st.phase || NOT_COPIABLE.has(st.reason ?? '')) return;
    const { og } = this.parts.groups.operatorGroupOf(ns);
    if (!og) return;
    this.parts.copies.syncCopies(cur, og, operatorGroupView(og).status?.namespaces ?? []);
  }
}
