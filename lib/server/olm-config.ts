// The cluster settings page's data as the person: OLMConfig `cluster` (disableCopiedCSVs and its
// DisabledCopiedCSVs condition), what switching it would do to the Copied CSVs counted now
// (lib/olm/resources/olm-config-effect.ts), the DisabledCopiedCSVs events OLM recorded, and
// whether the person may change it (SelfSubjectAccessReview `update olmconfigs`).
//
// The switch is an update (PUT) of the object as read just now, so its resourceVersion guards it;
// `seen` is the value the person saw: when someone else switched it since, that is a 409 for the
// person, while OLM's status writes in between are read again and retried.
import { z } from 'zod';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import { CSV_TYPE, type ClusterServiceVersion } from '../olm/resources/cluster-service-version';
import { Keys } from '../olm/resources/common';
import {
  copiedCsvsDisabled,
  disabledCopiedCsvsCondition,
  explainCopiedCsvsCondition,
  OLM_CONFIG_NAME,
  OLM_CONFIG_TYPE,
  type OLMConfig,
} from '../olm/resources/olm-config';
import { copiedCsvEffect, copiedCsvRef, type CopiedCsvRef } from '../olm/resources/olm-config-effect';
import type { Allowed } from '../api/operator-conditions';
import type { CopiedCsvEvent, OlmConfigApplied, OlmConfigPlan, OlmConfigView } from '../api/olm-config';
import { ApiError } from './api-error';
import { NAMESPACE_TYPE } from './install';
import { EVENT_TYPE } from '../k8s/core-kinds';
import { accessReview } from './permissions';

export const OlmConfigBody = z.strictObject({
  disableCopiedCSVs: z.boolean({ message: 'must be true (copied CSVs off) or false (on)' }),
  seen: z.boolean({ message: 'say which value you saw: true or false' }),
});
export const OlmConfigPlanBody = z.strictObject({
  disableCopiedCSVs: z.boolean({ message: 'must be true (copied CSVs off) or false (on)' }),
});

export const EVENT_REASON = 'DisabledCopiedCSVs';

export function canChangeOlmConfig(client: KubeClient): Promise<Allowed> {
  return accessReview(client, 'update', 'operators.coreos.com', 'olmconfigs');
}

async function readConfig(
  client: KubeClient,
): Promise<{ config?: OLMConfig; state: OlmConfigView['state']; message?: string }> {
  try {
    return { config: await client.get<OLMConfig>(OLM_CONFIG_TYPE, OLM_CONFIG_NAME), state: 'present' };
  } catch (err) {
    if (isKubeError(err, 404))
      return {
        state: 'absent',
        message: `OLM has not created OLMConfig ${OLM_CONFIG_NAME}; without it copied CSVs stay enabled`,
      };
    if (isKubeError(err, 403)) return { state: 'forbidden', message: err.message };
    throw err;
  }
}

/** The number of namespaces from one item and `remainingItemCount`, as the Installed Operators list counts them. */
async function namespaceCount(client: KubeClient): Promise<number> {
  const page = await client.list(NAMESPACE_TYPE, { limit: 1 });
  return page.items.length + (page.metadata.remainingItemCount ?? 0);
}

/** Counted now: the operators' own CSVs (copies left on the server) and the copies (by label). */
async function effectOf(client: KubeClient, to: boolean): Promise<Pick<OlmConfigView, 'effect' | 'effectProblem'>> {
  try {
    const [operators, copied, namespaces] = await Promise.all([
      client.listAll<ClusterServiceVersion>(CSV_TYPE, { labelSelector: `!${Keys.copiedFrom}` }),
      client.listAll<ClusterServiceVersion>(CSV_TYPE, { labelSelector: Keys.copiedFrom }),
      namespaceCount(client).catch((err: unknown) => {
        if (isKubeError(err, 403)) return undefined;
        throw err;
      }),
    ]);
    const copies = copied.items.map(copiedCsvRef).filter((c): c is CopiedCsvRef => !!c);
    return {
      effect: copiedCsvEffect({
        to,
        operators: operators.items,
        copies,
        ...(namespaces !== undefined ? { namespaceCount: namespaces } : {}),
      }),
    };
  } catch (err) {
    if (isKubeError(err, 403)) return { effectProblem: `the effect cannot be counted: ${err.message}` };
    throw err;
  }
}

interface KubeEvent {
  type?: string;
  message?: string;
  lastTimestamp?: string;
  eventTime?: string;
  metadata?: { namespace?: string; creationTimestamp?: string };
  involvedObject?: { name?: string; namespace?: string };
}

async function copiedCsvEvents(client: KubeClient): Promise<OlmConfigView['events']> {
  try {
    const list = await client.listAll<KubeEvent>(EVENT_TYPE, {
      fieldSelector: `reason=${EVENT_REASON},involvedObject.kind=ClusterServiceVersion`,
    });
    const items: CopiedCsvEvent[] = list.items
      .map((e) => ({
        namespace: e.involvedObject?.namespace ?? e.metadata?.namespace ?? '',
        csv: e.involvedObject?.name ?? '',
        type: e.type,
        message: e.message,
        lastTimestamp: e.lastTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp,
      }))
      .sort((a, b) => (b.lastTimestamp ?? '').localeCompare(a.lastTimestamp ?? ''));
    return { count: items.length, items: items.slice(0, 50) };
  } catch (err) {
    if (isKubeError(err, 403)) return undefined;
    throw err;
  }
}

export async function olmConfigView(client: KubeClient): Promise<OlmConfigView> {
  const [read, canChange] = await Promise.all([readConfig(client), canChangeOlmConfig(client)]);
  const disabled = copiedCsvsDisabled(read.config);
  // Without the setting there is no knowing which way a switch would go (a missing OLMConfig is
  // read by OLM as copies on).
  const effect =
    read.state === 'forbidden'
      ? Promise.resolve({ effectProblem: 'the effect of switching cannot be said without reading the current setting' })
      : effectOf(client, !disabled);
  const [counted, events] = await Promise.all([effect, copiedCsvEvents(client)]);
  const condition = disabledCopiedCsvsCondition(read.config);
  return {
    state: read.state,
    ...(read.message ? { message: read.message } : {}),
    ...(read.config?.metadata?.resourceVersion ? { resourceVersion: read.config.metadata.resourceVersion } : {}),
    disableCopiedCSVs: disabled,
    ...(condition ? { condition } : {}),
    explanation: explainCopiedCsvsCondition(read.config),
    ...counted,
    ...(events ? { events } : {}),
    canChange,
  };
}

function planFor(
  config: OLMConfig,
  to: boolean,
  effect: Pick<OlmConfigView, 'effect' | 'effectProblem'>,
): OlmConfigPlan {
  const noChange = copiedCsvsDisabled(config) === to;
  const warnings = noChange
    ? [`disableCopiedCSVs is already ${to}: nothing to change.`]
    : to
      ? [
          'Only operators installed for all namespaces lose their copies; they keep watching every namespace. People who may read CSVs only in their own namespace no longer see those operators listed there.',
        ]
      : [
          'OLM writes a copy of each operator installed for all namespaces into every other namespace, and into each namespace made later: on a cluster with many namespaces that is many objects, and a burst of writes while it catches up.',
        ];
  return {
    disableCopiedCSVs: to,
    noChange,
    change: { spec: { features: { disableCopiedCSVs: to } } },
    ...effect,
    warnings,
  };
}

async function readPresent(client: KubeClient): Promise<OLMConfig> {
  const read = await readConfig(client);
  if (!read.config)
    throw new ApiError(
      read.state === 'absent' ? 404 : 403,
      read.state === 'absent' ? 'NotFound' : 'Forbidden',
      read.message ?? `OLMConfig ${OLM_CONFIG_NAME} cannot be read`,
    );
  return read.config;
}

/** The change and its effect, counted now; nothing is written. */
export async function planOlmConfig(client: KubeClient, to: boolean): Promise<OlmConfigPlan> {
  const config = await readPresent(client);
  return planFor(config, to, await effectOf(client, to));
}

export async function applyOlmConfig(
  client: KubeClient,
  body: z.infer<typeof OlmConfigBody>,
): Promise<OlmConfigApplied> {
  for (let attempt = 1; ; attempt++) {
    const config = await readPresent(client);
    const now = copiedCsvsDisabled(config);
    if (now !== body.seen) {
      throw new ApiError(
        409,
        'Conflict',
        `OLMConfig ${OLM_CONFIG_NAME} was changed meanwhile: disableCopiedCSVs is now ${now}, you saw ${body.seen}; look at the effect again and decide`,
        { resourceVersion: config.metadata?.resourceVersion },
      );
    }
    const plan = planFor(config, body.disableCopiedCSVs, await effectOf(client, body.disableCopiedCSVs));
    if (plan.noChange)
      return { plan, resourceVersion: config.metadata?.resourceVersion, view: await olmConfigView(client) };
    try {
      const written = await client.replace<OLMConfig>(OLM_CONFIG_TYPE, {
        ...config,
        spec: { ...config.spec, features: { ...config.spec?.features, disableCopiedCSVs: body.disableCopiedCSVs } },
      });
      return { plan, resourceVersion: written.metadata?.resourceVersion, view: await olmConfigView(client) };
    } catch (err) {
      if (!isKubeError(err, 409) || attempt >= 5) throw err;
    }
  }
}
