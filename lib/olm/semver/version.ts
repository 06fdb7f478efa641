// Versions as OLM reads them (blang/semver v4), not as npm's `semver` does: strict SemVer 2.0
// for catalog data, plus blang's ParseTolerant for the places where OLM is lenient.

export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  /** Pre-release identifiers; numeric ones are numbers, so they compare numerically. */
  pre: (string | number)[];
  build: string[];
}

export class SemverError extends Error {
  constructor(
    readonly input: string,
    reason: string,
  ) {
    super(`invalid version "${input}": ${reason}`);
    this.name = 'SemverError';
  }
}

const NUMERIC = /^(0|[1-9][0-9]*)$/;
const ALNUM = /^[0-9A-Za-z-]+$/;

function parseNumber(input: string, part: string, what: string): number {
  if (part === '') throw new SemverError(input, `${what} version is empty`);
  if (!/^[0-9]+$/.test(part)) throw new SemverError(input, `${what} version "${part}" is not a number`);
  if (part.length > 1 && part[0] === '0') throw new SemverError(input, `${what} version "${part}" has a leading zero`);
  const n = Number(part);
  if (!Number.isSafeInteger(n)) throw new SemverError(input, `${what} version "${part}" is too large`);
  return n;
}

/** Strict `MAJOR.MINOR.PATCH[-pre][+build]`, as blang's `Parse` (and opm's validation) require. */
export function parseVersion(text: string): SemVer {
  const input = text;
  if (typeof text !== 'string' || text.length === 0) throw new SemverError(String(text), 'version is empty');
  let rest = text;
  let build: string[] = [];
  const plus = rest.indexOf('+');
  if (plus >= 0) {
    const b = rest.slice(plus + 1);
    rest = rest.slice(0, plus);
    build = b.split('.');
    for (const id of build) {
      if (id === '' || !ALNUM.test(id))
        throw new SemverError(input, `build metadata "${b}" is not dot-separated alphanumerics`);
    }
  }
  let pre: (string | number)[] = [];
  const dash = rest.indexOf('-');
  if (dash >= 0) {
    const p = rest.slice(dash + 1);
    rest = rest.slice(0, dash);
    pre = p.split('.').map((id) => {
      if (id === '' || !ALNUM.test(id))
        throw new SemverError(input, `pre-release "${p}" is not dot-separated alphanumerics`);
      if (/^[0-9]+$/.test(id)) {
        if (!NUMERIC.test(id))
          throw new SemverError(input, `numeric pre-release identifier "${id}" has a leading zero`);
        return Number(id);
      }
      return id;
    });
  }
  const parts = rest.split('.');
  if (parts.length !== 3) throw new SemverError(input, 'expected MAJOR.MINOR.PATCH');
  return {
    major: parseNumber(input, parts[0]!, 'major'),
    minor: parseNumber(input, parts[1]!, 'minor'),
    patch: parseNumber(input, parts[2]!, 'patch'),
    pre,
    build,
  };
}

/**
 * blang's ParseTolerant: trims spaces, drops a leading `v`, fills `1` / `1.2` to three parts and
 * drops leading zeros of the numeric parts. OLM parses bundle versions this way at runtime.
 */
export function parseVersionTolerant(text: string): SemVer {
  let s = String(text).trim().replace(/^v/, '');
  const cut = s.search(/[-+]/);
  const core = cut >= 0 ? s.slice(0, cut) : s;
  const suffix = cut >= 0 ? s.slice(cut) : '';
  const parts = core.split('.');
  if (parts.length < 3 && !parts.some((p) => p === '')) {
    while (parts.length < 3) parts.push('0');
  }
  const normalised = parts.map((p) => (/^[0-9]+$/.test(p) ? String(Number(p)) : p));
  s = normalised.join('.') + suffix;
  try {
    return parseVersion(s);
  } catch (e) {
    if (e instanceof SemverError) throw new SemverError(text, e.message.replace(/^invalid version "[^"]*": /, ''));
    throw e;
  }
}

/** Returns the version, or undefined when the text is not a strict version. */
export function tryParseVersion(text: string | undefined | null): SemVer | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    return parseVersion(text);
  } catch {
    return undefined;
  }
}

/** Returns the version read as OLM reads it at runtime, or undefined when even that fails. */
export function tryParseVersionTolerant(text: string | undefined | null): SemVer | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    return parseVersionTolerant(text);
  } catch {
    return undefined;
  }
}

function compareIdentifiers(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a === b ? 0 : a < b ? -1 : 1;
  // Numeric identifiers have lower precedence than alphanumeric ones (SemVer 2.0 §11.4.3).
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

/** SemVer 2.0 precedence; build metadata is ignored, as blang's Compare ignores it. */
export function compareVersions(a: SemVer, b: SemVer): number {
  if (a.major !== b.major) return a.major < b.major ? -1 : 1;
  if (a.minor !== b.minor) return a.minor < b.minor ? -1 : 1;
  if (a.patch !== b.patch) return a.patch < b.patch ? -1 : 1;
  if (a.pre.length === 0 && b.pre.length === 0) return 0;
  if (a.pre.length === 0) return 1;
  if (b.pre.length === 0) return -1;
  const n = Math.min(a.pre.length, b.pre.length);
  for (let i = 0; i < n; i++) {
    const c = compareIdentifiers(a.pre[i]!, b.pre[i]!);
    if (c !== 0) return c;
  }
  return a.pre.length === b.pre.length ? 0 : a.pre.length < b.pre.length ? -1 : 1;
}

export function formatVersion(v: SemVer): string {
  let s = `${v.major}.${v.minor}.${v.patch}`;
  if (v.pre.length) s += `-${v.pre.join('.')}`;
  if (v.build.length) s += `+${v.build.join('.')}`;
  return s;
}

/**
 * Items newest version first, for lists people scan (a channel's versions): by SemVer precedence
 * of the version `versionOf` gives, read as OLM reads it; items without a readable version go
 * last, by `nameOf`. Equal precedence (build metadata only) falls back to the name too.
 */
export function sortNewestFirst<T>(
  items: readonly T[],
  versionOf: (item: T) => string | undefined,
  nameOf: (item: T) => string,
): T[] {
  const keyed = items.map((item) => ({ item, v: tryParseVersionTolerant(versionOf(item)) }));
  keyed.sort((a, b) => {
    if (a.v && b.v) return compareVersions(b.v, a.v) || nameOf(a.item).localeCompare(nameOf(b.item));
    if (a.v) return -1;
    if (b.v) return 1;
    return nameOf(a.item).localeCompare(nameOf(b.item));
  });
  return keyed.map((k) => k.item);
}
