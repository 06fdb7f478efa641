// Version ranges as OLM evaluates skipRange and olm.package.required (blang/semver v4
// ParseRange), per docs/olm/upgrade-graphs.md#skiprange-syntax. npm's `semver` differs in syntax (`!`,
// spaces after operators) and excludes pre-releases, so it cannot stand in for this.
import { compareVersions, formatVersion, parseVersion, SemverError, type SemVer } from './version';

export type Operator = '=' | '!=' | '>' | '>=' | '<' | '<=';

export interface Comparator {
  op: Operator;
  version: SemVer;
}

export interface VersionRange {
  /** The text the range was parsed from. */
  text: string;
  /** OR of AND-groups: the range matches when every comparator of some group matches. */
  groups: Comparator[][];
}

export class RangeSyntaxError extends Error {
  constructor(
    readonly input: string,
    readonly reason: string,
  ) {
    super(`invalid version range "${input}": ${reason}`);
    this.name = 'RangeSyntaxError';
  }
}

const OPERATORS: Record<string, Operator> = {
  '': '=',
  '=': '=',
  '==': '=',
  '!': '!=',
  '!=': '!=',
  '>': '>',
  '>=': '>=',
  '<': '<',
  '<=': '<=',
};

/**
 * Splits on spaces, except a space right after `>`, `<` or `=` (so `< 1.2.0` is one token), then
 * removes the spaces inside each token — blang's splitAndTrim.
 */
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let current = '';
  let lastNonSpace = '';
  for (const ch of text) {
    if (ch === ' ' && lastNonSpace !== '>' && lastNonSpace !== '<' && lastNonSpace !== '=') {
      if (current) tokens.push(current);
      current = '';
    } else if (ch !== ' ') {
      current += ch;
      lastNonSpace = ch;
    }
  }
  if (current) tokens.push(current);
  return tokens;
}

function splitComparator(input: string, token: string): { op: string; version: string } {
  const i = token.search(/[0-9]/);
  if (i < 0) throw new RangeSyntaxError(input, `"${token}" has no version`);
  return { op: token.slice(0, i).trim(), version: token.slice(i) };
}

function lookupOperator(input: string, op: string): Operator {
  const found = OPERATORS[op];
  if (!found) throw new RangeSyntaxError(input, `"${op}" is not an operator (use <, <=, >, >=, =, != or !)`);
  return found;
}

function parseStrict(input: string, version: string): SemVer {
  try {
    return parseVersion(version);
  } catch (e) {
    if (e instanceof SemverError) throw new RangeSyntaxError(input, e.message);
    throw e;
  }
}

/**
 * Expands a token whose last version part is `x` (`1.2.x`, `1.x`, `>1.2.x`...) into plain
 * comparators, as blang's expandWildcardVersion does — including its quirks: `1.x.x` counts as a
 * patch wildcard, and `!=1.2.x` becomes `<1.2.0 >=1.3.0` inside one AND group (matching nothing).
 */
function expandWildcard(input: string, token: string): string[] | undefined {
  if (!token.includes('x')) return undefined;
  const { op, version } = splitComparator(input, token);
  const parts = version.split('.');
  if (parts[parts.length - 1] !== 'x') {
    if (/(^|\.)x(\.|$)/.test(version))
      throw new RangeSyntaxError(input, `wildcard "x" may only be the last part of "${version}"`);
    return undefined;
  }
  if (parts.length !== 2 && parts.length !== 3)
    throw new RangeSyntaxError(input, `wildcard version "${version}" needs two or three parts`);
  let flat = version.replace('.x.x', '.x').replace('.x', '.0');
  if (flat.split('.').length === 2) flat += '.0';
  const base = parseStrict(input, flat);
  const bumped =
    parts.length === 3
      ? formatVersion({ major: base.major, minor: base.minor + 1, patch: 0, pre: [], build: [] })
      : formatVersion({ major: base.major + 1, minor: 0, patch: 0, pre: [], build: [] });
  switch (lookupOperator(input, op)) {
    case '>':
      return [`>=${bumped}`];
    case '>=':
      return [`>=${flat}`];
    case '<':
      return [`<${flat}`];
    case '<=':
      return [`<${bumped}`];
    case '=':
      return [`>=${flat}`, `<${bumped}`];
    case '!=':
      return [`<${flat}`, `>=${bumped}`];
  }
}

/** Parses a range; invalid text throws RangeSyntaxError naming the text and the problem. */
export function parseRange(text: string): VersionRange {
  if (typeof text !== 'string' || text.trim() === '') throw new RangeSyntaxError(String(text), 'range is empty');
  const tokens = tokenize(text);
  if (tokens[0] === '||') throw new RangeSyntaxError(text, 'it starts with "||"');
  if (tokens[tokens.length - 1] === '||') throw new RangeSyntaxError(text, 'it ends with "||"');
  const groups: Comparator[][] = [];
  let group: Comparator[] = [];
  for (const token of tokens) {
    if (token === '||') {
      if (group.length === 0) throw new RangeSyntaxError(text, 'empty group between "||"');
      groups.push(group);
      group = [];
      continue;
    }
    const expanded = expandWildcard(text, token) ?? [token];
    for (const t of expanded) {
      const { op, version } = splitComparator(text, t);
      group.push({ op: lookupOperator(text, op), version: parseStrict(text, version) });
    }
  }
  groups.push(group);
  return { text, groups };
}

/** Returns the range, or the syntax error, without throwing. */
export function tryParseRange(text: string): { range: VersionRange } | { error: RangeSyntaxError } {
  try {
    return { range: parseRange(text) };
  } catch (e) {
    if (e instanceof RangeSyntaxError) return { error: e };
    throw e;
  }
}

function holds(c: Comparator, v: SemVer): boolean {
  const cmp = compareVersions(v, c.version);
  switch (c.op) {
    case '=':
      return cmp === 0;
    case '!=':
      return cmp !== 0;
    case '>':
      return cmp > 0;
    case '>=':
      return cmp >= 0;
    case '<':
      return cmp < 0;
    case '<=':
      return cmp <= 0;
  }
}

/** Pre-releases are not excluded (unlike npm): `<2.0.0` contains `2.0.0-rc.1`. */
export function rangeContains(range: VersionRange, version: SemVer): boolean {
  return range.groups.some((g) => g.every((c) => holds(c, version)));
}
