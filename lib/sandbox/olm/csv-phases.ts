// The CSV phase machine (docs/olm/csv-phases.md#phase-machine): the pre-checks (OperatorGroup
// membership, install modes, provided APIs), then one step of the CSV's phase. The other parts
// of the OLM operator do the writing; this decides what comes next.
import type { ClusterServiceVersion } from '../../olm/resources/cluster-service-version';
import { isCopiedCsv, isReplacementOf } from '../../olm/resources/cluster-service-version';
import { targetNamespacesAnnotation } from '../../olm/install-modes/operator-group-targets';
import { supportsTargetNamespaces } from '../../olm/install-modes/supports';
import {
  formatApi,
  groupSurface,
  operatorGroupsIntersect,
  parseProvidedAPIs,
  providedApiOutcome,
} from '../../olm/install-modes/provided-apis';
import { upgradeBlock, type OperatorCondition } from '../../olm/resources/operator-condition';
import type { ApiServer } from '../server/api-server';
import { ApiStatusError } from '../server/http-util';
import type { KObject } from '../store/types';
import type { OlmParts } from './olm-parts';
import { OG_FAILURE_REASONS } from './operator-group-sync';
import { CSV_FINALIZER, OLM, OperatorBase } from './operator-base';
import { namespaceServiceAccount } from './scoped';

export class CsvPhases extends OperatorBase {
  constructor(
    api: ApiServer,
    private readonly parts: OlmParts,
  ) {
    super(api);
  }

  syncCsvPhase(csv: KObject): void {
    const ns = csv.metadata.namespace ?? '';
    const name = csv.metadata.name ?? '';
    if (csv.metadata.deletionTimestamp) {
      this.parts.copies.deleteCopies(csv, []);
      if (csv.metadata.finalizers?.includes(CSV_FINALIZER))
        this.api.updateObject(this.csvs, {
          ...csv,
          metadata: { ...csv.metadata, finalizers: csv.metadata.finalizers.filter((f) => f !== CSV_FINALIZER) },
        });
      return;
    }
    // An install the group's account was refused waits for a change (refused-installs.ts).
    const retried = this.parts.refused.recheck(csv);
    if (!retried) return;
    csv = retried;
    this.parts.conditions.ensureOperatorCondition(csv);
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
    const { og, error } = this.parts.groups.operatorGroupOf(ns);
    if (error) {
      this.parts.status.setPhase(csv, 'Failed', error.reason, error.message);
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
      this.parts.status.setPhase(
        csv,
        'Failed',
        'NoTargetNamespaces',
        'no targetNamespaces are matched operatorgroups namespace selection',
      );
      return;
    }
    const verdict = supportsTargetNamespaces(spec.installModes ?? [], ns, targets);
    if (!verdict.ok) {
      this.parts.status.setPhase(csv, 'Failed', verdict.reason, verdict.message);
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
        this.parts.status.setPhase(csv, 'Failed', outcome.reason, outcome.message);
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
      csv = this.parts.status.setPhase(csv, 'Pending', 'RequirementsUnknown', 'requirements not yet checked');
      phase = 'Pending';
    }

    const others = this.api
      .storeList(this.csvs, ns)
      .filter((c) => c.metadata.name !== name && !isCopiedCsv(c as unknown as ClusterServiceVersion));
    const replacer = others.find((c) => isReplacementOf(c as unknown as ClusterServiceVersion, name));

    switch (phase) {
      case '':
      case 'None':
        this.parts.status.setPhase(csv, 'Pending', 'RequirementsUnknown', 'requirements not yet checked');
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
            this.parts.status.setPhase(csv, 'Pending', 'OperatorConditionNotUpgradeable', block.message);
            return;
          }
        }
        const requirementStatus = this.parts.requirements.requirementStatus(csv);
        if (requirementStatus.some((r) => r.status !== 'Present')) {
          this.parts.status.setPhase(
            csv,
            'Pending',
            'RequirementsNotMet',
            "one or more requirements couldn't be found",
            {
              requirementStatus,
            },
          );
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
        this.parts.status.setPhase(
          csv,
          'InstallReady',
          'AllRequirementsMet',
          'all requirements found, attempting install',
          {
            requirementStatus,
          },
        );
        return;
      }
      case 'InstallReady': {
        // With a group that names an account, the deployments are written with its token
        // (parseStrategiesAndUpdateStatus); while OLM cannot say which account, nothing is done.
        const scope = namespaceServiceAccount(this.api.storeList(this.ogs, ns));
        if (scope.error) return;
        try {
          for (const d of spec.install?.spec?.deployments ?? [])
            this.parts.deployments.ensureDeployment(csv, d, scope.ref);
        } catch (err) {
          if (!(err instanceof ApiStatusError && err.code === 403)) throw err;
          // A refusal is an unrecoverable strategy error, its message wrapped twice.
          this.parts.status.setPhase(
            csv,
            'Failed',
            'InstallComponentFailedNoRetry',
            `install strategy failed: install strategy failed: ${err.message}`,
          );
          return;
        }
        this.parts.status.setPhase(
          csv,
          'Installing',
          'InstallSucceeded',
          'waiting for install components to report healthy',
        );
        return;
      }
      case 'Installing': {
        const waitingFor = (spec.install?.spec?.deployments ?? []).find(
          (d) => !this.parts.deployments.deploymentAvailable(ns, d.name),
        );
        if (waitingFor) {
          this.parts.status.setPhase(
            csv,
            'Installing',
            'InstallWaiting',
            `installing: waiting for deployment ${waitingFor.name} to become ready: deployment "${waitingFor.name}" not available: Deployment does not have minimum availability.`,
          );
          return;
        }
        if (this.parts.deployments.reinstallIfChanged(csv, spec.install?.spec?.deployments ?? [], 'InstallWaiting'))
          return;
        this.parts.status.setPhase(csv, 'Succeeded', 'InstallSucceeded', 'install strategy completed with no errors');
        return;
      }
      case 'Succeeded': {
        this.parts.roles.ensureCrdRoles(csv);
        if (replacer) {
          this.parts.status.setPhase(
            csv,
            'Replacing',
            'BeingReplaced',
            `being replaced by csv: ${replacer.metadata.name}`,
          );
          return;
        }
        // Requirements are checked again: an account whose rules went away fails the CSV.
        const requirementStatus = this.parts.requirements.requirementStatus(csv);
        if (requirementStatus.some((r) => r.status !== 'Present')) {
          this.parts.status.setPhase(csv, 'Failed', 'RequirementsNotMet', 'requirements no longer met', {
            requirementStatus,
          });
          return;
        }
        // A Deployment that is no longer what OLM would write (the Subscription's config or the
        // cluster proxy changed) is written again (updateInstallStatus).
        this.parts.deployments.reinstallIfChanged(csv, spec.install?.spec?.deployments ?? [], 'ComponentUnhealthy');
        // Copies are synced after every phase (syncCsv).
        return;
      }
      case 'Failed': {
        // Fail-forward lets a newer CSV replace a failed one (syncClusterServiceVersion).
        if (replacer && this.failForward(ns)) {
          this.parts.status.setPhase(
            csv,
            'Replacing',
            'BeingReplaced',
            `Fail Forward is enabled, allowing Failed csv to be replaced by csv: ${replacer.metadata.name}`,
          );
          return;
        }
        // Requirements again: still unmet sends the CSV back to Pending; met, with its
        // deployments available, it has succeeded again (updateInstallStatus).
        const requirementStatus = this.parts.requirements.requirementStatus(csv);
        if (requirementStatus.some((r) => r.status !== 'Present')) {
          this.parts.status.setPhase(csv, 'Pending', 'RequirementsNotMet', 'requirements not met', {
            requirementStatus,
          });
          return;
        }
        if (
          (spec.install?.spec?.deployments ?? []).every((d) => this.parts.deployments.deploymentAvailable(ns, d.name))
        )
          this.parts.status.setPhase(csv, 'Succeeded', 'InstallSucceeded', 'install strategy completed with no errors');
        return;
      }
      case 'Replacing': {
        if (replacer && (replacer.status as { phase?: string } | undefined)?.phase === 'Succeeded') {
          this.parts.status.setPhase(
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
}
