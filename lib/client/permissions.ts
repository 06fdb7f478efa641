// Which console actions the person may take in a namespace (SelfSubjectAccessReview, asked by
// the server), for disabling buttons with the cluster's reason.
import { useQuery } from '@tanstack/react-query';
import { apiGet } from './api';

export type ConsoleAction =
  'install' | 'approveInstallPlan' | 'changeSubscription' | 'uninstall' | 'createOperatorGroup' | 'createNamespace';

export interface PermissionAnswer {
  namespace: string;
  permissions: { action: ConsoleAction; allowed: boolean; reason?: string }[];
}

export function usePermission(
  namespace: string | undefined,
  action: ConsoleAction,
): { allowed: boolean | undefined; reason?: string } {
  const q = useQuery({
    queryKey: ['permissions', namespace ?? ''],
    queryFn: ({ signal }) =>
      apiGet<PermissionAnswer>(`/api/me/permissions?namespace=${encodeURIComponent(namespace ?? '')}`, signal),
    enabled: !!namespace,
    staleTime: 60_000,
  });
  const p = q.data?.permissions.find((x) => x.action === action);
  return { allowed: p?.allowed, reason: p?.reason };
}
