// Where an image is pulled from once a cluster's mirror rules apply, as a node's CRI-O does it:
// OpenShift's machine-config operator writes ImageDigestMirrorSets, ImageTagMirrorSets and
// ImageContentSourcePolicies into registries.conf, and containers/image reads that file
// (containers-registries.conf(5); go.podman.io/image/v5 pkg/sysregistriesv2 and docker/). Its
// rule, as kept here:
// - one table is chosen per reference: the one whose source is the longest prefix of the whole
//   reference text (`host/repo:tag@digest`), matching only up to a `/`, `:` or `@` or the end;
//   a `*.example.com` source matches any subdomain's host, and counts by its own length;
// - the chosen table's mirrors are tried in order, those from digest rules only for a reference
//   with a digest, those from tag rules only for one without; each mirror replaces the matched
//   prefix, the rest of the reference is kept;
// - the source itself is tried last, unless a rule for it says `NeverContactSource`: the table
//   is then `blocked`, which refuses the source for every reference it matches, by tag as well.
// Several rules for one source are merged: their mirrors in the order the rules are listed,
// each once; blocked if any rule blocks. ImageContentSourcePolicy is a digest rule that always
// allows the source.
import { parseImageReference, referenceText, type ImageReference } from './image-reference';

export interface MirrorRule {
  source: string;
  mirrors: readonly string[];
  /** Digest rules (IDMS, ICSP) apply to references by digest; tag rules (ITMS) to the others. */
  by: 'digest' | 'tag';
  neverContactSource: boolean;
}

export type PullSource = { ref: ImageReference; mirror: boolean };

/** How much of `text` the prefix matches (containers/image's refMatchingPrefix), or -1. */
export function prefixMatch(text: string, prefix: string): number {
  if (prefix.startsWith('*.')) {
    const at = text.indexOf(prefix.slice(1));
    if (at === -1 || text.slice(0, at).includes('/')) return -1;
    const end = at + prefix.length - 1;
    return end === text.length || ':/@'.includes(text[end]!) ? end : -1;
  }
  if (text === prefix) return prefix.length;
  if (!text.startsWith(prefix)) return -1;
  return ':/@'.includes(text[prefix.length]!) ? prefix.length : -1;
}

/**
 * The references to try, in order, for `ref` under `rules`; an empty list means the source is
 * blocked and no mirror applies. A mirror whose rewritten reference does not parse is skipped.
 */
export function pullSources(ref: ImageReference, rules: readonly MirrorRule[]): PullSource[] {
  const text = referenceText(ref);
  let chosen = '';
  for (const r of rules) if (prefixMatch(text, r.source) !== -1 && r.source.length > chosen.length) chosen = r.source;
  const self: PullSource = { ref, mirror: false };
  if (!chosen) return [self];
  const table = rules.filter((r) => r.source === chosen);
  const matched = prefixMatch(text, chosen);
  const by = ref.digest ? 'digest' : 'tag';
  const out: PullSource[] = [];
  const seen = new Set<string>();
  for (const r of table) {
    if (r.by !== by) continue;
    for (const m of r.mirrors) {
      if (seen.has(m)) continue;
      seen.add(m);
      const parsed = parseImageReference(chosen.startsWith('*.') && !m ? text : m + text.slice(matched));
      if (!('error' in parsed)) out.push({ ref: parsed, mirror: true });
    }
  }
  if (!table.some((r) => r.neverContactSource)) out.push(self);
  return out;
}
