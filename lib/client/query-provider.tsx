'use client';
// One TanStack Query client per tab and cluster: API answers are cached per key and shared by components.
// Every failed query and mutation passes by the one 401 handler (lib/client/unauthorized.ts).
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ApiClientError } from './api';
import { usePageCluster } from './cluster';
import { redirectIfUnauthorized } from './unauthorized';

function newQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (err) => void redirectIfUnauthorized(err) }),
    mutationCache: new MutationCache({ onError: (err) => void redirectIfUnauthorized(err) }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // A 4xx will not fix itself; a network error or 5xx might.
        retry: (count, err) => count < 2 && !(err instanceof ApiClientError && err.code >= 400 && err.code < 500),
      },
    },
  });
}

/**
 * A query client per cluster the tab visits (lib/client/cluster.tsx): answers are kept by key,
 * and `['operators', ns]` on one cluster is not the same answer on another, so moving between
 * clusters never shows what the last one said.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  const { cluster } = usePageCluster();
  const [clients] = useState(() => new Map<string, QueryClient>());
  const key = cluster ?? '';
  let client = clients.get(key);
  if (!client) {
    client = newQueryClient();
    clients.set(key, client);
  }
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
