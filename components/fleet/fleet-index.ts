'use client';
// The clusters the console serves, for the navigation (the fleet pages are listed only when
// there is more than one) and the fleet pages' headings. Asked once per page load; no cluster is
// asked anything for it.
import { useQuery } from '@tanstack/react-query';
import type { FleetIndex } from '@/lib/api/fleet';
import { apiGet } from '@/lib/client/api';

export function useFleetIndex(enabled = true) {
  return useQuery({
    queryKey: ['fleet', 'index'],
    queryFn: ({ signal }) => apiGet<FleetIndex>('/api/fleet', signal),
    enabled,
    staleTime: Infinity,
  });
}
