'use client';
// A fleet route's path with the namespaces this person has used in this browser (`?namespace=…`):
// a cluster that will not let them list every namespace's operators checks each of these for
// itself and reads those it lets them use (lib/server/fleet/namespaced-reader.ts). For a person
// with none remembered the path is unchanged, so nothing is asked twice.
import { useMemo } from 'react';
import { useSession } from '@/lib/client/session';
import { rememberedNamespaces } from '../common/namespace-memory';

export function useCandidatePath(path: string): string {
  const { session } = useSession();
  const who = session?.username;
  return useMemo(() => {
    const q = new URLSearchParams();
    for (const n of who ? rememberedNamespaces(who) : []) q.append('namespace', n);
    const s = q.toString();
    return `${path}${s ? `?${s}` : ''}`;
  }, [path, who]);
}
