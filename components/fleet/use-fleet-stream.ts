'use client';
// A fleet answer read cluster by cluster (lib/server/fleet/stream.ts): the page knows every
// cluster's name from the first line and paints each cluster's row as its answer arrives, so a
// cluster 10 s late holds back only its own row. Read again every 30 s; until a cluster answers
// again its last answer stays, so a refresh never blanks the page. A failure of the whole request
// (signed out, the console down) is the page's error, in the server's words.
// A page given `live` (an event stream, use-fleet-events.ts) reads a cluster's row alone
// (`?cluster=NAME`) when that cluster says it changed; the clusters it does not follow live (the
// person may not watch there, past the limit, the watch reconnecting) are read on the 30 s timer,
// only they; every cluster is read again every 5 minutes all the same, should a watch miss.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { FleetClusterRef, FleetHub, FleetStreamLine, PerCluster } from '@/lib/api/fleet';
import { ApiClientError, type ApiErrorBody } from '@/lib/client/api';
import { useFleetEvents, type FleetLive } from './use-fleet-events';

export interface FleetStreamData<T> {
  /** Clusters that answered (this read or the one before), in the console's order. */
  clusters: PerCluster<T>[];
  /** Clusters still being asked, never answered yet. */
  pending: FleetClusterRef[];
  /** Every cluster in the console's order, with its answer where it has one. */
  rows: { ref: FleetClusterRef; answer?: PerCluster<T> }[];
  /** On an Open Cluster Management hub: why its ManagedClusters are not listed, when they are not. */
  hub?: FleetHub;
  /** For a live page: how each cluster is followed (undefined while the event stream is down). */
  live?: FleetLive;
}

export interface FleetStreamOptions {
  /** How often every cluster is read again (default 30 s). */
  refreshMs?: number;
  /** The page's event stream, which says which cluster's row changed. */
  live?: string;
}

/** A live page reads every cluster again this often all the same: a watch that missed a change is not for ever. */
export const LIVE_FULL_REFRESH_MS = 5 * 60_000;

/** The path asking only these clusters' rows. */
function clustersPath(path: string, clusters: readonly string[]): string {
  const q = new URLSearchParams();
  for (const c of clusters) q.append('cluster', c);
  return `${path}${path.includes('?') ? '&' : '?'}${q}`;
}

async function readLines<T>(path: string, signal: AbortSignal, onLine: (line: FleetStreamLine<T>) => void) {
  let res: Response;
  try {
    res = await fetch(path, { signal, headers: { accept: 'application/x-ndjson' }, credentials: 'same-origin' });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiClientError({
      code: 0,
      reason: 'NetworkError',
      message: `the console did not answer (${(err as Error).message}); check your connection`,
    });
  }
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => undefined)) as { error?: ApiErrorBody } | undefined;
    throw new ApiClientError(
      body?.error ?? {
        code: res.status,
        reason: res.statusText || 'Error',
        message: `GET ${path}: HTTP ${res.status}`,
      },
    );
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let rest = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    rest += value;
    let nl: number;
    while ((nl = rest.indexOf('\n')) >= 0) {
      const line = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      if (line.trim()) onLine(JSON.parse(line) as FleetStreamLine<T>);
    }
  }
}

export function useFleetStream<T>(path: string, opts: FleetStreamOptions = {}) {
  const { refreshMs = 30_000, live: liveUrl } = opts;
  const [names, setNames] = useState<FleetClusterRef[]>();
  const [hub, setHub] = useState<FleetHub>();
  const [answers, setAnswers] = useState<Record<string, PerCluster<T>>>({});
  const [error, setError] = useState<Error>();
  const [round, setRound] = useState(0);
  const refetch = useCallback(() => setRound((r) => r + 1), []);
  // Rows to read alone, gathered for a moment so a burst of changes is one request.
  const queued = useRef(new Set<string>());
  const flush = useRef<ReturnType<typeof setTimeout>>(undefined);
  const readSome = useRef<(clusters: string[]) => void>(() => {});
  const reread = useCallback((cluster: string) => {
    queued.current.add(cluster);
    flush.current ??= setTimeout(() => {
      flush.current = undefined;
      const clusters = [...queued.current];
      queued.current.clear();
      readSome.current(clusters);
    }, 150);
  }, []);
  const live = useFleetEvents(liveUrl, reread);
  // Read by the timer below, which a watch's every change of state must not restart.
  const liveNow = useRef(live);
  useEffect(() => {
    liveNow.current = live;
  }, [live]);

  useEffect(() => {
    const ctl = new AbortController();
    const keep = (line: FleetStreamLine<T>) => {
      if ('cluster' in line) setAnswers((prev) => ({ ...prev, [line.cluster.name]: line.cluster }));
    };
    // A row read alone: its answer replaces the row; a failure leaves the row as it was until the
    // next read (the whole page's error is for the full read to say).
    readSome.current = (clusters) => {
      if (clusters.length) readLines<T>(clustersPath(path, clusters), ctl.signal, keep).catch(() => undefined);
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      try {
        await readLines<T>(path, ctl.signal, (line) => {
          if ('clusters' in line) {
            setNames(line.clusters);
            setHub(line.hub);
          } else keep(line);
        });
        setError(undefined);
      } catch (err) {
        if (ctl.signal.aborted) return;
        setError(err as Error);
      }
      if (!ctl.signal.aborted) timer = setTimeout(() => void read(), liveUrl ? LIVE_FULL_REFRESH_MS : refreshMs);
    };
    void read();
    return () => {
      ctl.abort();
      clearTimeout(timer);
    };
  }, [path, refreshMs, round, liveUrl]);
  useEffect(() => {
    if (!liveUrl || !names) return;
    // Every `refreshMs`, the clusters not followed live right now, only they.
    const poll = setInterval(() => {
      const unfollowed = names.filter((n) => liveNow.current?.[n.name]?.state !== 'watching').map((n) => n.name);
      readSome.current(unfollowed);
    }, refreshMs);
    return () => clearInterval(poll);
  }, [liveUrl, names, refreshMs]);
  // Only the clusters the console serves now, each with its own answer, keyed by its own name.
  const data: FleetStreamData<T> | undefined = names && {
    clusters: names.flatMap((n) => (answers[n.name] ? [answers[n.name]!] : [])),
    pending: names.filter((n) => !answers[n.name]),
    rows: names.map((ref) => ({ ref, answer: answers[ref.name] })),
    ...(hub ? { hub } : {}),
    ...(liveUrl && live ? { live } : {}),
  };
  return { data, error, refetch };
}
