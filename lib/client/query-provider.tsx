'use client';
// One TanStack Query client per tab: API answers are cached per key and shared by components.
// Every failed query and mutation passes by the one 401 handler (lib/client/unauthorized.ts).
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ApiClientError } from './api';
import { redirectIfUnauthorized } from './unauthorized';

export function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
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
      }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
