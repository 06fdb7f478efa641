'use client';
// The breadcrumb above a page that could not be shown: see ./trail.ts.
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { trailFor } from './trail';

export function PageTrail({ last }: { last?: string }) {
  const t = trailFor(usePathname() ?? '/');
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
