// A CSV's status in words, for every page that shows one (docs/olm/csv-phases.md#phase-machine):
// the raw phase and reason are kept, a sentence explains them, and a severity drives badges.
import { isCopiedCsv, operatorNamespaceOf, type ClusterServiceVersion } from '../resources/cluster-service-version';

export type Severity = 'ok' | 'progressing' | 'warning' | 'error';

export interface CsvDisplayStatus {
  phase: string;
  reason: string;
  /** Short label for a badge: the phase, or "Copied". */
  label: string;
  /** A sentence a person can act on. */
  detail: string;
  severity: Severity;
  /** The CSV's own message from OLM, when it has one. */
  message?: string;
  copiedFrom?: string;
}

const reasonText: Record<string, string> = {
  RequirementsUnknown: 'OLM has not checked the requirements yet',
  RequirementsNotMet: 'one or more requirements (CRDs, service accounts, permissions) are missing',
  AllRequirementsMet: 'all requirements found; the install is starting',
  InstallSucceeded: 'the operator is installed and running',
  InstallWaiting: 'waiting for the operator deployments to become ready',
  InstallComponentFailed: 'a component of the install failed; OLM retries',
  InstallComponentFailedNoRetry: 'a component of the install failed and OLM will not retry',
  InstallCheckFailed: 'the install did not become healthy in time',
  InvalidInstallStrategy: 'the install strategy in the CSV is invalid',
  InvalidInstallModes: 'the CSV lists an install mode more than once',
  NoOperatorGroup: 'the namespace has no OperatorGroup',
  TooManyOperatorGroups: 'the namespace has more than one OperatorGroup; remove all but one',
  UnsupportedOperatorGroup:
    "the namespace's OperatorGroup targets namespaces this operator's install modes do not support",
  NoTargetNamespaces: "the namespace's OperatorGroup selects no namespace",
  InterOperatorGroupOwnerConflict: 'another OperatorGroup watching the same namespaces already provides these APIs',
  CannotModifyStaticOperatorGroupProvidedAPIs:
    "the OperatorGroup's provided APIs are static and cannot take this operator's APIs",
  OwnerConflict: 'another operator outside this upgrade chain owns one of its CRDs or API services',
  BeingReplaced: 'a newer version is being installed to replace it',
  Replaced: 'replaced by a newer version; OLM is removing it',
  NeedsReinstall: 'unhealthy; OLM will reinstall it',
  ComponentUnhealthy: 'a deployment of the operator is unhealthy',
  APIServiceResourceIssue: 'resources of an API service it provides are missing',
  APIServiceInstallFailed: 'an API service it provides failed to install',
  APIServiceResourcesNeedReinstall: 'resources of an API service it provides need a reinstall',
  NeedsCertRotation: 'its serving certificates are being rotated',
  OperatorConditionNotUpgradeable:
    'the installed version reports it is not upgradeable (OperatorCondition Upgradeable=False)',
  InvalidWebhookDescription: 'a webhook in the CSV is invalid or duplicated',
  DetectedClusterChange: 'the cluster changed; OLM is retrying the install',
  WaitingOnCleanup: 'waiting for cleanup of the previous version',
};

const phaseSeverity: Record<string, Severity> = {
  Succeeded: 'ok',
  Pending: 'progressing',
  InstallReady: 'progressing',
  Installing: 'progressing',
  Replacing: 'progressing',
  Deleting: 'progressing',
  Failed: 'error',
  Unknown: 'warning',
  '': 'progressing',
};

export function csvDisplayStatus(csv: ClusterServiceVersion): CsvDisplayStatus {
  const phase = csv.status?.phase ?? '';
  const reason = csv.status?.reason ?? '';
  const message = csv.status?.message || undefined;
  if (isCopiedCsv(csv)) {
    const from = operatorNamespaceOf(csv) ?? '';
    return {
      phase,
      reason,
      label: 'Copied',
      message,
      copiedFrom: from,
      detail: `Copied from ${from}: the operator runs in ${from} and manages this namespace${phase && phase !== 'Succeeded' ? ` (it is ${phase} there)` : ''}`,
      severity: phase === 'Failed' ? 'error' : phase === 'Succeeded' ? 'ok' : 'progressing',
    };
  }
  let severity = phaseSeverity[phase] ?? 'warning';
  // A Pending CSV that waits on something only a person can fix is a warning, not progress.
  if (phase === 'Pending' && (reason === 'RequirementsNotMet' || reason === 'OperatorConditionNotUpgradeable'))
    severity = 'warning';
  const explained = reasonText[reason];
  const detail = !phase
    ? 'OLM has not processed this CSV yet'
    : explained
      ? `${phase}: ${explained}`
      : reason
        ? `${phase} (${reason})`
        : phase;
  return { phase, reason, label: phase || 'Unknown', detail, severity, message };
}
