'use client';
// A fleet answer read cluster by cluster (lib/server/fleet/stream.ts): the page knows every
// cluster's name from the first line and paints each cluster's row as its answer arrives, so a
// cluster 10 s late holds back only its own row. Read again every 30 s; until a cluster answers
// again its last answer stays, so a refresh never blanks the page. A failure of the whole request
// (signed out, the console down) is the page's error, in the server's words.
import { useCallback, useEffect, useState } from 'react';
import type { FleetClusterRef, FleetHub, FleetStreamLine, PerCluster } from '@/lib/api/fleet';
import { ApiClientError, type ApiErrorBody } from '@/lib/client/api';

export interface FleetStreamData<T> {
  /** Clusters that answered (this read or the one before), in the console's order. */
  clusters: PerCluster<T>[];
  /** Clusters still being asked, never answered yet. */
  pending: FleetClusterRef[];
  /** Every cluster in the console's order, with its answer where it has one. */
  rows: { ref: FleetClusterRef; answer?: PerCluster<T> }[];
  /** On an Open Cluster Management hub: why its ManagedClusters are not listed, when they are not. */
  hub?: FleetHub;
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

export function useFleetStream<T>(path: string, refreshMs = 30_000) {
  const [names, setNames] = useState<FleetClusterRef[]>();
  const [hub, setHub] = useState<FleetHub>();
  const [answers, setAnswers] = useState<Record<string, PerCluster<T>>>({});
  const [error, setError] = useState<Error>();
  const [round, setRound] = useState(0);
  const refetch = useCallback(() => setRound((r) => r + 1), []);
  useEffect(() => {
    const ctl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      try {
        await readLines<T>(path, ctl.signal, (line) => {
          if ('clusters' in line) {
            setNames(line.clusters);
            setHub(line.hub);
          } else setAnswers((prev) => ({ ...prev, [line.cluster.name]: line.cluster }));
        });
        setError(undefined);
      } catch (err) {
        if (ctl.signal.aborted) return;
        setError(err as Error);
      }
      if (!ctl.signal.aborted) timer = setTimeout(() => void read(), refreshMs);
    };
    void read();
    return () => {
      ctl.abort();
      clearTimeout(timer);
    };
  }, [path, refreshMs, round]);
  // Only the clusters the console serves now, each with its own answer, keyed by its own name.
  const data: FleetStreamData<T> | undefined = names && {
    clusters: names.flatMap((n) => (answers[n.name] ? [answers[n.name]!] : [])),
    pending: names.filter((n) => !answers[n.name]),
    rows: names.map((ref) => ({ ref, answer: answers[ref.name] })),
    ...(hub ? { hub } : {}),
  };
  return { data, error, refetch };
}
