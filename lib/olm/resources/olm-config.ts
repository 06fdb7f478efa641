// OLMConfig (operators.coreos.com/v1, cluster-scoped singleton `cluster`), docs/olm/olm-config.md.
import { findCondition, OLM_GROUP, type Condition, type KubeObject, type ResourceType } from './common';

export const OLM_CONFIG_TYPE: ResourceType = {
  group: OLM_GROUP,
  version: 'v1',
  plural: 'olmconfigs',
  namespaced: false,
  kind: 'OLMConfig',
};
export const OLM_CONFIG_NAME = 'cluster';

export interface OLMConfig extends KubeObject {
  spec?: { features?: { disableCopiedCSVs?: boolean; packageServerSyncInterval?: string } };
  status?: { conditions?: Condition[] };
}

/** Copied CSVs are off when the spec says so; the status condition says whether OLM has acted. */
export function copiedCsvsDisabled(config: OLMConfig | undefined): boolean {
  return config?.spec?.features?.disableCopiedCSVs === true;
}

export function disabledCopiedCsvsCondition(config: OLMConfig | undefined): Condition | undefined {
  return findCondition(config?.status?.conditions, 'DisabledCopiedCSVs');
}

/**
 * The DisabledCopiedCSVs condition in words (OLM's syncOLMConfig, docs/olm/olm-config.md#disabledcopiedcsvs-condition), or what its absence
 * means: OLM has not acted on the setting yet.
 */
export function explainCopiedCsvsCondition(config: OLMConfig | undefined): {
  state: 'disabled' | 'disabling' | 'enabled' | 'restoring' | 'pending';
  text: string;
} {
  const wanted = copiedCsvsDisabled(config);
  const c = disabledCopiedCsvsCondition(config);
  if (!c)
    return {
      state: 'pending',
      text: `OLM has not reported on copied CSVs yet; they are ${wanted ? 'to be disabled' : 'enabled'} by the spec.`,
    };
  if (wanted && c.status === 'True')
    return {
      state: 'disabled',
      text: 'Copied CSVs are off, and OLM found none left for operators installed for all namespaces.',
    };
  if (wanted)
    return {
      state: 'disabling',
      text:
        c.reason === 'CopiedCSVsDisabled'
          ? 'Copied CSVs are off, but OLM still finds copies of operators installed for all namespaces: it is removing them.'
          : 'Copied CSVs are being turned off: OLM has not acted on the change yet.',
    };
  if (c.reason === 'CopiedCSVsDisabled')
    return { state: 'restoring', text: 'Copied CSVs are being turned back on: OLM has not acted on the change yet.' };
  return {
    state: c.message?.includes('missing') ? 'restoring' : 'enabled',
    text: c.message?.includes('missing')
      ? 'Copied CSVs are on; OLM is still making some of them.'
      : 'Copied CSVs are on: each operator installed for all namespaces is listed in every namespace.',
  };
}
