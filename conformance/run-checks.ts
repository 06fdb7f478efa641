// Running checks on both clusters and judging the answers: each check's answers are normalised
// and compared; a check that differs is a divergence, explained when the table of known
// differences in docs/conformance.md names it (with the reason), unexplained otherwise.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { differences, normalise, type Difference, type NormaliseOptions } from './compare';
import type { Target } from './target';

export interface Check {
  id: string;
  run(t: Target): Promise<unknown>;
  normalise?: NormaliseOptions;
  /** Touches nothing another check reads (its own namespace): it may run alongside the others. */
  independent?: boolean;
  /** Shares something with other checks that OLM races on: it runs last, with nothing else running. */
  alone?: boolean;
}

export interface Verdict {
  id: string;
  differences: Difference[];
  /** The reason from the known-differences table, when the divergence is explained there. */
  explained?: string;
  error?: string;
}

/** Replacements that make two clusters' answers comparable: their registry addresses and API URLs. */
export function replacementsFor(t: Target): [string, string][] {
  const out: [string, string][] = [
    [t.url, '<api-server>'],
    [new URL(t.url).host, '<api-server>'],
  ];
  for (const [name, address] of Object.entries(t.registries)) out.push([address, `<registry ${name}>`]);
  return out.sort((a, b) => b[0].length - a[0].length);
}

export async function runCheck(
  check: Check,
  sandbox: Target,
  real: Target,
  known: Map<string, string>,
): Promise<Verdict> {
  let results: unknown[];
  try {
    // The two clusters share nothing, so the check runs on both at once.
    results = await Promise.all(
      [sandbox, real].map(async (t) =>
        normalise(await check.run(t), {
          ...check.normalise,
          replace: [...(check.normalise?.replace ?? []), ...replacementsFor(t)],
        }),
      ),
    );
  } catch (err) {
    return { id: check.id, differences: [], error: (err as Error).message, explained: known.get(check.id) };
  }
  const dump = process.env.CONFORMANCE_DUMP;
  if (dump) {
    // Both answers whole, for reading a divergence the table shows only the start of.
    mkdirSync(dump, { recursive: true });
    writeFileSync(
      join(dump, `${check.id.replace(/[^a-zA-Z0-9.-]+/g, '_')}.json`),
      JSON.stringify({ sandbox: results[0], real: results[1] }, null, 1),
    );
  }
  const diffs = differences(results[0], results[1]);
  return {
    id: check.id,
    differences: diffs,
    ...(diffs.length && known.has(check.id) ? { explained: known.get(check.id) } : {}),
  };
}

/**
 * Runs every check, in order, except that the independent ones run together: a scenario that
 * waits a minute for OLM does not hold up the others. The checks that must run alone wait for all
 * of that to finish, then run one by one. Verdicts come back in the checks' order.
 */
export async function runChecks(
  checks: Check[],
  sandbox: Target,
  real: Target,
  known: Map<string, string>,
): Promise<Verdict[]> {
  const verdicts: Verdict[] = new Array(checks.length);
  const together = Promise.all(
    checks.map((c, i) =>
      c.independent ? runCheck(c, sandbox, real, known).then((v) => (verdicts[i] = v)) : undefined,
    ),
  );
  for (const [i, c] of checks.entries())
    if (!c.independent && !c.alone) verdicts[i] = await runCheck(c, sandbox, real, known);
  await together;
  for (const [i, c] of checks.entries()) if (c.alone) verdicts[i] = await runCheck(c, sandbox, real, known);
  return verdicts;
}

/** Where the known differences are written, for people and for this suite alike. */
export const KNOWN_DIFFERENCES_DOC = 'docs/conformance.md';
const KNOWN_DIFFERENCES_HEADING = /^#{2,3} Known differences from the real cluster\s*$/;

/** The known differences of the repository at `root`, read from {@link KNOWN_DIFFERENCES_DOC}. */
export function readKnownDifferences(root: string): Map<string, string> {
  return knownDifferences(readFileSync(join(root, KNOWN_DIFFERENCES_DOC), 'utf8'), KNOWN_DIFFERENCES_DOC);
}

/**
 * The rows of the table under the heading "Known differences from the real cluster", as check id →
 * "kind: why". A document without that heading is an error rather than an empty table: every known
 * difference would otherwise turn into an unexplained divergence, far from the cause (a moved file).
 */
export function knownDifferences(markdown: string, source = 'the document'): Map<string, string> {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => KNOWN_DIFFERENCES_HEADING.test(l));
  if (start < 0) throw new Error(`${source} has no "Known differences from the real cluster" heading`);
  const out = new Map<string, string>();
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    const m = /^\|\s*`([^`]+)`\s*\|(.+)\|\s*$/.exec(line);
    if (m) out.set(m[1]!, m[2]!.trim().replace(/\s*\|\s*/g, ': '));
  }
  return out;
}

const short = (v: unknown) => {
  const s = v === undefined ? '(absent)' : JSON.stringify(v);
  return s.length > 90 ? `${s.slice(0, 87)}…` : s;
};

export function report(
  verdicts: Verdict[],
  print: (line: string) => void = console.log,
): { checks: number; divergences: number; explained: number } {
  const diverging = verdicts.filter((v) => v.differences.length || v.error);
  if (diverging.length) {
    print('| check | where | sandbox | real | explained |');
    print('|---|---|---|---|---|');
    for (const v of diverging) {
      if (v.error)
        print(`| ${v.id} | (the check failed) | ${v.error.replace(/\|/g, '/')} | | ${v.explained ?? 'no'} |`);
      for (const d of v.differences.slice(0, 8))
        print(`| ${v.id} | ${d.path} | ${short(d.sandbox)} | ${short(d.real)} | ${v.explained ? 'yes' : 'no'} |`);
      if (v.differences.length > 8) print(`| ${v.id} | … ${v.differences.length - 8} more | | | |`);
    }
  }
  const explained = diverging.filter((v) => v.explained).length;
  const bugs = diverging.filter((v) => v.explained?.includes('sandbox bug')).length;
  if (bugs)
    print(
      `${bugs} of the explained divergences are open sandbox bugs (${KNOWN_DIFFERENCES_DOC}, "Known differences from the real cluster")`,
    );
  return { checks: verdicts.length, divergences: diverging.length, explained };
}
