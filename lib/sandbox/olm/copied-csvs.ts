// Copied CSVs (docs/olm/copied-csvs.md): the copy of an operator's CSV in each namespace it
// watches, kept in line with its source and removed with it, or none at all while OLMConfig
// disables copies for AllNamespaces operators, with the Warning event and OLMConfig's
// DisabledCopiedCSVs condition that say so.
import { isCopiedCsv } from '../../olm/resources/cluster-service-version';
import { isAllNamespaces } from '../../olm/install-modes/operator-group-targets';
import type { ApiServer } from '../server/api-server';
import { ApiStatusError } from '../server/http-util';
import type { KObject } from '../store/types';
import type { CsvStatusWriter } from './csv-status';
import { OG_FAILURE_REASONS, type OperatorGroupSync } from './operator-group-sync';
import { OLM, OperatorBase, setCondition } from './operator-base';
import { csvView, olmConfigView } from './olm-views';

/** A CSV with no phase yet or one of these reasons is not copied (api's IsUncopiable). */
export const NOT_COPIABLE = new Set(['Copied', ...OG_FAILURE_REASONS]);

export class CopiedCsvs extends OperatorBase {
  constructor(
    api: ApiServer,
    private readonly groups: OperatorGroupSync,
    private readonly status: CsvStatusWriter,
  ) {
    super(api);
  }

  private get namespaces() {
    return this.res('', 'v1', 'namespaces');
  }

  /** OLMConfig's DisabledCopiedCSVs condition (docs/olm/olm-config.md#disabledcopiedcsvs-condition). */
  syncOlmConfig(): void {
    const cfgRes = this.api.resources.find(OLM, 'v1', 'olmconfigs');
    const cfg = cfgRes ? this.exists(cfgRes, undefined, 'cluster') : undefined;
    if (!cfgRes || !cfg) return;
    const disabled = olmConfigView(cfg).spec?.features?.disableCopiedCSVs === true;
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
    const st = olmConfigView(cfg).status ?? {};
    const conditions = setCondition(st.conditions, condition);
    this.writeStatus(cfgRes, cfg, { ...st, conditions });
  }

  private copiesDisabled(targets: readonly string[]): boolean {
    const cfgRes = this.api.resources.find(OLM, 'v1', 'olmconfigs');
    const cfg = cfgRes ? this.exists(cfgRes, undefined, 'cluster') : undefined;
    return (
      isAllNamespaces(targets) && (cfg ? olmConfigView(cfg).spec?.features?.disableCopiedCSVs : undefined) === true
    );
  }

  syncCopies(csv: KObject, og: KObject, targets: string[]): void {
    const ns = csv.metadata.namespace ?? '';
    const reason = csvView(csv).status?.reason ?? '';
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
    const all = isAllNamespaces(targets) ? this.groups.namespaceFacts().map((n) => n.name) : targets;
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
    if (!isCopiedCsv(csvView(existing))) return;
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
    this.status.event(
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
  deleteCopies(csv: KObject, keep: readonly string[]): void {
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
