'use client';
// Which cluster-wide pages the person may use (`/api/me/pages`, SelfSubjectAccessReviews asked
// by the server), for the navigation and the note on a page the navigation does not offer.
import { useQuery } from '@tanstack/react-query';
import type { ClusterPagePath, PageAccess, PageAccessAnswer } from '@/lib/api/page-access';
import { apiGet } from './api';

export interface PageAccessState {
  /** Each cluster-wide page's answer, by path; undefined until answered. */
  pages?: ReadonlyMap<ClusterPagePath, PageAccess>;
  /** The question could not be answered: nothing is known, so nothing may be hidden. */
  failed: boolean;
}

export function usePageAccess(enabled: boolean): PageAccessState {
  const q = useQuery({
    queryKey: ['me', 'pages'],
    queryFn: ({ signal }) => apiGet<PageAccessAnswer>('/api/me/pages', signal),
    enabled,
    // Rights change rarely; a page load asks again.
    staleTime: 5 * 60_000,
  });
  return { pages: q.data ? new Map(q.data.pages.map((p) => [p.path, p])) : undefined, failed: q.isError };
}
