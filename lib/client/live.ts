'use client';
// Live pages: one EventSource per tab on /api/events, multiplexing the watches the open page
// needs. A change to any watched kind in the namespace marks the page's query stale, and TanStack
// Query reads it again (a burst of changes causes one read). EventSource reconnects by itself
// and sends Last-Event-ID, so the server resumes each watch where it was; after an HTTP error,
// when EventSource gives up, a new one is opened with backoff and the page read again. When the
// session is over (the server's `session` event, or an HTTP error and a session that is no
// longer logged in) the page goes to the login page instead of reconnecting for ever.
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { getSession } from './api';
import { apiPath } from './cluster';
import { leaveTo } from './unauthorized';

/**
 * `limited`: connected, but the cluster refused one of the page's watches (the person may list,
 * not watch). `ended`: the session is over; the page is on its way to the login page.
 */
export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'unavailable' | 'limited' | 'ended';

export function watchUrl(namespace: string | undefined, kinds: readonly string[]): string {
  const q = new URLSearchParams();
  kinds.forEach((k, i) => q.append('w', `w${i}:${k}${namespace && k !== 'namespaces' ? `:${namespace}` : ''}`));
  return `/api/events?${q}`;
}

/** Re-reads `key` whenever one of `kinds` changes in `namespace`, while `active`. */
export function useLiveRefresh(
  key: QueryKey,
  namespace: string | undefined,
  kinds: readonly string[],
  active = true,
): LiveState {
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
    let source: EventSource | undefined;
    let pending: ReturnType<typeof setTimeout> | undefined;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;
    // Watches the server stopped because the cluster refused them (403/401): they never come
    // back on this connection, so the page is not "reconnecting" but partly static.
    const refused = new Set<string>();
    const settle = (s: LiveState) => setState(s === 'live' && refused.size > 0 ? 'limited' : s);
    const ended = () => {
      stopped = true;
      source?.close();
      setState('ended');
      // A full load rather than a client-side route: nothing the ended session read stays in memory.
      const here = encodeURIComponent(window.location.pathname + window.location.search);
      const login = new URL(`/login?next=${here}`, window.location.origin);
      leaveTo(login.href);
    };
    // Whether an HTTP error means the session is over (idle, logged out elsewhere), not the server.
    const reopenOrEnd = () => {
      getSession(true).then(
        (s) => {
          if (stopped) return;
          if (s.mode === 'token' && !s.loggedIn) ended();
          else reopenLater();
        },
        () => reopenLater(),
      );
    };
    const reopenLater = () => {
      if (stopped) return;
      reopen = setTimeout(() => connect(true), Math.min(30_000, 1000 * 2 ** Math.min(failures - 1, 5)));
    };
    const refresh = () => {
      pending ??= setTimeout(() => {
        pending = undefined;
        void qc.invalidateQueries({ queryKey: JSON.parse(keyText) as QueryKey });
      }, 150);
    };
    const connect = (again: boolean) => {
      const es = new EventSource(apiPath(url), { withCredentials: true });
      source = es;
      let snapshots = 0;
      es.addEventListener('open', () => {
        failures = 0;
        // A new connection resumes nothing: what changed while there was none is read again.
        if (again) refresh();
        settle('live');
      });
      es.addEventListener('snapshot', () => {
        // The first snapshot of each watch is what the page already read; later ones follow a gap.
        snapshots += 1;
        if (snapshots > kinds.length) refresh();
        settle('live');
      });
      es.addEventListener('change', refresh);
      es.addEventListener('session', (e) => {
        const data = JSON.parse((e as MessageEvent<string>).data) as { state?: string };
        if (data.state === 'ended') ended();
      });
      es.addEventListener('status', (e) => {
        const data = JSON.parse((e as MessageEvent<string>).data) as { state?: string };
        settle(data.state === 'retrying' ? 'reconnecting' : 'live');
        if (data.state === 'watching') refresh();
      });
      // The same listener hears the connection's errors and the server's `event: error` messages,
      // which name a refused watch and carry data.
      es.addEventListener('error', (e) => {
        if (e instanceof MessageEvent && typeof e.data === 'string') {
          const data = JSON.parse(e.data) as { watch?: string };
          if (data.watch) refused.add(data.watch);
          settle('live');
          return;
        }
        if (es.readyState !== EventSource.CLOSED) {
          setState('reconnecting');
          return;
        }
        // EventSource gives up for good on an HTTP error (a 502 or 503 from a replica going away
        // during a rollout, say): open a new one, backing off, until the server answers again.
        es.close();
        if (stopped) return;
        failures += 1;
        setState(failures > 5 ? 'unavailable' : 'reconnecting');
        reopenOrEnd();
      });
    };
    connect(false);
    return () => {
      stopped = true;
      if (pending) clearTimeout(pending);
      if (reopen) clearTimeout(reopen);
      source?.close();
    };
  }, [qc, url, keyText, active, kinds.length]);
  return active ? state : 'live';
}
