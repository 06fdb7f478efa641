// A CRD schema's `pattern` as Kubernetes reads it: Go's regexp (RE2) syntax, found anywhere in
// the value (kube-openapi's Pattern is regexp.MatchString), in time linear in the value's length.
// One rule for the sandbox's API server and the operand form in the browser (lib/olm: pure).
import { RE2JS } from 're2js';

/** A pattern RE2 accepts, ready to test values; or why Go's regexp.Compile would refuse it. */
export type CompiledPattern = { ok: true; matches(value: string): boolean } | { ok: false; error: string };

// Catalogs bring a few hundred distinct patterns at most; the bound keeps a stream of new ones
// (a CRD re-created with a changing pattern) from growing the process without end.
const CACHE_LIMIT = 512;
const cache = new Map<string, CompiledPattern>();

function compile(pattern: string): CompiledPattern {
  try {
    // No flags: Go's regexp.Compile is Perl syntax without (?i), (?m) or (?s) until the pattern
    // says so. re2js's LOOKBEHINDS flag is its own extension, which Go refuses, so it stays off.
    const re = RE2JS.compile(pattern);
    // test() is an unanchored search, as MatchString: `abc` matches "xabcx"; anchors are the
    // pattern's own.
    return { ok: true, matches: (value) => re.test(value) };
  } catch (err) {
    // re2js words its syntax errors as Go's regexp/syntax does ("error parsing regexp: ...").
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** The pattern compiled once per process (a bounded cache, least recently used dropped first). */
export function compilePattern(pattern: string): CompiledPattern {
  const hit = cache.get(pattern);
  if (hit) {
    cache.delete(pattern);
    cache.set(pattern, hit);
    return hit;
  }
  const made = compile(pattern);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(pattern, made);
  return made;
}

/** Go's regexp.Compile error for a pattern RE2 refuses (lookahead, backreference…); else undefined. */
export function patternError(pattern: string): string | undefined {
  const c = compilePattern(pattern);
  return c.ok ? undefined : c.error;
}
