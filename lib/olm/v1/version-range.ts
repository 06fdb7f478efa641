// A ClusterExtension's `version` as OLM v1 reads it: Masterminds/semver v3.3.1's constraint syntax
// (operator-controller resolve/catalog.go calls mmsemver.NewConstraint), not blang's ranges that
// skipRange uses. `1.2` means >=1.2.0 <1.3.0, `~`, `^`, `x` wildcards, comma or space for AND, `||`
// for OR, and a pre-release version satisfies a comparison only when that comparison names a
// pre-release itself. docs/olm-v1/resolution.md#version-ranges.
import { compareVersions, type SemVer } from '../semver/version';

interface Constraint {
  op: string;
  /** The version as written (`1.x`), for nothing but completeness. */
  orig: string;
  con: SemVer;
  dirty: boolean;
  minorDirty: boolean;
  patchDirty: boolean;
}

export interface VersionConstraints {
  text: string;
  /** OR of AND-groups. */
  groups: Constraint[][];
}

// Go's \s is [\t\n\f\r ]; JavaScript's is wider, so spell it out.
const S = '[\\t\\n\\f\\r ]';
const OPS = '=||!=|>|<|>=|=>|<=|=<|~|~>|\\^';
const CV =
  'v?([0-9|x|X|\\*]+)(\\.[0-9|x|X|\\*]+)?(\\.[0-9|x|X|\\*]+)?' +
  '(-([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?' +
  '(\\+([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?';
const CONSTRAINT = new RegExp(`^${S}*(${OPS})${S}*(${CV})${S}*$`);
const RANGE = new RegExp(`${S}*(${CV})${S}+-${S}+(${CV})${S}*`, 'g');
const FIND = new RegExp(`(${OPS})${S}*(${CV})`, 'g');
const VALID = new RegExp(`^(${S}*(${OPS})${S}*(${CV})${S}*)((?:${S}+|,${S}*)(${OPS})${S}*(${CV})${S}*)*$`);

const isX = (s: string | undefined) => s === 'x' || s === 'X' || s === '*';

/** Masterminds' NewVersion for the filled-in forms parseConstraint builds (`1.2.0-rc.1`). */
function looseVersion(text: string): SemVer | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?$/.exec(text);
  if (!m) return undefined;
  return {
    major: Number(m[1]),
    minor: Number(m[2] ?? 0),
    patch: Number(m[3] ?? 0),
    pre: m[4] ? m[4].split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : [],
    build: m[5] ? m[5].split('.') : [],
  };
}

function parseOne(text: string): Constraint | string {
  const m = CONSTRAINT.exec(text);
  if (!m) return `improper constraint: ${text}`;
  const [, op = '', whole = '', major, minor, patch, pre = ''] = m;
  let ver = whole;
  let dirty = false;
  let minorDirty = false;
  let patchDirty = false;
  if (isX(major) || !major) {
    ver = `0.0.0${pre}`;
    dirty = true;
  } else if (isX(minor?.slice(1)) || !minor) {
    ver = `${major}.0.0${pre}`;
    dirty = minorDirty = true;
  } else if (isX(patch?.slice(1)) || !patch) {
    ver = `${major}${minor}.0${pre}`;
    dirty = patchDirty = true;
  }
  const con = looseVersion(ver);
  if (!con) return 'constraint Parser Error';
  return { op, orig: whole, con, dirty, minorDirty, patchDirty };
}

/** Parses a range, or gives Masterminds' error text (`improper constraint: …`). */
export function parseVersionConstraints(text: string): VersionConstraints | { error: string } {
  // Hyphen ranges become ">= A, <= B" first (the CRD's rule refuses them before this is reached).
  const rewritten = text.replace(RANGE, (_all, a: string, ...rest: unknown[]) => `>= ${a}, <= ${rest[9] as string} `);
  const groups: Constraint[][] = [];
  for (const group of rewritten.split('||')) {
    if (!VALID.test(group)) return { error: `improper constraint: ${group}` };
    const found = group.match(FIND) ?? [group];
    const parsed: Constraint[] = [];
    for (const s of found) {
      const c = parseOne(s);
      if (typeof c === 'string') return { error: c };
      parsed.push(c);
    }
    groups.push(parsed);
  }
  return { text, groups };
}

const hasPre = (v: SemVer) => v.pre.length > 0;
const cmp = (a: SemVer, b: SemVer) => compareVersions({ ...a, build: [] }, { ...b, build: [] });

function tilde(v: SemVer, c: Constraint): boolean {
  if (hasPre(v) && !hasPre(c.con)) return false;
  if (cmp(v, c.con) < 0) return false;
  if (c.con.major === 0 && c.con.minor === 0 && c.con.patch === 0 && !c.minorDirty && !c.patchDirty) return true;
  if (v.major !== c.con.major) return false;
  return v.minor === c.con.minor || c.minorDirty;
}

function check(v: SemVer, c: Constraint): boolean {
  const { con } = c;
  switch (c.op) {
    case '':
    case '=':
      if (hasPre(v) && !hasPre(con)) return false;
      return c.dirty ? tilde(v, c) : cmp(v, con) === 0;
    case '!=':
      if (c.dirty) {
        if (hasPre(v) && !hasPre(con)) return false;
        if (con.major !== v.major) return true;
        if (con.minor !== v.minor && !c.minorDirty) return true;
        if (c.minorDirty) return false;
        if (con.patch !== v.patch && !c.patchDirty) return true;
        if (c.patchDirty) {
          if (hasPre(v) || hasPre(con))
            return cmp({ ...v, major: 0, minor: 0, patch: 0 }, { ...con, major: 0, minor: 0, patch: 0 }) !== 0;
          return false;
        }
      }
      return cmp(v, con) !== 0;
    case '>':
      if (hasPre(v) && !hasPre(con)) return false;
      if (!c.dirty) return cmp(v, con) > 0;
      if (v.major > con.major) return true;
      if (v.major < con.major || c.minorDirty) return false;
      if (c.patchDirty) return v.minor > con.minor;
      return cmp(v, con) > 0;
    case '<':
      if (hasPre(v) && !hasPre(con)) return false;
      return cmp(v, con) < 0;
    case '>=':
    case '=>':
      if (hasPre(v) && !hasPre(con)) return false;
      return cmp(v, con) >= 0;
    case '<=':
    case '=<':
      if (hasPre(v) && !hasPre(con)) return false;
      if (!c.dirty) return cmp(v, con) <= 0;
      if (v.major > con.major) return false;
      return !(v.major === con.major && v.minor > con.minor && !c.minorDirty);
    case '~':
    case '~>':
      return tilde(v, c);
    case '^':
      if (hasPre(v) && !hasPre(con)) return false;
      if (cmp(v, con) < 0) return false;
      if (con.major > 0 || c.minorDirty) return v.major === con.major;
      if (v.major > 0) return false;
      if (con.minor > 0 || c.patchDirty) return v.minor === con.minor;
      if (v.minor > 0) return false;
      return con.patch === v.patch;
    default:
      return false;
  }
}

/** Whether the version satisfies some AND-group of the range. */
export function satisfies(range: VersionConstraints, v: SemVer): boolean {
  return range.groups.some((g) => g.every((c) => check(v, c)));
}
