'use client';
// Live pages: one EventSource per tab on /api/events, multiplexing the watches the open page
// needs. A change to any watched kind in the namespace marks the page's query stale, and TanStack
// Query reads it again (a burst of changes causes one read). EventSource reconnects by itself
// and sends Last-Event-ID, so the server resumes each watch where it was.
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'unavailable';

export function watchUrl(namespace: string | undefined, kinds: readonly string[]): string {
  const q = new URLSearchParams();
  kinds.forEach((k, i) => q.append('w', `w${i}:${k}${namespace && k !== 'namespaces' ? `:${namespace}` : ''}`));
  return `/api/events?${q}`;
}

/** Re-reads `key` whenever one of `kinds` changes in `namespace`, while `active`. */
export function useLiveRefresh(key: QueryKey, namespace: string | undefined, kinds: readonly string[], active = true): LiveState {
  const qc = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  const url = watchUrl(namespace, kinds);
  const keyText = JSON.stringify(key);
  useEffect(() => {
    if (!active) return;
    if (typeof EventSource === 'undefined') {
      // No EventSource (very old browsers): read again every few seconds instead.
      const t = setInterval(() => void qc.invalidateQueries({ queryKey: JSON.parse(keyText) as QueryKey }), 3000);
      return () => clearInterval(t);
    }
    const source = new EventSource(url, { withCredentials: true });
    let pending: ReturnType<typeof setTimeout> | undefined;
    let snapshots = 0;
    const refresh = () => {
      pending ??= setTimeout(() => {
        pending = undefined;
        void qc.invalidateQueries({ queryKey: JSON.parse(keyText) as QueryKey });
      }, 150);
    };
    source.addEventListener('open', () => setState('live'));
    source.addEventListener('snapshot', () => {
      // The first snapshot of each watch is what the page already read; later ones follow a gap.
      snapshots += 1;
      if (snapshots > kinds.length) refresh();
      setState('live');
    });
    source.addEventListener('change', refresh);
    source.addEventListener('status', (e) => {
      const data = JSON.parse((e as MessageEvent<string>).data) as { state?: string };
      setState(data.state === 'retrying' ? 'reconnecting' : 'live');
      if (data.state === 'watching') refresh();
    });
    source.addEventListener('error', () => setState(source.readyState === EventSource.CLOSED ? 'unavailable' : 'reconnecting'));
    return () => {
      if (pending) clearTimeout(pending);
      source.close();
    };
  }, [qc, url, keyText, active, kinds.length]);
  return active ? state : 'live';
}
