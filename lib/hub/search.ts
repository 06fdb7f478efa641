// Keyword search over package summaries, ranked: an exact name or display name first, then
// prefixes, then words of the name, provider and keywords, then the description. Every term
// must match somewhere (AND), as a person narrowing a list expects.
import type { PackageSummary } from './package-summary';

export interface SearchHit {
  summary: PackageSummary;
  score: number;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** A summary's text, lowercased and split once: a search then only compares strings. */
interface Prepared {
  name: string;
  display: string;
  nameWords: string[];
  keywords: string[];
  providerWords: string[];
  categoryWords: string[];
  description: string;
}

// Summaries are shared and immutable, so their prepared form is kept beside them.
const prepared = new WeakMap<PackageSummary, Prepared>();

function prepare(s: PackageSummary): Prepared {
  let p = prepared.get(s);
  if (!p) {
    p = {
      name: s.name.toLowerCase(),
      display: s.displayName.toLowerCase(),
      nameWords: words(`${s.name} ${s.displayName}`),
      keywords: s.keywords.map((k) => k.toLowerCase()),
      providerWords: words(`${s.provider} ${s.keywords.join(' ')}`),
      categoryWords: words(s.categories.join(' ')),
      description: s.shortDescription.toLowerCase(),
    };
    prepared.set(s, p);
  }
  return p;
}

function termScore(term: string, p: Prepared): number {
  if (p.name === term || p.display === term) return 100;
  if (p.name.startsWith(term) || p.display.startsWith(term)) return 60;
  if (p.nameWords.some((w) => w.startsWith(term))) return 40;
  if (p.keywords.includes(term)) return 30;
  if (p.providerWords.some((w) => w.startsWith(term))) return 20;
  if (p.categoryWords.some((w) => w.startsWith(term))) return 10;
  if (p.description.includes(term)) return 5;
  return 0;
}

const collator = new Intl.Collator('en', { sensitivity: 'base' });

/** Display-name order, case and accents aside; one collator for every comparison. */
export function byDisplayName(a: PackageSummary, b: PackageSummary): number {
  return collator.compare(a.displayName, b.displayName) || a.name.localeCompare(b.name);
}

/** Summaries matching every term of `query`, best first (ties by display name). */
export function searchPackages(summaries: readonly PackageSummary[], query: string): SearchHit[] {
  const terms = words(query);
  if (terms.length === 0)
    return summaries.map((summary) => ({ summary, score: 0 })).sort((a, b) => byDisplayName(a.summary, b.summary));
  const hits: SearchHit[] = [];
  for (const summary of summaries) {
    const p = prepare(summary);
    let score = 0;
    let all = true;
    for (const t of terms) {
      const s = termScore(t, p);
      if (s === 0) {
        all = false;
        break;
      }
      score += s;
    }
    if (all) hits.push({ summary, score });
  }
  return hits.sort((a, b) => b.score - a.score || byDisplayName(a.summary, b.summary));
}
