// One Server-Sent Events stream per browser tab, multiplexing the Kubernetes watches its page
// needs. Each watch is an informer acting as the person: it sends a `snapshot` (the full list),
// then `change` events; when the cluster drops the watch it resumes from the last
// resourceVersion, and after a 410 it sends a new snapshot. Every event's id carries each
// watch's resourceVersion, so a browser reconnecting with Last-Event-ID resumes where it was
// instead of downloading everything again. Comments every few seconds keep proxies from
// closing an idle stream. A stream acting with a session's token ends when that session does,
// with a `session` event that tells the page so.
import { z } from 'zod';
import type { KubeClient, KubeObject } from '../k8s/client';
import { startInformer, type Informer } from '../k8s/informer';
import { isKubeError, KubeError } from '../k8s/errors';
import { DEPLOYMENT_TYPE, EVENT_TYPE, NAMESPACE_TYPE } from '../k8s/core-kinds';
import { CATALOG_SOURCE_TYPE } from '../olm/resources/catalog-source';
import { CSV_TYPE } from '../olm/resources/cluster-service-version';
import type { ResourceType } from '../olm/resources/common';
import { INSTALL_PLAN_TYPE } from '../olm/resources/install-plan';
import { OLM_CONFIG_TYPE } from '../olm/resources/olm-config';
import { OPERATOR_HUB_TYPE } from '../olm/catalog/operator-hub-config';
import { OPERATOR_CONDITION_TYPE } from '../olm/resources/operator-condition';
import { OPERATOR_GROUP_TYPE } from '../olm/resources/operator-group';
import { SUBSCRIPTION_TYPE } from '../olm/resources/subscription';
import { dnsLabel, dnsSubdomain } from './api-error';
import { CLUSTER_CATALOG_TYPE, CLUSTER_EXTENSION_TYPE } from './olm-v1/resources';
import { DEFAULT_STREAM_LIMITS } from './stream-limits';
import type { StreamSessionState } from './stream-session';

export const WATCHABLE: Record<string, ResourceType> = {
  subscriptions: SUBSCRIPTION_TYPE,
  clusterserviceversions: CSV_TYPE,
  // The operators' own CSVs, not OLM's copies: a cluster-wide page watches these so that an
  // operator copied into thousands of namespaces is not streamed thousands of times.
  operatorcsvs: CSV_TYPE,
  installplans: INSTALL_PLAN_TYPE,
  operatorgroups: OPERATOR_GROUP_TYPE,
  catalogsources: CATALOG_SOURCE_TYPE,
  operatorconditions: OPERATOR_CONDITION_TYPE,
  olmconfigs: OLM_CONFIG_TYPE,
  // OpenShift's OperatorHub `cluster` (watched only where the API is served).
  operatorhubs: OPERATOR_HUB_TYPE,
  namespaces: NAMESPACE_TYPE,
  events: EVENT_TYPE,
  // OLM v1's catalogs and extensions (watched only where olm.operatorframework.io/v1 is served).
  clustercatalogs: CLUSTER_CATALOG_TYPE,
  clusterextensions: CLUSTER_EXTENSION_TYPE,
  // What a ClusterExtension installed rolls out as Deployments: its page follows them.
  deployments: DEPLOYMENT_TYPE,
};

const LABEL_SELECTORS: Record<string, string> = { operatorcsvs: '!olm.copiedFrom' };

export interface WatchSpec {
  id: string;
  kind: string;
  namespace?: string;
  name?: string;
}

/**
 * `id:kind[:namespace[:name]]`, each part checked; the message names the bad spec. More watches
 * than a stream may carry is a 400, not a 429: asking again later would not help.
 */
export function parseWatchSpecs(
  raw: readonly string[],
  maxWatches = DEFAULT_STREAM_LIMITS.watchesPerStream,
): WatchSpec[] {
  if (raw.length === 0)
    throw new z.ZodError([
      { code: 'custom', path: ['w'], message: 'name at least one watch, as id:kind[:namespace[:name]]', input: raw },
    ]);
  if (raw.length > maxWatches) {
    const message = `at most ${maxWatches} watches per stream (OLM_CONSOLE_MAX_WATCHES_PER_STREAM)`;
    throw new z.ZodError([{ code: 'custom', path: ['w'], message, input: raw }]);
  }
  const ids = new Set<string>();
  return raw.map((text, i) => {
    const [id = '', kind = '', namespace, name, ...rest] = text.split(':');
    const fail = (message: string) =>
      new z.ZodError([{ code: 'custom', path: ['w', i], message: `"${text}": ${message}`, input: text }]);
    if (rest.length > 0) throw fail('too many parts; use id:kind[:namespace[:name]]');
    if (!/^[a-z0-9-]{1,40}$/.test(id)) throw fail('the id must be 1-40 lowercase letters, digits or "-"');
    if (ids.has(id)) throw fail(`the id ${id} is used twice`);
    ids.add(id);
    const type = WATCHABLE[kind];
    if (!type) throw fail(`kind must be one of ${Object.keys(WATCHABLE).join(', ')}`);
    if (namespace && !dnsLabel.safeParse(namespace).success) throw fail('the namespace is not a valid name');
    if (namespace && !type.namespaced) throw fail(`${kind} are not namespaced`);
    if (name && !dnsSubdomain.safeParse(name).success) throw fail('the name is not a valid object name');
    return { id, kind, ...(namespace ? { namespace } : {}), ...(name ? { name } : {}) };
  });
}

/** Last-Event-ID: base64url JSON of watch id → resourceVersion. Anything else means "start over". */
export function decodeResume(text: string | null | undefined): Map<string, string> {
  if (!text) return new Map();
  try {
    const parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (!parsed || typeof parsed !== 'object') return new Map();
    return new Map(
      Object.entries(parsed).filter(
        (e): e is [string, string] => typeof e[1] === 'string' && /^[0-9a-zA-Z]{1,40}$/.test(e[1]),
      ),
    );
  } catch {
    return new Map();
  }
}

export function encodeResume(versions: ReadonlyMap<string, string>): string {
  return Buffer.from(JSON.stringify(Object.fromEntries(versions))).toString('base64url');
}

function trimmed(o: KubeObject): KubeObject {
  const meta = o.metadata as Record<string, unknown> | undefined;
  if (!meta?.managedFields) return o;
  const rest = { ...meta };
  delete rest.managedFields;
  return { ...o, metadata: rest as KubeObject['metadata'] };
}

export interface StreamOptions {
  heartbeatMs?: number;
  resume?: ReadonlyMap<string, string>;
  signal?: AbortSignal;
  /** Told when a watch starts and stops (tests count the open ones). */
  onInformers?: (open: number) => void;
  /** Asked every `sessionCheckMs` (default 1 s) whether the session the stream acts with still holds. */
  session?: () => StreamSessionState;
  sessionCheckMs?: number;
  /** Called once when the stream ends, whatever ends it. */
  onClose?: () => void;
}

export function openWatchStream(
  client: KubeClient,
  specs: readonly WatchSpec[],
  opts: StreamOptions = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const versions = new Map<string, string>();
  const informers = new Map<string, Informer<KubeObject>>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let sessionTimer: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const finish = () => {
    closed = true;
    if (timer) clearInterval(timer);
    if (sessionTimer) clearInterval(sessionTimer);
    for (const i of informers.values()) i.stop();
    informers.clear();
    opts.onInformers?.(0);
    opts.onClose?.();
  };

  return new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close();
        }
      };
      const send = (event: string, data: unknown, withId = true) => {
        write(`${withId ? `id: ${encodeResume(versions)}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      };
      const stopWatch = (id: string) => {
        informers.get(id)?.stop();
        informers.delete(id);
        opts.onInformers?.(informers.size);
      };
      const close = () => {
        if (closed) return;
        finish();
        try {
          controller.close();
        } catch {
          // already closed by the runtime
        }
      };
      opts.signal?.addEventListener('abort', close, { once: true });
      if (opts.signal?.aborted) {
        close();
        return;
      }
      if (opts.session) {
        const check = opts.session;
        const ended = () => {
          const s = check();
          if (s.state === 'live') return false;
          if (s.state === 'ended') send('session', { state: 'ended', reason: s.reason, message: s.message }, false);
          close();
          return true;
        };
        if (ended()) return;
        sessionTimer = setInterval(ended, opts.sessionCheckMs ?? 1_000);
      }

      write(`retry: 2000\n\n`);
      for (const spec of specs) {
        const type = WATCHABLE[spec.kind]!;
        const resumeFrom = opts.resume?.get(spec.id);
        if (resumeFrom) versions.set(spec.id, resumeFrom);
        let lastState = '';
        const informer = startInformer<KubeObject>(client, type, {
          namespace: spec.namespace,
          fieldSelector: spec.name ? `metadata.name=${spec.name}` : undefined,
          labelSelector: LABEL_SELECTORS[spec.kind],
          resumeFrom,
          onSnapshot: (items, rv) => {
            versions.set(spec.id, rv);
            send('snapshot', { watch: spec.id, resourceVersion: rv, items: items.map(trimmed) });
          },
          onEvent: (e) => {
            const rv = e.object.metadata?.resourceVersion;
            if (rv) versions.set(spec.id, rv);
            send('change', { watch: spec.id, type: e.type, object: trimmed(e.object) });
          },
          onState: (s) => {
            if (s.state === 'retrying') {
              const err = s.error;
              // The person may not watch this: say so once and stop this watch; the others go on.
              if (isKubeError(err, 403) || isKubeError(err, 401)) {
                send('error', { watch: spec.id, ...(err as KubeError).toJSON() }, false);
                stopWatch(spec.id);
                return;
              }
              send('status', { watch: spec.id, state: 'retrying', attempt: s.attempt, message: err.message }, false);
              lastState = 'retrying';
            } else if (s.state === 'watching' && lastState !== 'watching') {
              if (lastState === 'retrying') send('status', { watch: spec.id, state: 'watching' }, false);
              lastState = 'watching';
            }
          },
        });
        informers.set(spec.id, informer);
      }
      opts.onInformers?.(informers.size);
      timer = setInterval(() => write(`: heartbeat ${new Date().toISOString()}\n\n`), opts.heartbeatMs ?? 15_000);
    },
    cancel() {
      if (!closed) finish();
    },
  });
}
