// When OLM polls an image-backed CatalogSource for new content, as the api module's
// CatalogSource.Poll/Update and UpdateStrategy.UnmarshalJSON decide it (operator-framework/api
// v0.36.0, pkg/operators/v1alpha1/catalogsource_types.go), and how the interval is read: Go's
// time.ParseDuration, with 15 minutes and OLM's message when it cannot be parsed.

export const DEFAULT_REGISTRY_POLL_MS = 15 * 60_000;

const UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Go's time.ParseDuration, in milliseconds; throws Go's error text. */
export function parseGoDuration(text: string): number {
  const invalid = () => new Error(`time: invalid duration ${JSON.stringify(text)}`);
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    sign = s[0] === '-' ? -1 : 1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw invalid();
  let total = 0;
  while (s !== '') {
    const num = /^(\d*)(\.\d*)?/.exec(s)!;
    if (num[0] === '' || num[0] === '.') throw invalid();
    s = s.slice(num[0].length);
    const unit = /^[^\d.]*/.exec(s)![0];
    if (unit === '') throw new Error(`time: missing unit in duration ${JSON.stringify(text)}`);
    const scale = UNITS[unit];
    if (scale === undefined)
      throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(text)}`);
    s = s.slice(unit.length);
    total += Number(num[0]) * scale;
  }
  return sign * total;
}

export interface PollSpec {
  /** Milliseconds between polls. */
  intervalMs: number;
  /** OLM's message when the interval could not be parsed (status reason InvalidIntervalError). */
  parsingError?: string;
}

interface CatalogSourceLike {
  metadata: { creationTimestamp?: string };
  spec?: unknown;
  status?: unknown;
}

/** The registry poll settings, or undefined when OLM does not poll this source (Poll()). */
export function registryPoll(cs: CatalogSourceLike): PollSpec | undefined {
  const spec = (cs.spec ?? {}) as {
    image?: string;
    sourceType?: string;
    updateStrategy?: { registryPoll?: { interval?: string } };
  };
  const poll = spec.updateStrategy?.registryPoll;
  if (!poll || !spec.image || spec.sourceType !== 'grpc') return undefined;
  try {
    return { intervalMs: parseGoDuration(poll.interval ?? '') };
  } catch (err) {
    return {
      intervalMs: DEFAULT_REGISTRY_POLL_MS,
      parsingError: `error parsing spec.updateStrategy.registryPoll.interval. Using the default value of 15m0s instead. Error: ${(err as Error).message}`,
    };
  }
}

/** Update(): the last poll (or the creation, before any) plus the interval is past. */
export function pollDue(cs: CatalogSourceLike, now: number): boolean {
  const poll = registryPoll(cs);
  if (!poll) return false;
  const latest = (cs.status as { latestImageRegistryPoll?: string } | undefined)?.latestImageRegistryPoll;
  const since = Date.parse(latest ?? cs.metadata.creationTimestamp ?? '');
  if (Number.isNaN(since)) return false;
  return since + poll.intervalMs < now;
}
