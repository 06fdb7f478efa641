// The route a request was for, as Next.js names it (`/api/operators/[namespace]/[name]`), so
// that metrics and logs group requests by route instead of by object name (which would make one
// time series per operator). Patterns come from the build's app-path-routes manifest.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RouteNamer {
  (path: string): string;
}

/** Matches a path against route patterns; more literal segments win over parameters. */
export function routeNamer(patterns: readonly string[]): RouteNamer {
  const compiled = patterns
    .map((p) => ({
      pattern: p,
      parts: p.split('/').filter(Boolean),
      literals: p.split('/').filter((s) => s && !s.startsWith('[')).length,
    }))
    .sort((a, b) => b.literals - a.literals || b.parts.length - a.parts.length);
  return (path: string) => {
    const segs = path.split('?')[0]!.split('/').filter(Boolean);
    for (const c of compiled) {
      if (c.parts.length !== segs.length) continue;
      if (c.parts.every((p, i) => p.startsWith('[') || p === segs[i])) return c.pattern;
    }
    if (path.startsWith('/_next/')) return '/_next/*';
    return 'other';
  };
}

/** The patterns of a production build (`.next/app-path-routes-manifest.json`). */
export function buildRoutePatterns(dir: string): string[] {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, '.next', 'app-path-routes-manifest.json'), 'utf8')) as Record<
      string,
      string
    >;
    return [...new Set(Object.values(manifest))].filter((p) => !p.startsWith('/_'));
  } catch {
    return [];
  }
}
