// A fleet answer sent cluster by cluster (NDJSON, one JSON object a line) for a client that asks
// for it (`Accept: application/x-ndjson`): first the clusters that will answer, then each
// cluster's answer the moment it settles, so the page paints the fast clusters while a slow one is
// still being asked, and a cluster 10 s late delays only its own row. Chosen over the page asking
// once per cluster (`?cluster=NAME`): one request keeps the bound of 8 clusters at a time per
// person on the server, where fifty tabs' worth of per-cluster requests would each be their own,
// and the browser's six connections per origin are not spent on one page. The answers are the
// same per-person, per-cluster cached ones as the JSON form (across.ts); a client that does not
// ask for NDJSON gets the whole answer at once, as before.
import type { FleetHub, FleetStreamLine, PerCluster } from '../../api/fleet';
import type { KubeClient } from '../../k8s/client';
import { acrossClusters } from './across';
import { fleetRef, type FleetMember } from './members';
import type { FleetPerson } from './person';

export const NDJSON = 'application/x-ndjson';

/** Whether the client asked for the answer cluster by cluster. */
export function wantsStream(req: Request): boolean {
  return (req.headers.get('accept') ?? '').split(',').some((t) => t.split(';')[0]!.trim() === NDJSON);
}

/** Each member's answer to `read` as one line, as it settles; `shape` picks what the line carries. */
export function fleetStream<T, L = T>(
  members: readonly FleetMember[],
  person: FleetPerson,
  what: string,
  read: (client: KubeClient, member: FleetMember) => Promise<T>,
  shape: (answer: PerCluster<T>) => PerCluster<L> = (a) => a as unknown as PerCluster<L>,
  hub?: FleetHub,
): Response {
  const encoder = new TextEncoder();
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (line: FleetStreamLine<L>) => {
        if (open) controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      };
      send({ clusters: members.map(fleetRef), ...(hub ? { hub } : {}) });
      // acrossClusters never rejects for a cluster's sake (each failure is that cluster's line);
      // the catch is for a bug, which ends the stream so the client reports it rather than waits.
      acrossClusters(members, person, what, read, { onAnswer: (a) => send({ cluster: shape(a) }) }).then(
        () => {
          if (open) controller.close();
          open = false;
        },
        (err: unknown) => {
          if (open) controller.error(err);
          open = false;
        },
      );
    },
    cancel() {
      // The person left the page: the clusters still being asked finish into the cache, unsent.
      open = false;
    },
  });
  return new Response(body, { headers: { 'Content-Type': NDJSON, 'Cache-Control': 'no-store' } });
}
