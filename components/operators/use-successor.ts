'use client';
// An upgrade replaces the CSV an operator page is named after: OLM deletes the old one once the
// new one runs. When the page's CSV is gone it follows the operator instead of ending on "not
// found": the Subscription it last showed (or the one that installed the replacement) says what
// is installed now. While the old CSV is still there the page only says what replaces it.
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { OperatorDetails } from '@/lib/api/operators';
import type { SubscriptionProgress } from '@/lib/olm/status/install-progress';
import { ApiClientError, apiGet } from '@/lib/client/api';

export interface Successor {
  csv?: string;
  /** True while the page's CSV is gone and the Subscription is being asked. */
  looking: boolean;
}

export function useSuccessor(
  namespace: string,
  name: string,
  details: UseQueryResult<OperatorDetails>,
  enabled: boolean,
): Successor {
  // On a failed refetch the query keeps the last details it read, and with them the Subscription.
  const last = details.data;
  const gone = details.error instanceof ApiClientError && details.error.code === 404;
  const subscription =
    last?.replacedBy?.subscription ?? last?.subscription?.object.metadata?.name ?? last?.sourceSubscription;
  // A copy's Subscription is where the operator is installed; the new copy keeps the CSV's name.
  const subscriptionNamespace = last?.copiedFrom ?? namespace;
  const ask = enabled && gone && !!subscription;
  const now = useQuery({
    queryKey: ['installed-by', subscriptionNamespace, subscription],
    enabled: ask,
    retry: false,
    queryFn: ({ signal }) =>
      apiGet<SubscriptionProgress>(
        `/api/subscriptions/${encodeURIComponent(subscriptionNamespace)}/${encodeURIComponent(subscription!)}`,
        signal,
      ).then((p) => p.subscription.status?.installedCSV ?? null),
  });
  if (!ask) return { looking: false };
  return { csv: now.data && now.data !== name ? now.data : undefined, looking: now.isPending };
}
