'use client';
// Live pages: one EventSource per tab on /api/events, multiplexing the watches the open page
// needs. A change to any watched kind in the namespace marks the page's query stale, and TanStack
// Query reads it again (a burst of changes causes one read). EventSource reconnects by itself
// and sends Last-Event-ID, so the server resumes each watch where it was.
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

/** `limited`: connected, but the cluster refused one of the page's watches (the person may list, not watch). */
export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'unavailable' | 'limited';

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
    // Watches the server stopped because the cluster refused them (403/401): they never come
    // back on this connection, so the page is not "reconnecting" but partly static.
    const refused = new Set<string>();
    const settle = (s: LiveState) => setState(s === 'live' && refused.size > 0 ? 'limited' : s);
    const refresh = () => {
      pending ??= setTimeout(() => {
        pending = undefined;
        void qc.invalidateQueries({ queryKey: JSON.parse(keyText) as QueryKey });
      }, 150);
    };
    source.addEventListener('open', () => settle('live'));
    source.addEventListener('snapshot', () => {
      // The first snapshot of each watch is what the page already read; later ones follow a gap.
      snapshots += 1;
      if (snapshots > kinds.length) refresh();
      settle('live');
    });
    source.addEventListener('change', refresh);
    source.addEventListener('status', (e) => {
      const data = JSON.parse((e as MessageEvent<string>).data) as { state?: string };
      settle(data.state === 'retrying' ? 'reconnecting' : 'live');
      if (data.state === 'watching') refresh();
    });
    // The same listener hears the connection's errors and the server's `event: error` messages,
    // which name a refused watch and carry data.
    source.addEventListener('error', (e) => {
      if (e instanceof MessageEvent && typeof e.data === 'string') {
        const data = JSON.parse(e.data) as { watch?: string };
        if (data.watch) refused.add(data.watch);
        settle('live');
        return;
      }
      setState(source.readyState === EventSource.CLOSED ? 'unavailable' : 'reconnecting');
    });
    return () => {
      if (pending) clearTimeout(pending);
      source.close();
    };
  }, [qc, url, keyText, active, kinds.length]);
  return active ? state : 'live';
}
