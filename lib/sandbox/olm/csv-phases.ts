// The CSV phase machine (docs/olm/csv-phases.md#phase-machine): after the pre-checks
// (csv-pre-checks.ts), one step of the CSV's phase, one method per phase. The other parts of the
// OLM operator do the writing; this decides what comes next.
import { isCopiedCsv, isReplacementOf, type ClusterServiceVersion } from '../../olm/resources/cluster-service-version';
import { upgradeBlock } from '../../olm/resources/operator-condition';
import type { ApiServer } from '../server/api-server';
import { ApiStatusError } from '../server/http-util';
import type { KObject } from '../store/types';
import { CsvPreChecks } from './csv-pre-checks';
import { csvView, operatorConditionView } from './olm-views';
import type { OlmParts } from './olm-parts';
import { CSV_FINALIZER, OLM, OperatorBase } from './operator-base';
import { namespaceServiceAccount } from './scoped';

/** One CSV at one step: what every phase reads. */
interface Step {
  csv: KObject;
  spec: ClusterServiceVersion['spec'];
  ns: string;
  name: string;
  /** The namespace's other CSVs, copies left out. */
  others: KObject[];
  /** The CSV installed in this one's place, once there is one. */
  replacer?: KObject;
}

/** What the CSV's finalizer deletes by its owner labels (olm/operator.go processFinalizer). */
const FINALIZER_CLEANUP = [
  ['rbac.authorization.k8s.io', 'clusterrolebindings'],
  ['rbac.authorization.k8s.io', 'clusterroles'],
  ['admissionregistration.k8s.io', 'mutatingwebhookconfigurations'],
  ['admissionregistration.k8s.io', 'validatingwebhookconfigurations'],
] as const;

export class CsvPhases extends OperatorBase {
  private readonly preChecks: CsvPreChecks;

  constructor(
    api: ApiServer,
    private readonly parts: OlmParts,
  ) {
    super(api);
    this.preChecks = new CsvPreChecks(api, parts);
  }

  syncCsvPhase(csv: KObject): void {
    if (csv.metadata.deletionTimestamp) {
      this.deleted(csv);
      return;
    }
    // An install the group's account was refused waits for a change (refused-installs.ts).
    const retried = this.parts.refused.recheck(csv);
    if (!retried) return;
    this.parts.conditions.ensureOperatorCondition(retried);
    const checked = this.preChecks.run(retried);
    if (!checked) return;
    const step = this.step(checked.csv);
    switch (checked.phase) {
      case '':
      case 'None':
        this.parts.status.setPhase(step.csv, 'Pending', 'RequirementsUnknown', 'requirements not yet checked');
        return;
      case 'Pending':
        return this.pending(step);
      case 'InstallReady':
        return this.installReady(step);
      case 'Installing':
        return this.installing(step);
      case 'Succeeded':
        return this.succeeded(step);
      case 'Failed':
        return this.failed(step);
      case 'Replacing':
        return this.replacing(step);
      case 'Deleting':
        this.api.deleteObject(this.csvs, step.ns, step.name);
        return;
      default:
        return;
    }
  }

  private step(csv: KObject): Step {
    const ns = csv.metadata.namespace ?? '';
    const name = csv.metadata.name ?? '';
    const others = this.api
      .storeList(this.csvs, ns)
      .filter((c) => c.metadata.name !== name && !isCopiedCsv(csvView(c)));
    const replacer = others.find((c) => isReplacementOf(csvView(c), name));
    return { csv, spec: csvView(csv).spec, ns, name, others, ...(replacer ? { replacer } : {}) };
  }

  private deployments(s: Step) {
    return s.spec.install?.spec?.deployments ?? [];
  }

  /**
   * A deleted CSV's copies go; its finalizer deletes the cluster-scoped objects carrying its owner
   * labels, then lets it go (docs/olm/uninstall.md#deleting-a-csv).
   */
  private deleted(csv: KObject): void {
    this.parts.copies.deleteCopies(csv, []);
    if (!csv.metadata.finalizers?.includes(CSV_FINALIZER)) return;
    const owned = (o: KObject) =>
      o.metadata.labels?.['olm.owner'] === csv.metadata.name &&
      o.metadata.labels?.['olm.owner.namespace'] === csv.metadata.namespace &&
      o.metadata.labels?.['olm.owner.kind'] === 'ClusterServiceVersion';
    for (const [group, resource] of FINALIZER_CLEANUP) {
      const r = this.api.resources.find(group, 'v1', resource);
      if (!r) continue;
      for (const o of this.api.storeList(r))
        if (owned(o) && !o.metadata.deletionTimestamp) this.api.deleteObject(r, undefined, o.metadata.name ?? '');
    }
    if (csv.metadata.finalizers?.includes(CSV_FINALIZER))
      this.api.updateObject(this.csvs, {
        ...csv,
        metadata: { ...csv.metadata, finalizers: csv.metadata.finalizers.filter((f) => f !== CSV_FINALIZER) },
      });
  }

  private pending(s: Step): void {
    const { csv, spec, ns, others } = s;
    // The installed version may hold its replacement back (OperatorCondition
    // Upgradeable=False); OLM asks before it checks requirements.
    if (spec.replaces) {
      const old = others.find((c) => c.metadata.name === spec.replaces);
      const oc = old ? this.exists(this.res(OLM, 'v2', 'operatorconditions'), ns, old.metadata.name ?? '') : undefined;
      const block = oc ? upgradeBlock(operatorConditionView(oc)) : { blocked: false as const };
      if (block.blocked) {
        this.parts.status.setPhase(csv, 'Pending', 'OperatorConditionNotUpgradeable', block.message);
        return;
      }
    }
    const requirementStatus = this.parts.requirements.requirementStatus(csv);
    if (requirementStatus.some((r) => r.status !== 'Present')) {
      this.parts.status.setPhase(csv, 'Pending', 'RequirementsNotMet', "one or more requirements couldn't be found", {
        requirementStatus,
      });
      return;
    }
    if (spec.replaces) {
      // Not yet: the CSV it replaces is not Replacing (OLM has written what it found, though).
      const old = others.find((c) => c.metadata.name === spec.replaces);
      if (old && csvView(old).status?.phase !== 'Replacing') {
        this.writeStatus(this.csvs, csv, { ...(csv.status as object), requirementStatus });
        return;
      }
    }
    this.parts.status.setPhase(
      csv,
      'InstallReady',
      'AllRequirementsMet',
      'all requirements found, attempting install',
      {
        requirementStatus,
      },
    );
  }

  private installReady(s: Step): void {
    // With a group that names an account, the deployments are written with its token
    // (parseStrategiesAndUpdateStatus); while OLM cannot say which account, nothing is done.
    const scope = namespaceServiceAccount(this.api.storeList(this.ogs, s.ns));
    if (scope.error) return;
    try {
      for (const d of this.deployments(s)) this.parts.deployments.ensureDeployment(s.csv, d, scope.ref);
    } catch (err) {
      if (!(err instanceof ApiStatusError && err.code === 403)) throw err;
      // A refusal is an unrecoverable strategy error, its message wrapped twice.
      this.parts.status.setPhase(
        s.csv,
        'Failed',
        'InstallComponentFailedNoRetry',
        `install strategy failed: install strategy failed: ${err.message}`,
      );
      return;
    }
    this.parts.status.setPhase(
      s.csv,
      'Installing',
      'InstallSucceeded',
      'waiting for install components to report healthy',
    );
  }

  private installing(s: Step): void {
    const waitingFor = this.deployments(s).find((d) => !this.parts.deployments.deploymentAvailable(s.ns, d.name));
    if (waitingFor) {
      this.parts.status.setPhase(
        s.csv,
        'Installing',
        'InstallWaiting',
        `installing: waiting for deployment ${waitingFor.name} to become ready: deployment "${waitingFor.name}" not available: Deployment does not have minimum availability.`,
      );
      return;
    }
    if (this.parts.deployments.reinstallIfChanged(s.csv, this.deployments(s), 'InstallWaiting')) return;
    this.parts.status.setPhase(s.csv, 'Succeeded', 'InstallSucceeded', 'install strategy completed with no errors');
  }

  private succeeded(s: Step): void {
    this.parts.roles.ensureCrdRoles(s.csv);
    if (s.replacer) {
      this.parts.status.setPhase(
        s.csv,
        'Replacing',
        'BeingReplaced',
        `being replaced by csv: ${s.replacer.metadata.name}`,
      );
      return;
    }
    // Requirements are checked again: an account whose rules went away fails the CSV.
    const requirementStatus = this.parts.requirements.requirementStatus(s.csv);
    if (requirementStatus.some((r) => r.status !== 'Present')) {
      this.parts.status.setPhase(s.csv, 'Failed', 'RequirementsNotMet', 'requirements no longer met', {
        requirementStatus,
      });
      return;
    }
    // A Deployment that is no longer what OLM would write (the Subscription's config or the
    // cluster proxy changed) is written again (updateInstallStatus).
    this.parts.deployments.reinstallIfChanged(s.csv, this.deployments(s), 'ComponentUnhealthy');
    // Copies are synced after every phase (syncCsv).
  }

  private failed(s: Step): void {
    // Fail-forward lets a newer CSV replace a failed one (syncClusterServiceVersion).
    if (s.replacer && this.failForward(s.ns)) {
      this.parts.status.setPhase(
        s.csv,
        'Replacing',
        'BeingReplaced',
        `Fail Forward is enabled, allowing Failed csv to be replaced by csv: ${s.replacer.metadata.name}`,
      );
      return;
    }
    // Requirements again: still unmet sends the CSV back to Pending; met, with its
    // deployments available, it has succeeded again (updateInstallStatus).
    const requirementStatus = this.parts.requirements.requirementStatus(s.csv);
    if (requirementStatus.some((r) => r.status !== 'Present')) {
      this.parts.status.setPhase(s.csv, 'Pending', 'RequirementsNotMet', 'requirements not met', {
        requirementStatus,
      });
      return;
    }
    if (this.deployments(s).every((d) => this.parts.deployments.deploymentAvailable(s.ns, d.name)))
      this.parts.status.setPhase(s.csv, 'Succeeded', 'InstallSucceeded', 'install strategy completed with no errors');
  }

  private replacing(s: Step): void {
    if (s.replacer && csvView(s.replacer).status?.phase === 'Succeeded') {
      this.parts.status.setPhase(
        s.csv,
        'Deleting',
        'Replaced',
        'has been replaced by a newer ClusterServiceVersion that has successfully installed.',
      );
    }
  }
}
