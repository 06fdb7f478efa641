// A cluster OCM timed out, in the words the rollout's page says on its line and the Rollouts list
// says on its row, so that a person reads one sentence for one fact wherever it shows. OCM's set
// status never names a timed-out cluster: without these words a rollout held by one looks stuck,
// or merely progressing, for no reason. OCM counts it as failed until its work is Available again
// (lib/olm/rollout/timeouts.ts decides; this only says it).
import type { RolloutTimeout } from '@/lib/api/fleet-rollouts';
import { CANARY_GROUP } from '@/lib/olm/rollout/hub-objects';
import type { TimedOut } from '@/lib/olm/rollout/status';

export function timeoutWords(t: TimedOut): string {
  // The same words on the server and in every browser: the hub's own clock, in UTC.
  const when = `timed out after ${t.deadline} (at ${t.at.replace('T', ' ').replace(/(\.\d+)?Z$/, '')} UTC)`;
  if (!t.stops)
    return `${when}: OCM counts it as failed, within the failures this rollout tolerates, so the rollout goes on.`;
  const further = t.stops.over === 'group' ? 'on to the next group' : 'on to more clusters';
  return (
    `${when}: OCM counts it as failed, and with ${t.stops.failures} failed where ${t.stops.maxFailures} ` +
    `${t.stops.maxFailures === 1 ? 'is' : 'are'} tolerated the rollout will not go ${further} until this ` +
    "cluster's work is Available or the rollout is changed or stopped."
  );
}

/** A decision group as the rollout's page heads it: the canary, or the wave's index. */
export const waveTitle = (w: { index: number; name: string }) =>
  w.name === CANARY_GROUP ? 'Canary' : `Wave ${w.index}`;

/** The list's row names the cluster and its wave before the page's own sentence. */
export const rowTimeoutWords = (t: RolloutTimeout) =>
  `${t.cluster}, in ${t.wave.name === CANARY_GROUP ? 'the canary' : `wave ${t.wave.index}`}, ${timeoutWords(t)}`;
