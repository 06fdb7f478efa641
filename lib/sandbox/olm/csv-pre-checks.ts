// The checks OLM runs on a CSV before its phase (docs/olm/csv-phases.md#pre-checks,
// docs/olm/install-modes.md): it belongs to exactly one OperatorGroup, whose annotations it
// carries; the group targets some namespace; the CSV supports that install mode; and no
// intersecting group provides the same APIs. Each failed check fails the CSV with OLM's reason,
// and a CSV that failed one of them goes back to Pending once they pass.
import { targetNamespacesAnnotation } from '../../olm/install-modes/operator-group-targets';
import {
  formatApi,
  groupSurface,
  operatorGroupsIntersect,
  parseProvidedAPIs,
  providedApiOutcome,
} from '../../olm/install-modes/provided-apis';
import { supportsTargetNamespaces } from '../../olm/install-modes/supports';
import type { ApiServer } from '../server/api-server';
import type { KObject } from '../store/types';
import { csvView, operatorGroupView } from './olm-views';
import type { OlmParts } from './olm-parts';
import { OperatorBase } from './operator-base';
import { OG_FAILURE_REASONS } from './operator-group-sync';

/** A CSV that passed the pre-checks, as it is now, and the phase to run. */
export interface Checked {
  csv: KObject;
  phase: string;
}

export class CsvPreChecks extends OperatorBase {
  constructor(
    api: ApiServer,
    private readonly parts: OlmParts,
  ) {
    super(api);
  }

  /** Runs the checks in OLM's order; answers nothing when one failed or changed the group. */
  run(csv: KObject): Checked | undefined {
    const st = csvView(csv).status ?? {};
    const member = this.membership(csv);
    if (!member) return undefined;
    csv = member.csv;
    if (!this.targetsSupported(csv, member.targets)) return undefined;
    if (!this.providedApisSettled(csv, member.og, member.targets)) return undefined;
    if (st.phase === 'Failed' && OG_FAILURE_REASONS.has(st.reason ?? '')) {
      csv = this.parts.status.setPhase(csv, 'Pending', 'RequirementsUnknown', 'requirements not yet checked');
      return { csv, phase: 'Pending' };
    }
    return { csv, phase: st.phase ?? '' };
  }

  /** The namespace's one OperatorGroup, whose name, namespace and targets the CSV is annotated with. */
  private membership(csv: KObject): { csv: KObject; og: KObject; targets: string[] } | undefined {
    const ns = csv.metadata.namespace ?? '';
    const { og, error } = this.parts.groups.operatorGroupOf(ns);
    if (error || !og) {
      if (error) this.parts.status.setPhase(csv, 'Failed', error.reason, error.message);
      return undefined;
    }
    const targets = operatorGroupView(og).status?.namespaces ?? [];
    const annotations = {
      'olm.operatorGroup': og.metadata.name ?? '',
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
    return { csv, og, targets };
  }

  /** The group targets some namespace, in a mode the CSV supports. */
  private targetsSupported(csv: KObject, targets: string[]): boolean {
    if (targets.length === 0) {
      this.parts.status.setPhase(
        csv,
        'Failed',
        'NoTargetNamespaces',
        'no targetNamespaces are matched operatorgroups namespace selection',
      );
      return false;
    }
    const verdict = supportsTargetNamespaces(
      csvView(csv).spec.installModes ?? [],
      csv.metadata.namespace ?? '',
      targets,
    );
    if (!verdict.ok) {
      this.parts.status.setPhase(csv, 'Failed', verdict.reason, verdict.message);
      return false;
    }
    return true;
  }

  /**
   * No two intersecting OperatorGroups may provide the same API (docs/olm/operator-groups.md#provided-apis):
   * a conflict fails the CSV; APIs the group does not advertise yet are added to it (or removed),
   * and the CSV waits for the next pass.
   */
  private providedApisSettled(csv: KObject, og: KObject, targets: string[]): boolean {
    const ns = csv.metadata.namespace ?? '';
    const apis = new Set(
      (csvView(csv).spec.customresourcedefinitions?.owned ?? []).map((d) =>
        formatApi({ group: d.name.split('.').slice(1).join('.'), version: d.version, kind: d.kind }),
      ),
    );
    if (apis.size === 0) return true;
    const ownSurface = groupSurface(ns, targets);
    const others = this.api
      .storeList(this.ogs)
      .filter(
        (o) =>
          o.metadata.uid !== og.metadata.uid &&
          operatorGroupsIntersect(
            ownSurface,
            groupSurface(o.metadata.namespace ?? '', operatorGroupView(o).status?.namespaces ?? []),
          ),
      );
    const union = new Set(others.flatMap((o) => [...parseProvidedAPIs(o.metadata.annotations?.['olm.providedAPIs'])]));
    const outcome = providedApiOutcome(
      apis,
      parseProvidedAPIs(og.metadata.annotations?.['olm.providedAPIs']),
      union,
      operatorGroupView(og).spec?.staticProvidedAPIs === true,
    );
    if (outcome.action === 'fail') {
      this.parts.status.setPhase(csv, 'Failed', outcome.reason, outcome.message);
      return false;
    }
    if (outcome.action === 'add' || outcome.action === 'remove') {
      const cur = this.exists(this.ogs, ns, og.metadata.name ?? '')!;
      this.api.updateObject(this.ogs, {
        ...cur,
        metadata: {
          ...cur.metadata,
          annotations: { ...cur.metadata.annotations, 'olm.providedAPIs': outcome.annotation },
        },
      });
      return false;
    }
    return true;
  }
}
