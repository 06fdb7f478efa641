// What the rollout routes answer (app/api/fleet/rollouts/**), shared with the pages.
import type { RolloutChoices } from '../olm/rollout/choices';
import type { PlacementGuess } from '../olm/rollout/placement-match';
import type { RolloutView, TimedOut } from '../olm/rollout/status';

export interface RolloutRight {
  /** What the write needs, e.g. `create manifestworkreplicasets in rollouts`. */
  what: string;
  allowed: boolean;
  reason?: string;
}

export interface RolloutPreview {
  choices: RolloutChoices;
  /**
   * The hub objects, in the order they are written; `exists` for those already there (their spec
   * updated). An upgrade's ManifestWorkReplicaSet is a new generation that `replaces` the current
   * one: that one is deleted first, its ManifestWorks orphaning what they installed.
   */
  objects: {
    kind: string;
    name: string;
    namespace?: string;
    object: Record<string, unknown>;
    exists?: boolean;
    replaces?: { name: string; uid?: string };
  }[];
  /** The rollout's generation this write makes or updates (1 for a new rollout; each upgrade adds one). */
  generation: number;
  /** The clusters the Placement picks: its own decisions when it exists, else the console's guess. */
  clusters: {
    source: 'decisions' | 'guess';
    canary: string[];
    rest: string[];
    waves: number;
    left: PlacementGuess['left'];
  };
  /** The person's rights on the hub for each write; all must be allowed. */
  rights: RolloutRight[];
  /** The API server's dry run of each object, or why it was not possible. */
  dryRun: { object: string; ok: boolean; message?: string }[];
  /** What the work agent will do with its own identity on every placed cluster. */
  onEachCluster: string[];
  blockers: string[];
}

export interface RolloutSummary {
  /** The rollout's name (its label), the same across its generations. */
  name: string;
  namespace: string;
  /** The generation it runs now and that generation's ManifestWorkReplicaSet. */
  generation: number;
  set: string;
  package?: string;
  olm?: 'v0' | 'v1';
  conditions: { type: string; status: string; reason?: string }[];
  summary?: Record<string, number>;
}

/** A cluster OCM timed out, as the list names it: its wave and what the rollout's page says on its line. */
export interface RolloutTimeout extends TimedOut {
  cluster: string;
  /** Its decision group: `canary` for the canary, empty for the waves the placement controller made. */
  wave: { index: number; name: string };
}

/** A row of the rollouts list (GET /api/fleet/rollouts). */
export interface RolloutListItem extends RolloutSummary {
  /**
   * The clusters OCM timed out under the set's progressDeadline (none without one); absent when
   * the person may not read what it takes, which the list's `notes` say.
   */
  timedOut?: RolloutTimeout[];
}

export interface RolloutList {
  rollouts: RolloutListItem[];
  /** Why some of it could not be read (e.g. ManifestWorks in namespaces the person may not list). */
  notes: string[];
}

export interface RolloutDetail extends RolloutSummary {
  view: RolloutView;
  /** Why some of it could not be read (e.g. ManifestWorks in namespaces the person may not list). */
  notes: string[];
  /** What the page may offer, each with the cluster's reason when it may not. */
  actions: { stop: RolloutRight };
  /** What OCM v1.0.0 or OLM cannot do that a person may look for, said plainly. */
  limits: string[];
}
