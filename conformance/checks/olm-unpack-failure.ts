// OLM v0 unpacking a bundle whose image is missing from the registry (OLM v0.38.0
// bundle_unpacker.go ensureJob and catalog/operator.go syncResolvingNamespace): the image of the
// image-only catalog's package `unpackmissing` is deleted from each cluster's registry before anyone
// subscribes, in a namespace whose OperatorGroup shortens the unpack deadline and sets a retry
// interval. What a client sees is compared: the pull failing on the unpack pod, the Subscription
// unpacking, then failed in OLM's words with no InstallPlan; the Job, ConfigMap, pods and events
// in the catalog's namespace; that nothing more happens once the retry interval has passed
// (OLM looks again only when something changes); and, with the image pushed back and the
// Subscription touched, the second Job OLM makes and the install it leads to.
import { createHash } from 'node:crypto';
import { readWatch } from '../read-watch';
import type { Check } from '../run-checks';
import type { Target } from '../target';
import { CATALOG_NS, conditions, list, must, namespace, type Obj, settled, subscribe, until } from './olm-read';
import { UNPACK_CATALOG } from './olm-unpack';
import { headImage, manifestRequest } from './unpack-image-registry';

/** The image-only catalog's package whose image goes missing (conformance/main.ts unpackCatalog). */
export const MISSING_PACKAGE = 'unpackmissing';

const NS = 'conf-olm-unpack-fail';
// Long enough for a loaded cluster to place the pod and report the failed pull before the Job ends.
const TIMEOUT = '20s';
const RETRY_MS = 15_000;
const SUBS = `/apis/operators.coreos.com/v1alpha1/namespaces/${NS}/subscriptions`;

type Cond = { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string };
type Waiting = { reason?: string; message?: string };

/**
 * Polls `read` until its answer has not changed for `quietMs` (bounded by `ms`), and answers it:
 * the state a person reads once the clusters' controllers have stopped moving.
 */
async function quiet<T>(read: () => Promise<T>, quietMs: number, ms = 60_000): Promise<T> {
  let last = '';
  let value = await read();
  let since = Date.now();
  const deadline = Date.now() + ms;
  for (;;) {
    const now = JSON.stringify(value);
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 500));
    value = await read();
  }
}

/** What a person reads of the unpack objects in the catalog's namespace, names made comparable. */
async function unpackObjects(t: Target, hash: string) {
  const jobs = await list(t, `/apis/batch/v1/namespaces/${CATALOG_NS}/jobs?labelSelector=${label(hash)}`);
  const jobNames = new Set(jobs.map((j) => j.metadata.name));
  const pods = (await list(t, `/api/v1/namespaces/${CATALOG_NS}/pods`)).filter((p) =>
    jobNames.has(p.metadata.labels?.['job-name'] ?? ''),
  );
  const cm = await must(t, 'GET', `/api/v1/namespaces/${CATALOG_NS}/configmaps/${hash}`).catch(() => undefined);
  const events = (await list(t, `/api/v1/namespaces/${CATALOG_NS}/events`)).filter((e) =>
    String((e.involvedObject as { name?: string } | undefined)?.name ?? '').startsWith(hash.slice(0, 58)),
  );
  return {
    jobs: jobs.map((j) => {
      const st = (j.status ?? {}) as Record<string, unknown>;
      return {
        name: j.metadata.name,
        labels: j.metadata.labels,
        owners: ((j.metadata.ownerReferences ?? []) as { kind: string }[]).map((o) => o.kind),
        activeDeadlineSeconds: (j.spec as { activeDeadlineSeconds?: number }).activeDeadlineSeconds,
        conditions: ((st.conditions ?? []) as Cond[]).map((c) => `${c.type}=${c.status} ${c.reason}: ${c.message}`),
        counts: { active: st.active ?? 0, failed: st.failed ?? 0, succeeded: st.succeeded ?? 0 },
      };
    }),
    pods: pods.map((p) => {
      const pull = ((p.status?.initContainerStatuses ?? []) as { name: string; state?: { waiting?: Waiting } }[]).find(
        (c) => c.name === 'pull',
      );
      return { name: p.metadata.name, phase: p.status?.phase, pullWaiting: pull?.state?.waiting?.reason ?? null };
    }),
    configMap: cm && {
      labels: cm.metadata.labels,
      owners: ((cm.metadata.ownerReferences ?? []) as { kind: string }[]).map((o) => o.kind),
      annotationKeys: Object.keys(cm.metadata.annotations ?? {}).sort(),
      binaryData: Object.keys((cm.binaryData ?? {}) as object).length > 0,
      data: Object.keys((cm.data ?? {}) as object).length > 0,
    },
    // A set: how often a controller repeats an event is each cluster's timing.
    events: [
      ...new Set(
        events.map((e) => {
          const o = e.involvedObject as { kind?: string; name?: string };
          return `${o.kind} ${o.name} ${e.type} ${e.reason}: ${e.message}`;
        }),
      ),
    ].sort(),
  };
}

/**
 * The waiting reasons of the unpack pod's `pull` container, each in the order a watch on the Job's
 * pods first sees it (a kubelet's ErrImagePull may last a second: polling could miss it). A reason
 * seen again is not repeated: how often a kubelet's back-off retries before the deadline is timing.
 */
function pullStates(t: Target, hash: string): { stop(): Waiting[] } {
  const seen: Waiting[] = [];
  const ended = new AbortController();
  const path = `/api/v1/namespaces/${CATALOG_NS}/pods?watch=1&labelSelector=job-name%3D${hash}`;
  const take = (e: { object?: Obj }) => {
    const pull = (
      (e.object?.status?.initContainerStatuses ?? []) as { name: string; state?: { waiting?: Waiting } }[]
    ).find((c) => c.name === 'pull')?.state?.waiting;
    if (pull && /ImagePull/.test(pull.reason ?? '') && !seen.some((w) => w.reason === pull.reason))
      seen.push({ reason: pull.reason, message: pull.message });
    return false;
  };
  // Read until the check has what it waited for; a cut stream keeps what it saw.
  void readWatch(t, path, take, 10 * 60_000, () => true, ended.signal);
  return {
    stop: () => {
      ended.abort();
      return seen;
    },
  };
}

const label = (hash: string) => encodeURIComponent(`operatorframework.io/bundle-unpack-ref=${hash}`);

async function subscriptionView(t: Target) {
  const s = (await list(t, SUBS))[0];
  const st = (s?.status ?? {}) as { state?: string; installPlanRef?: unknown; currentCSV?: string };
  return {
    state: st.state ?? '',
    currentCSV: st.currentCSV ?? '',
    installPlanRef: !!st.installPlanRef,
    conditions: conditions(s).map((c) => `${c.type}=${c.status} (${c.reason}) ${c.message}`),
  };
}

const planCount = async (t: Target) =>
  (await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${NS}/installplans`)).length;

export const unpackFailureChecks: Check[] = [
  {
    id: 'olm/unpack: a bundle image missing from the registry fails its unpack, retried once back',
    // Alone, after the others: in the whole suite, beside the other OLM scenarios, real OLM had not
    // written BundleUnpackFailed after 120 s (alone: within the 20 s deadline and a pass). Its
    // waits on the retry interval are timed from the Job's failure, so a busy OLM also blurs them.
    alone: true,
    run: async (t) => {
      const image = await headImage(t, UNPACK_CATALOG, MISSING_PACKAGE, 'stable');
      const hash = createHash('sha256').update(image).digest('hex').slice(0, 63);
      const manifest = await manifestRequest(t, image, 'GET');
      if (manifest.status !== 200) throw new Error(`${t.name}: GET ${image}: ${manifest.status}`);
      const deleted = await manifestRequest(t, image, 'DELETE');
      await namespace(t, NS);
      await must(t, 'POST', `/apis/operators.coreos.com/v1/namespaces/${NS}/operatorgroups`, {
        apiVersion: 'operators.coreos.com/v1',
        kind: 'OperatorGroup',
        metadata: {
          name: 'og',
          annotations: {
            'operatorframework.io/bundle-unpack-timeout': TIMEOUT,
            'operatorframework.io/bundle-unpack-min-retry-interval': `${RETRY_MS / 1000}s`,
          },
        },
        spec: { targetNamespaces: [NS] },
      });
      const pulls = pullStates(t, hash);
      await subscribe(t, NS, MISSING_PACKAGE, { name: MISSING_PACKAGE, channel: 'stable', source: UNPACK_CATALOG });

      // While the pull fails: the pod waits on it and the Subscription says it is unpacking.
      const unpacking = await until(t, 'the Subscription unpacking', async () => {
        const s = (await list(t, SUBS))[0];
        return conditions(s).find((c) => c.type === 'BundleUnpacking');
      });
      await until(t, 'the Subscription failed to unpack', async () =>
        conditions((await list(t, SUBS))[0]).some((c) => c.type === 'BundleUnpackFailed') ? true : undefined,
      );
      const read = async () => ({
        subscription: await subscriptionView(t),
        installPlans: await planCount(t),
        unpack: await unpackObjects(t, hash),
      });
      const failed = await quiet(read, 5_000);
      const pullWaiting = pulls.stop();

      // The retry interval passes with the image still missing (from the Job's failure on).
      const failedAt = (await list(t, `/apis/batch/v1/namespaces/${CATALOG_NS}/jobs?labelSelector=${label(hash)}`))
        .flatMap((j: Obj) => (j.status?.conditions ?? []) as Cond[])
        .find((c) => c.type === 'Failed')?.lastTransitionTime;
      const retryFrom = Date.parse(failedAt ?? '') + RETRY_MS + 1_000;
      await until(
        t,
        'the retry interval past',
        async () => (Date.now() > retryFrom ? true : undefined),
        RETRY_MS + 60_000,
      );
      const afterInterval = await quiet(read, 5_000);

      // The image pushed back and the Subscription touched, as a person nudges it: OLM looks again.
      const pushed = await manifestRequest(t, image, 'PUT', manifest);
      await must(t, 'PATCH', `${SUBS}/${MISSING_PACKAGE}`, {
        metadata: { annotations: { 'conformance.example.com/nudge': '1' } },
      });
      await until(t, 'the InstallPlan Complete', async () => {
        const p = (await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${NS}/installplans`))[0];
        return p?.status?.phase === 'Complete' ? p : undefined;
      });
      await until(t, 'the unpack conditions cleared', async () =>
        conditions((await list(t, SUBS))[0]).some((c) => c.type.startsWith('BundleUnpack')) ? undefined : true,
      );
      await settled(t, NS, 5_000);
      const retried = await read();

      // The node's name is each cluster's own (kwok's, the sandbox's).
      const nodes = (await list(t, '/api/v1/nodes')).map((n) => n.metadata.name);
      const comparable = (v: unknown) =>
        JSON.parse(
          nodes
            .reduce((text, node) => text.split(node).join('<node>'), JSON.stringify(v))
            .split(image)
            .join('<image>')
            .split(hash)
            .join('<hash>')
            .replace(new RegExp(`${hash.slice(0, 58)}[a-z0-9]{5}`, 'g'), '<hash, generated>')
            .replace(/(<hash>|<hash, generated>)-[a-z0-9]{5}/g, '$1-<pod>'),
          // Events are a set, sorted once their names read the same on both clusters.
          (key, value: unknown) => (key === 'events' && Array.isArray(value) ? [...(value as string[])].sort() : value),
        ) as unknown;
      return comparable({
        registry: { deleted: deleted.status, pushedBack: pushed.status },
        whileUnpacking: {
          // The runtime's own error text ends each message; the kubelet's words are compared.
          pull: pullWaiting.map((w) => `${w.reason}: ${(w.message ?? '').replace(/(": (ErrImagePull: )?).*$/, '$1…')}`),
          subscription: `${unpacking.type}=${unpacking.status} (${unpacking.reason}) ${unpacking.message}`,
        },
        failed,
        afterInterval,
        retried,
      });
    },
  },
];
