// The parts of the sandbox's OLM operator, as the CSV phase machine is given them: each writes
// one kind of thing (a CSV's status, its Deployments, its copies, the generated roles, ...);
// olm-operator.ts makes them and orders a namespace's pass.
import type { CopiedCsvs } from './copied-csvs';
import type { CsvDeployments } from './csv-deployments';
import type { CsvRequirements } from './csv-requirements';
import type { CsvStatusWriter } from './csv-status';
import type { GeneratedRoleSync } from './generated-role-sync';
import type { OperatorConditionSync } from './operator-condition-sync';
import type { OperatorGroupSync } from './operator-group-sync';
import type { RefusedInstalls } from './refused-installs';

export interface OlmParts {
  readonly status: CsvStatusWriter;
  readonly roles: GeneratedRoleSync;
  readonly refused: RefusedInstalls;
  readonly groups: OperatorGroupSync;
  readonly deployments: CsvDeployments;
  readonly copies: CopiedCsvs;
  readonly requirements: CsvRequirements;
  readonly conditions: OperatorConditionSync;
}
