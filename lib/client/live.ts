'use client';
// Keeps a query fresh while something in the cluster is moving: the query is read again every
// 1.5 s while `active` (an install in progress), and stops when it settles.
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';

export function useLiveRefresh(key: QueryKey, namespace: string, kinds: readonly string[], active: boolean): void {
  const qc = useQueryClient();
  const id = JSON.stringify([key, namespace, kinds]);
  useEffect(() => {
    if (!active) return;
    const parsed = JSON.parse(id) as [QueryKey];
    const t = setInterval(() => void qc.invalidateQueries({ queryKey: parsed[0] }), 1500);
    return () => clearInterval(t);
  }, [qc, id, active]);
}
