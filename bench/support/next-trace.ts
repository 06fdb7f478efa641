// The phases of a `next build` as Next.js itself records them in `.next/trace` (one JSON array of
// spans per line; times in microseconds). Its own account is steadier than the log's arrival
// times, and names what a slow build spent its time on (compiling, writing its cache, checking
// pages, the standalone folder).
import { readFileSync } from 'node:fs';

interface Span {
  name: string;
  id: number;
  parentId?: number;
  timestamp: number;
  duration: number;
}

export interface BuildPhase {
  name: string;
  /** Since the build started. */
  startMs: number;
  ms: number;
}

/** The build's top-level phases of at least `minMs`, in order; empty when there is no trace. */
export function buildPhases(tracePath: string, minMs = 300): BuildPhase[] {
  let text: string;
  try {
    text = readFileSync(tracePath, 'utf8');
  } catch {
    return [];
  }
  const spans: Span[] = text
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => JSON.parse(l) as Span[]);
  const build = spans.find((s) => s.name === 'next-build');
  if (!build) return [];
  const seen = new Set<string>();
  return spans
    .filter((s) => s.parentId === build.id && s.duration >= minMs * 1000)
    .sort((a, b) => a.timestamp - b.timestamp)
    .filter((s) => !seen.has(s.name) && seen.add(s.name))
    .map((s) => ({ name: s.name, startMs: (s.timestamp - build.timestamp) / 1000, ms: s.duration / 1000 }));
}
