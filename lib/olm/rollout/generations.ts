// A rollout's upgrades as a chain of ManifestWorkReplicaSets, one per generation, all sharing the
// rollout's Placement. Why not change the one set's template: OCM v1.0.0 judges a cluster by its
// ManifestWork's Applied and Available conditions without asking whether the work agent wrote
// them for the work's current spec (ocm pkg/work/hub/controllers/manifestworkreplicasetcontroller
// manifestworkreplicaset_deploy_reconcile.go, clusterRolloutStatusFunc reads no observedGeneration),
// so the moment a changed template reaches the canary, the canary's old "Available" lets the next
// wave through. A new set makes new ManifestWorks, whose conditions can only have been written for
// the new template; and OCM counts a wave's soak (minSuccessTime) from the work's creation
// (the same function's LastTransitionTime), so it counts from the upgrade, not from the install.
// The old set is deleted first; its template orphans (deleteOption Orphan), so every cluster keeps
// what it runs until its wave gets the new generation's work.
// - Generation 1 is named after the rollout (rollouts written before generations existed are
//   generation 1); generation N after it, `<name>-g<N>`. No dot: OCM reads a work's owner from
//   the label `<namespace>.<set name>` split on dots (manifestworkreplicaset_index.go).
// - Every set carries the rollout's label (its name) and its generation's.

/** On every hub object of a rollout, so the rollouts page lists only the console's own. */
export const ROLLOUT_LABEL = 'olm-console.io/rollout';
export const GENERATION_LABEL = 'olm-console.io/rollout-generation';

/** The suffix the console gives a generation's set; a rollout's own name may not end so. */
export const GENERATION_SUFFIX = /-g[0-9]+$/;

export interface SetLike {
  metadata: {
    name?: string;
    uid?: string;
    labels?: Record<string, string>;
    deletionTimestamp?: string;
  };
  spec?: { manifestWorkTemplate?: unknown };
}

export const setName = (rollout: string, generation: number) =>
  generation <= 1 ? rollout : `${rollout}-g${generation}`;

export function generationOf(set: SetLike): number {
  const v = set.metadata.labels?.[GENERATION_LABEL];
  const n = v === undefined ? 1 : Number(v);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** The sets of one rollout (by its label) among `sets`, newest generation first. */
export function chainOf<T extends SetLike>(rollout: string, sets: readonly T[]): T[] {
  return sets
    .filter((s) => s.metadata.labels?.[ROLLOUT_LABEL] === rollout)
    .sort((a, b) => generationOf(b) - generationOf(a));
}

/**
 * The generation the rollout runs now: the newest set not being deleted (a set being deleted is
 * an older generation whose works OCM is still removing).
 */
export function currentOf<T extends SetLike>(chain: readonly T[]): T | undefined {
  return chain.find((s) => !s.metadata.deletionTimestamp);
}

/**
 * The same JSON whatever the keys' order, and without empty values: OCM compares a work with the
 * template as Go structs (sdk-go workapplier.ManifestWorkEqual, Kubernetes' semantic equality,
 * where an absent string is "" and a nil list an empty one), and the API server stores defaults
 * a template does not carry (a condition rule's `messageExpression: ""`).
 */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])] as const)
        .filter(([, x]) => !isEmpty(x)),
    );
  return v;
}
const isEmpty = (x: unknown) =>
  x === '' ||
  x === null ||
  x === undefined ||
  (Array.isArray(x) ? !x.length : typeof x === 'object' && !Object.keys(x as object).length);

export const sameTemplate = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

export type NextWrite =
  /** No set yet: generation 1 is created. */
  | { kind: 'create'; generation: number }
  /** The template is the same (only the placement's strategy changed): the set is updated in place. */
  | { kind: 'update'; generation: number; current: string }
  /** The template changes: an upgrade, a new generation after the current one is deleted. */
  | { kind: 'upgrade'; generation: number; replaces: string };

/** What writing `template` does to a rollout whose chain is `chain`. */
export function nextWrite(chain: readonly SetLike[], template: unknown): NextWrite {
  const current = currentOf(chain);
  const newest = chain.length ? Math.max(...chain.map(generationOf)) : 0;
  if (!current) return { kind: 'create', generation: newest + 1 };
  if (sameTemplate(current.spec?.manifestWorkTemplate, template))
    return { kind: 'update', generation: generationOf(current), current: current.metadata.name ?? '' };
  return { kind: 'upgrade', generation: newest + 1, replaces: current.metadata.name ?? '' };
}
