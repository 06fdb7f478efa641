// Reading catalog content that may be hostile: a field of the wrong type is skipped, never trusted,
// and lists are cut at a bound so that a bundle cannot make a page or an answer as large as it
// likes. What was cut is said (the caller names it), so a shortened list is never taken as whole.

/** The most entries kept of any one list a bundle gives (rules, versions, images, objects…). */
export const LIST_BOUND = 200;
/** The longest text kept as a name, verb, image or URL; longer ones are not names Kubernetes accepts. */
export const TEXT_BOUND = 1024;

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const record = (v: unknown): Record<string, unknown> => (isRecord(v) ? v : {});

/** A non-empty string no longer than TEXT_BOUND, or undefined. */
export const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.length > 0 && v.length <= TEXT_BOUND ? v : undefined;

export const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);

/**
 * The most entries kept of all lists of one bundle together: each list is bounded, but a bundle of
 * 200 accounts with 200 rules of 200 resources each would still be millions; real bundles use a
 * few thousand at most.
 */
export const TOTAL_BOUND = 20_000;

/** Collects what was cut, as sentences a person reads, and counts entries against TOTAL_BOUND. */
export class Cuts {
  readonly said: string[] = [];
  private left = TOTAL_BOUND;
  /** The first entries of `v` when it is an array (else none), saying so when more were given. */
  list(v: unknown, what: string): unknown[] {
    if (!Array.isArray(v)) return [];
    const max = Math.min(LIST_BOUND, this.left);
    if (v.length > max) {
      const why =
        max === LIST_BOUND
          ? `only the first ${LIST_BOUND} of ${v.length} ${what} are shown`
          : `the bundle gives more than ${TOTAL_BOUND} entries in all: the rest are not shown`;
      if (!this.said.includes(why)) this.said.push(why);
    }
    const kept = v.slice(0, max);
    this.left -= kept.length;
    return kept;
  }
  /** The strings of `v` (others skipped), bounded as list() bounds. */
  texts(v: unknown, what: string): string[] {
    return this.list(v, what)
      .map(text)
      .filter((s): s is string => s !== undefined);
  }
}
