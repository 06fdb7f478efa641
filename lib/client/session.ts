'use client';
// Who is using the console, for the header: the session as `/api/session` answers it (shared with
// the CSRF token's fetch, so a page load asks once), and logging out of it.
import { useQuery } from '@tanstack/react-query';
import { getSession, type SessionInfo } from './api';

export function useSession(): { session?: SessionInfo; error: unknown } {
  // The key the login form reads too; the session changes only with a page load (login, logout).
  const q = useQuery({ queryKey: ['session'], queryFn: () => getSession(), staleTime: Infinity });
  return { session: q.data, error: q.error };
}

/**
 * Ends the session on the server (its id is recorded as revoked on every replica), then loads the
 * login page afresh, so nothing the person's queries cached stays in the tab.
 */
export async function logOut(): Promise<void> {
  const { csrfToken } = await getSession();
  const res = await fetch('/api/session', {
    method: 'DELETE',
    credentials: 'same-origin',
    headers: { 'x-csrf-token': csrfToken },
  });
  if (!res.ok && res.status !== 401) throw new Error(`logging out failed with HTTP ${res.status}`);
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load on purpose (above)
  window.location.assign('/login');
}
