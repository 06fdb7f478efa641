// Making a Subscription again, as the person: the Subscription, then what must go with it (failed
// InstallPlans, unpack Jobs and ConfigMaps), then its CSV — waited for, since OLM refuses a new
// Subscription while its package's CSV stays unreferenced —, then the new Subscription. Shared by
// a rollback (a new starting CSV) and a refresh (the same Subscription). If the new one cannot be
// made, the original is made again; if the CSV cannot be deleted, the original is not put back
// (OLM would refuse it) and the error says what is left.
import type { KubeClient } from '../k8s/client';
import { isKubeError, KubeError } from '../k8s/errors';
import { CSV_TYPE } from '../olm/resources/cluster-service-version';
import type { ResourceType } from '../olm/resources/common';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import { ApiError } from './api-error';
import type { ResubscribeResult } from '../api/resubscribe';
export type { ResubscribeResult } from '../api/resubscribe';

export interface Removal {
  type: ResourceType;
  namespace: string;
  name: string;
}

export interface ResubscribeRequest {
  namespace: string;
  original: Subscription;
  /** The CSV to delete with the Subscription, if any. */
  csv?: string;
  /** Deleted after the Subscription, in order; one already gone is fine. */
  also: Removal[];
  next: Subscription;
  /** How the new Subscription is described in the steps ("starting at pgpilot.v1.3.0"). */
  describeNext: string;
}

async function waitGone(
  client: KubeClient,
  t: ResourceType,
  name: string,
  namespace: string,
  ms: number,
): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await client.get(t, name, namespace);
    } catch (err) {
      if (isKubeError(err, 404)) return true;
      throw err;
    }
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function resubscribe(client: KubeClient, r: ResubscribeRequest): Promise<ResubscribeResult> {
  const { namespace, original } = r;
  const subName = original.metadata?.name ?? '';
  const steps: ResubscribeResult['steps'] = [];
  const fail = (what: string, err: unknown, extra = ''): never => {
    const k = err instanceof KubeError ? err : undefined;
    throw new ApiError(
      k?.code ?? 500,
      k?.reason ?? 'InternalError',
      `${what} failed: ${(err as Error).message}${extra}`,
      { steps: [...steps, { step: what, outcome: 'failed', message: (err as Error).message }] },
    );
  };
  const remove = async (what: string, run: () => Promise<unknown>, extra = '') => {
    try {
      await run();
      steps.push({ step: what, outcome: 'done' });
    } catch (err) {
      if (isKubeError(err, 404)) steps.push({ step: what, outcome: 'already gone' });
      else fail(what, err, extra);
    }
  };
  // The Subscription goes first: while it is there, OLM makes a missing InstallPlan again (and
  // may run it) as soon as the failed one is deleted.
  await remove(`delete Subscription ${namespace}/${subName}`, () =>
    client.delete(SUBSCRIPTION_TYPE, subName, { namespace, uid: original.metadata?.uid }),
  );
  for (const d of r.also)
    await remove(
      `delete ${d.type.kind} ${d.namespace}/${d.name}`,
      () => client.delete(d.type, d.name, { namespace: d.namespace, propagationPolicy: 'Background' }),
      `; the Subscription is gone: delete what is left by hand, then create the Subscription ${r.describeNext}`,
    );
  const putBack = async (): Promise<string> => {
    try {
      await client.create<Subscription>(
        SUBSCRIPTION_TYPE,
        {
          apiVersion: original.apiVersion,
          kind: original.kind,
          metadata: {
            name: subName,
            namespace,
            ...(original.metadata?.labels ? { labels: original.metadata.labels } : {}),
            ...(original.metadata?.annotations ? { annotations: original.metadata.annotations } : {}),
          },
          spec: original.spec,
        },
        { namespace },
      );
      steps.push({
        step: `delete Subscription ${namespace}/${subName}`,
        outcome: 'undone',
        message: 'the original Subscription was made again',
      });
      return `; the original Subscription was made again, so OLM resolves it as before`;
    } catch (e) {
      return `; the original Subscription could not be made again (${(e as Error).message}): create it by hand`;
    }
  };
  if (r.csv) {
    const csv = r.csv;
    // Not put back on failure: OLM refuses a Subscription while a CSV of its package that no
    // Subscription refers to is there.
    await remove(
      `delete ClusterServiceVersion ${namespace}/${csv}`,
      () => client.delete(CSV_TYPE, csv, { namespace }),
      `; the Subscription is gone and ${csv} stays without one: delete the CSV, then create the Subscription ${r.describeNext}`,
    );
    if (!(await waitGone(client, CSV_TYPE, csv, namespace, 60_000))) {
      throw new ApiError(
        504,
        'Timeout',
        `ClusterServiceVersion ${namespace}/${csv} is still there a minute after it was deleted (its finalizers hold it); the Subscription was not made again: create it ${r.describeNext} once it is gone`,
        { steps, subscription: r.next },
      );
    }
  }
  // A move makes it in another namespace.
  const nextNs = r.next.metadata?.namespace ?? namespace;
  const nextName = r.next.metadata?.name ?? subName;
  try {
    await client.create<Subscription>(SUBSCRIPTION_TYPE, r.next, { namespace: nextNs });
    steps.push({ step: `create Subscription ${nextNs}/${nextName} ${r.describeNext}`, outcome: 'done' });
  } catch (err) {
    fail(`creating Subscription ${nextNs}/${nextName} ${r.describeNext}`, err, await putBack());
  }
  return { subscription: { namespace: nextNs, name: nextName }, steps };
}
