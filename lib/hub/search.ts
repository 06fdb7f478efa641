// Keyword search over package summaries, ranked: an exact name or display name first, then
// prefixes, then words of the name, provider and keywords, then the description. Every term
// must match somewhere (AND), as a person narrowing a list expects.
import type { PackageSummary } from './package-summary';

export interface SearchHit {
  summary: PackageSummary;
  score: number;
}

function words(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
}

function termScore(term: string, s: PackageSummary): number {
  const name = s.name.toLowerCase();
  const display = s.displayName.toLowerCase();
  if (name === term || display === term) return 100;
  if (name.startsWith(term) || display.startsWith(term)) return 60;
  if (words(`${s.name} ${s.displayName}`).some((w) => w.startsWith(term))) return 40;
  if (s.keywords.some((k) => k.toLowerCase() === term)) return 30;
  if (words(`${s.provider} ${s.keywords.join(' ')}`).some((w) => w.startsWith(term))) return 20;
  if (words(s.categories.join(' ')).some((w) => w.startsWith(term))) return 10;
  if (s.shortDescription.toLowerCase().includes(term)) return 5;
  return 0;
}

/** Summaries matching every term of `query`, best first (ties by display name). */
export function searchPackages(summaries: readonly PackageSummary[], query: string): SearchHit[] {
  const terms = words(query);
  if (terms.length === 0) return summaries.map((summary) => ({ summary, score: 0 })).sort((a, b) => a.summary.displayName.localeCompare(b.summary.displayName));
  const hits: SearchHit[] = [];
  for (const summary of summaries) {
    let score = 0;
    let all = true;
    for (const t of terms) {
      const s = termScore(t, summary);
      if (s === 0) {
        all = false;
        break;
      }
      score += s;
    }
    if (all) hits.push({ summary, score });
  }
  return hits.sort((a, b) => b.score - a.score || a.summary.displayName.localeCompare(b.summary.displayName));
}
