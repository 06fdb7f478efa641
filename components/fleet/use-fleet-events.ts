'use client';
// The fleet's live events (GET /api/fleet/approvals/events, lib/server/fleet/approval-events.ts):
// which clusters are followed live, and which cluster's row changed. One EventSource per page, for
// every cluster at once: the server shares each cluster's watch among the person's pages. Each
// cluster's mark says which changes the page has been told of; a mark that differs from the one
// the page knew (a change while it was reconnecting, or a watch made anew) means "read the row
// again", as does a watch newer than the answer the page holds (`stale`). The EventSource
// reconnects by itself; after an HTTP error (a 429 past the stream limits, a replica going away)
// a new one is opened after a while, every cluster read on a timer meanwhile. The server's planned
// end of a stream (`reconnect`) changes nothing the page shows. The session's end
// takes the tab to the login page, as live.ts does.
import { useEffect, useState } from 'react';
import { leaveTo } from '@/lib/client/unauthorized';

export type ClusterLiveState = 'watching' | 'retrying' | 'refused' | 'unwatched';

interface WatchData {
  cluster: string;
  state: ClusterLiveState;
  mark: string;
  stale?: boolean;
  message?: string;
}

/** Per cluster, how the page follows it; `undefined` until the stream says (and while it is down). */
export type FleetLive = Record<string, { state: ClusterLiveState; message?: string }>;

const REOPEN_MS = 30_000;

/**
 * Follows `url` while it is set; `reread(cluster)` (a stable callback: a new one reconnects) is
 * called for each cluster whose row must be read again.
 */
export function useFleetEvents(url: string | undefined, reread: (cluster: string) => void): FleetLive | undefined {
  const [live, setLive] = useState<FleetLive>();
  useEffect(() => {
    if (!url || typeof EventSource === 'undefined') return;
    const marks = new Map<string, string>();
    let source: EventSource | undefined;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const set = (d: WatchData) =>
      setLive((prev) => ({
        ...prev,
        [d.cluster]: { state: d.state, ...(d.message ? { message: d.message } : {}) },
      }));
    const connect = () => {
      const es = new EventSource(url, { withCredentials: true });
      source = es;
      es.addEventListener('watch', (e) => {
        const d = JSON.parse((e as MessageEvent<string>).data) as WatchData;
        if (d.state === 'watching') {
          const known = marks.get(d.cluster);
          if (d.stale || (known !== undefined && known !== d.mark)) reread(d.cluster);
          marks.set(d.cluster, d.mark);
        }
        set(d);
      });
      es.addEventListener('change', (e) => {
        const d = JSON.parse((e as MessageEvent<string>).data) as WatchData;
        marks.set(d.cluster, d.mark);
        reread(d.cluster);
      });
      es.addEventListener('session', (e) => {
        const d = JSON.parse((e as MessageEvent<string>).data) as { state?: string };
        if (d.state !== 'ended') return;
        stopped = true;
        es.close();
        const here = encodeURIComponent(window.location.pathname + window.location.search);
        leaveTo(new URL(`/login?next=${here}`, window.location.origin).href);
      });
      // The server ends each stream after a while, saying so first: that reconnect is expected, and the
      // page stays live through it (each watch says again where it stands once reconnected).
      let planned = false;
      es.addEventListener('reconnect', () => {
        planned = true;
      });
      es.addEventListener('open', () => {
        planned = false;
      });
      es.addEventListener('error', () => {
        const expected = planned && es.readyState === EventSource.CONNECTING;
        planned = false;
        if (expected) return;
        // While it reconnects after an unplanned end (or after it gave up) nothing is followed
        // live: the clusters are read on the page's timer until each watch says it is back.
        setLive(undefined);
        if (es.readyState !== EventSource.CLOSED || stopped) return;
        es.close();
        reopen = setTimeout(connect, REOPEN_MS);
      });
    };
    connect();
    return () => {
      stopped = true;
      if (reopen) clearTimeout(reopen);
      source?.close();
      setLive(undefined);
    };
  }, [url, reread]);
  return live;
}
