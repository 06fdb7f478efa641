// Adding, editing and deleting catalogs as the person, in the plan/apply style: the plan is the
// exact object (or the spec fields an edit changes), the Subscriptions that install from the
// catalog, and what OLM then does; applying writes it as the person, guarded by the generation
// the person saw: someone else's change to the spec since is a 409, never overwritten, while OLM's
// status writes (every poll, every health check) are read again and retried.
import { z } from 'zod';
import type { Allowed, CatalogSourceApplied, CatalogSourceChange, CatalogSourcePlan } from '../api/catalog-sources';
import { GLOBAL_CATALOG_NAMESPACES } from '../catalog/catalog-index';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import {
  catalogSourceFromForm,
  editedSpec,
  formProblems,
  specChanges,
  type CatalogSourceForm,
} from '../olm/catalog/catalog-source-form';
import { marketplaceManagedNote } from '../olm/catalog/operator-hub-config';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../olm/resources/catalog-source';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import { ApiError, dnsLabel } from './api-error';
import { accessReview } from './permissions';

const Form = z.strictObject({
  image: z.string().max(1024, 'must be at most 1024 characters'),
  displayName: z.string().max(256, 'must be at most 256 characters'),
  publisher: z.string().max(256, 'must be at most 256 characters'),
  priority: z.number({ message: 'must be a number' }),
  pollInterval: z.string().max(64, 'must be at most 64 characters').optional(),
});
// OLM names the catalog's Service and pod after the CatalogSource: a DNS-1035 label.
const CatalogName = dnsLabel.regex(/^[a-z]/, "must start with a letter: OLM names the catalog's Service after it");
const Seen = z
  .string({ message: 'the generation you saw (metadata.generation)' })
  .regex(/^\d+$/, 'the generation you saw (metadata.generation), a number');

export const CatalogSourceChangeBody = z.discriminatedUnion(
  'action',
  [
    z.strictObject({ action: z.literal('create'), namespace: dnsLabel, name: CatalogName, source: Form }),
    z.strictObject({ action: z.literal('update'), namespace: dnsLabel, name: dnsLabel, source: Form, seen: Seen }),
    z.strictObject({ action: z.literal('delete'), namespace: dnsLabel, name: dnsLabel, seen: Seen }),
    z.strictObject({ action: z.literal('disable'), namespace: dnsLabel, name: dnsLabel, seen: Seen }),
    z.strictObject({ action: z.literal('enable'), namespace: dnsLabel, name: dnsLabel }),
  ],
  { message: 'action must be create, update, delete, disable or enable' },
);

export const DisableBody = z.strictObject({ seen: Seen });

export const CatalogSourceUpdateBody = z.strictObject({ source: Form, seen: Seen });

function checkForm(f: CatalogSourceForm): void {
  const problems = Object.entries(formProblems(f));
  if (problems.length)
    throw new ApiError(400, 'BadRequest', problems.map(([k, v]) => `source.${k}: ${v}`).join('; '), {
      fields: Object.fromEntries(problems),
    });
}

async function readSource(client: KubeClient, namespace: string, name: string, seen: string): Promise<CatalogSource> {
  const cs = await client.get<CatalogSource>(CATALOG_SOURCE_TYPE, name, namespace);
  const generation = String(cs.metadata?.generation ?? '');
  if (generation !== seen) {
    throw new ApiError(
      409,
      'Conflict',
      `CatalogSource ${namespace}/${name} was changed since you looked (generation ${generation}, you saw ${seen}): look again and decide`,
      { generation },
    );
  }
  return cs;
}

/** The Subscriptions that install from this catalog, those the person may list. */
async function subscriptionsOf(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<Pick<CatalogSourcePlan, 'subscriptions' | 'subscriptionsProblem'>> {
  const global = GLOBAL_CATALOG_NAMESPACES.includes(namespace);
  let subs: Subscription[];
  let problem: string | undefined;
  try {
    subs = (await client.listAll<Subscription>(SUBSCRIPTION_TYPE, global ? {} : { namespace })).items;
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    problem = `Subscriptions ${global ? 'in every namespace' : `in ${namespace}`} could not be listed: ${err.message}`;
    subs = [];
  }
  return {
    subscriptions: subs
      .filter((s) => s.spec.source === name && s.spec.sourceNamespace === namespace)
      .map((s) => ({
        namespace: s.metadata?.namespace ?? '',
        name: s.metadata?.name ?? '',
        package: s.spec.name,
        approval: s.spec.installPlanApproval ?? 'Automatic',
      })),
    ...(problem ? { subscriptionsProblem: problem } : {}),
  };
}

function reach(namespace: string): string {
  return GLOBAL_CATALOG_NAMESPACES.includes(namespace)
    ? 'Subscriptions in every namespace can install from it'
    : `only Subscriptions in ${namespace} can install from it (${namespace} is not a global catalog namespace)`;
}

type EditChange = Extract<CatalogSourceChange, { action: 'create' | 'update' | 'delete' }>;

export async function planCatalogSourceChange(client: KubeClient, change: EditChange): Promise<CatalogSourcePlan> {
  const { namespace, name } = change;
  const verb = change.action;
  const [allowed, subs] = await Promise.all([
    accessReview(client, verb, 'operators.coreos.com', 'catalogsources', namespace) as Promise<Allowed>,
    change.action === 'create' ? Promise.resolve({ subscriptions: [] }) : subscriptionsOf(client, namespace, name),
  ]);
  const base = { action: change.action, namespace, name, allowed, ...subs };
  if (change.action === 'create') {
    checkForm(change.source);
    const object = catalogSourceFromForm(namespace, name, change.source);
    const warnings = [
      `OLM runs a catalog pod in ${namespace} that pulls ${object.spec.image}; a private registry needs a pull secret (spec.secrets), which this form does not set.`,
      `${reach(namespace)[0]!.toUpperCase()}${reach(namespace).slice(1)}.`,
      object.spec.updateStrategy
        ? `OLM pulls the image again every ${change.source.pollInterval}: new versions in it can upgrade operators whose Subscriptions have Automatic approval.`
        : 'Without a polling interval OLM pulls the image once: new versions pushed to the same tag are not seen.',
    ];
    try {
      await client.get(CATALOG_SOURCE_TYPE, name, namespace);
      warnings.unshift(
        `A CatalogSource ${namespace}/${name} exists already: creating would fail; edit that one or pick another name.`,
      );
    } catch (err) {
      if (!isKubeError(err, 404) && !isKubeError(err, 403)) throw err;
    }
    return { ...base, object, warnings };
  }
  const cs = await readSource(client, namespace, name, change.seen);
  const automatic = base.subscriptions.filter((s) => s.approval === 'Automatic').length;
  if (change.action === 'update') {
    checkForm(change.source);
    const object: CatalogSource = { ...cs, spec: editedSpec(cs, change.source) };
    const changes = specChanges(cs.spec, object.spec);
    const managed = marketplaceManagedNote(cs, 'update');
    const warnings = [...(managed ? [managed] : []), ...(changes.length === 0 ? ['Nothing changes.'] : [])];
    if (changes.some((c) => c.field === 'spec.image'))
      warnings.push(
        `OLM replaces the catalog pod to serve the new image${automatic ? `: ${automatic} Subscription(s) with Automatic approval upgrade at once if it has newer versions on their channels` : ''}.`,
      );
    if (changes.some((c) => c.field === 'spec.priority'))
      warnings.push(
        'Priority decides which catalog OLM installs from when two offer the same package; Subscriptions name their catalog, so installed operators are not moved.',
      );
    return { ...base, object, changes, warnings };
  }
  const n = base.subscriptions.length;
  const readAt = cs.metadata?.resourceVersion;
  const managed = marketplaceManagedNote(cs, 'delete');
  const warnings = [
    ...(managed ? [managed] : []),
    `OLM deletes the catalog pod and Service; its packages leave OperatorHub.`,
    n
      ? `${n} Subscription(s) install from it: their operators keep running, but OLM can no longer upgrade them, and their CatalogSourcesUnhealthy condition turns True ("targeted catalogsource ${namespace}/${name} missing") until a catalog of that name is back.`
      : 'No Subscription you can see installs from it.',
  ];
  return { ...base, warnings, ...(readAt ? { readAt } : {}) };
}

export async function applyCatalogSourceChange(client: KubeClient, change: EditChange): Promise<CatalogSourceApplied> {
  const { namespace, name } = change;
  if (change.action === 'create') {
    const plan = await planCatalogSourceChange(client, change);
    const made = await client.create<CatalogSource>(CATALOG_SOURCE_TYPE, plan.object!, { namespace });
    return { plan, resourceVersion: made.metadata?.resourceVersion };
  }
  // Each attempt plans on the object read now (409 when its spec moved past what the person saw)
  // and writes at that read's resourceVersion: a status write by OLM in between is a 409 from the
  // API server, read again and retried; a spec change by someone else stops at the plan.
  for (let attempt = 1; ; attempt++) {
    const plan = await planCatalogSourceChange(client, change);
    try {
      if (change.action === 'update') {
        if (!plan.changes?.length) return { plan, resourceVersion: plan.object?.metadata?.resourceVersion };
        const written = await client.replace<CatalogSource>(CATALOG_SOURCE_TYPE, plan.object!);
        return { plan, resourceVersion: written.metadata?.resourceVersion };
      }
      await client.delete(CATALOG_SOURCE_TYPE, name, {
        namespace,
        ...(plan.readAt ? { resourceVersion: plan.readAt } : {}),
      });
      return { plan };
    } catch (err) {
      if (!isKubeError(err, 409) || attempt >= 5) throw err;
    }
  }
}
