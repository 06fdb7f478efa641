// The Catalogs page's "Default sources" as the person: whether the cluster serves OpenShift's
// OperatorHub API at all (discovery, never guessed), OperatorHub `cluster` with each default
// source's switch, what the marketplace operator last reported, the CatalogSource and the
// Subscriptions that install from it, and whether the person may change it (SelfSubjectAccessReview
// `update operatorhubs`). A switch is planned (lib/olm/catalog/operator-hub-config.ts) and applied
// as an update of the object at the resourceVersion the person loaded: any change since, by anyone,
// is a 409 for the person to look at again.
import { z } from 'zod';
import type { Allowed } from '../api/catalog-sources';
import type { DefaultSourceRow, OperatorHubApplied, OperatorHubPlan, OperatorHubView } from '../api/operator-hub';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import {
  defaultSourceStates,
  isManagedByMarketplace,
  knownDefaultSources,
  MARKETPLACE_NAMESPACE,
  OPERATOR_HUB_NAME,
  OPERATOR_HUB_TYPE,
  planSwitch,
  subscriptionsFrom,
  type HubSwitch,
  type OperatorHub,
} from '../olm/catalog/operator-hub-config';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../olm/resources/catalog-source';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import { catalogHealth } from '../olm/status/catalog-health';
import { ApiError } from './api-error';
import { accessReview } from './permissions';

const Disabled = z.boolean({ message: 'must be true (the source off) or false (on)' });
const HubSwitchBody = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('all'), disabled: Disabled }),
    z.strictObject({
      kind: z.literal('source'),
      name: z
        .string({ message: "the default source's name" })
        .min(1, 'must not be empty')
        .max(253, 'must be at most 253 characters'),
      disabled: Disabled,
    }),
  ],
  { message: 'kind must be "all" (disableAllDefaultSources) or "source" (one default source by name)' },
);

export const OperatorHubPlanBody = z.strictObject({ change: HubSwitchBody });
export const OperatorHubApplyBody = z.strictObject({
  change: HubSwitchBody,
  seen: z
    .string({ message: 'the resourceVersion of OperatorHub cluster you loaded' })
    .regex(/^\d+$/, 'the resourceVersion of OperatorHub cluster you loaded, a number'),
});

export function canChangeOperatorHub(client: KubeClient): Promise<Allowed> {
  return accessReview(client, 'update', OPERATOR_HUB_TYPE.group, OPERATOR_HUB_TYPE.plural);
}

async function readHub(
  client: KubeClient,
): Promise<{ hub?: OperatorHub; state: 'present' | 'absent' | 'forbidden'; message?: string }> {
  try {
    return { hub: await client.get<OperatorHub>(OPERATOR_HUB_TYPE, OPERATOR_HUB_NAME), state: 'present' };
  } catch (err) {
    if (isKubeError(err, 404))
      return {
        state: 'absent',
        message: `the cluster serves the OperatorHub API but has no OperatorHub ${OPERATOR_HUB_NAME}: the marketplace operator then keeps every default source enabled`,
      };
    if (isKubeError(err, 403)) return { state: 'forbidden', message: err.message };
    throw err;
  }
}

/** A list the person may not make is a problem to show, not a failure. */
async function readOr<T>(what: string, read: () => Promise<T[]>, problems: string[]): Promise<T[]> {
  try {
    return await read();
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    problems.push(`${what} could not be read: ${err.message}`);
    return [];
  }
}

async function context(client: KubeClient, hub: OperatorHub | undefined) {
  const problems: string[] = [];
  const [catalogSources, subscriptions] = await Promise.all([
    readOr(
      'CatalogSources in openshift-marketplace',
      async () =>
        (await client.listAll<CatalogSource>(CATALOG_SOURCE_TYPE, { namespace: MARKETPLACE_NAMESPACE })).items,
      problems,
    ),
    readOr(
      'Subscriptions in every namespace',
      async () => (await client.listAll<Subscription>(SUBSCRIPTION_TYPE)).items,
      problems,
    ),
  ]);
  return { catalogSources, subscriptions, problems, defaults: knownDefaultSources(hub, catalogSources) };
}

export async function operatorHubView(client: KubeClient): Promise<OperatorHubView> {
  if (!(await client.serves(OPERATOR_HUB_TYPE))) {
    return {
      api: 'absent',
      sources: [],
      otherEntries: [],
      problems: [],
      canChange: {
        allowed: false,
        reason: "this cluster does not serve OpenShift's OperatorHub API (config.openshift.io/v1 operatorhubs)",
      },
    };
  }
  const [read, canChange] = await Promise.all([readHub(client), canChangeOperatorHub(client)]);
  const { catalogSources, subscriptions, problems, defaults } = await context(client, read.hub);
  const sources = defaultSourceStates(read.hub, defaults).map((s): DefaultSourceRow => {
    const cs = catalogSources.find((c) => c.metadata?.name === s.name);
    return {
      ...s,
      ...(cs ? { catalogSource: { managed: isManagedByMarketplace(cs), health: catalogHealth(cs) } } : {}),
      subscriptions: subscriptionsFrom(s.name, subscriptions),
    };
  });
  const otherEntries = (read.hub?.spec?.sources ?? [])
    .filter((s) => !defaults.includes(s.name))
    .map((s) => {
      const reported = read.hub?.status?.sources?.find((r) => r.name === s.name);
      return { name: s.name, disabled: s.disabled, ...(reported ? { reported } : {}) };
    });
  return {
    api: 'served',
    state: read.state,
    ...(read.message ? { message: read.message } : {}),
    ...(read.hub?.metadata?.resourceVersion ? { resourceVersion: read.hub.metadata.resourceVersion } : {}),
    ...(read.hub ? { disableAllDefaultSources: read.hub.spec?.disableAllDefaultSources === true } : {}),
    sources,
    otherEntries,
    problems,
    canChange,
  };
}

async function readPresent(client: KubeClient): Promise<OperatorHub> {
  if (!(await client.serves(OPERATOR_HUB_TYPE)))
    throw new ApiError(
      404,
      'NotFound',
      "this cluster does not serve OpenShift's OperatorHub API (config.openshift.io/v1 operatorhubs): upstream OLM has no switch for its catalogs; delete a CatalogSource to remove a catalog",
    );
  const read = await readHub(client);
  if (!read.hub)
    throw new ApiError(
      read.state === 'absent' ? 404 : 403,
      read.state === 'absent' ? 'NotFound' : 'Forbidden',
      read.message ?? `OperatorHub ${OPERATOR_HUB_NAME} cannot be read`,
    );
  return read.hub;
}

function warningsFor(plan: ReturnType<typeof planSwitch>, sw: HubSwitch): string[] {
  const w: string[] = [];
  if (plan.notDefault)
    w.push(
      `${plan.notDefault} is not one of the default sources the marketplace operator reports: it would only record an error ("Not present in the default definitions") and do nothing.`,
    );
  else if (plan.noChange) w.push('No default source changes state.');
  for (const h of plan.heldBySourceEntry)
    w.push(
      `${h.name} stays ${h.disabled ? 'disabled' : 'enabled'}: its own entry in spec.sources (disabled: ${h.disabled}) takes precedence over disableAllDefaultSources.`,
    );
  if (sw.kind === 'all' && !sw.disabled && plan.effects.length)
    w.push(
      'Every default source without its own entry comes back; entries in spec.sources still decide for their sources.',
    );
  return w;
}

/** The change and what the marketplace operator then does, counted now; nothing is written. */
export async function planOperatorHubSwitch(client: KubeClient, sw: HubSwitch): Promise<OperatorHubPlan> {
  const hub = await readPresent(client);
  const [{ catalogSources, subscriptions, defaults, problems }, allowed] = await Promise.all([
    context(client, hub),
    canChangeOperatorHub(client),
  ]);
  const plan = planSwitch(hub, sw, { defaults, catalogSources, subscriptions });
  return {
    ...plan,
    change: sw,
    ...(hub.metadata?.resourceVersion ? { resourceVersion: hub.metadata.resourceVersion } : {}),
    warnings: [...warningsFor(plan, sw), ...problems.map((p) => `${p}; the counts may be short.`)],
    allowed,
  };
}

export async function applyOperatorHubSwitch(
  client: KubeClient,
  body: z.infer<typeof OperatorHubApplyBody>,
): Promise<OperatorHubApplied> {
  const plan = await planOperatorHubSwitch(client, body.change);
  if (plan.resourceVersion !== body.seen) {
    throw new ApiError(
      409,
      'Conflict',
      `OperatorHub ${OPERATOR_HUB_NAME} was changed since you loaded it (resourceVersion ${plan.resourceVersion ?? '?'}, you loaded ${body.seen}): look at the default sources again and decide`,
      { resourceVersion: plan.resourceVersion },
    );
  }
  if (plan.notDefault)
    throw new ApiError(
      400,
      'BadRequest',
      `change.name: ${plan.notDefault} is not one of the default sources the marketplace operator reports; it would only record "Not present in the default definitions" and do nothing`,
    );
  const hub = await readPresent(client);
  // The update carries the resourceVersion the person loaded: the API server refuses it (409) if
  // anything changed the object in between, status included.
  const written = await client.replace<OperatorHub>(OPERATOR_HUB_TYPE, {
    ...hub,
    metadata: { ...hub.metadata, resourceVersion: body.seen },
    spec: plan.spec,
  });
  return { plan, resourceVersion: written.metadata?.resourceVersion };
}
