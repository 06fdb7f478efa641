'use client';
// The breadcrumb above a page that could not be shown: see ./trail.ts.
import { ClusterLink as Link, usePageCluster } from '@/lib/client/cluster';
import { trailFor } from './trail';

export function PageTrail({ last }: { last?: string }) {
  const t = trailFor(usePageCluster().path);
  const here = last ?? t.here;
  return (
    <nav aria-label="Breadcrumb" className="mb-3 text-sm text-slate-600 [overflow-wrap:anywhere]">
      <Link className="text-sky-700 underline" href={t.section?.href ?? '/'}>
        {t.section?.label ?? 'Home'}
      </Link>
      {here && ` / ${here}`}
    </nav>
  );
}
