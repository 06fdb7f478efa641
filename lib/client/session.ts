'use client';
// Who is using the console, for the header: the session as `/api/session` answers it (shared with
// the CSRF token's fetch, so a page load asks once), and logging out of it.
import { useQuery } from '@tanstack/react-query';
import { getSession, type SessionInfo } from './api';
import { claimNavigation } from './unauthorized';

export function useSession(): { session?: SessionInfo; error: unknown } {
  // The key the login form reads too; the session changes only with a page load (login, logout).
  const q = useQuery({ queryKey: ['session'], queryFn: () => getSession(), staleTime: Infinity });
  return { session: q.data, error: q.error };
}

/**
 * Ends the session on the server (its id is recorded as revoked on every replica), then loads
 * where the server says: the login page afresh, so nothing the person's queries cached stays in
 * the tab, or, after signing in with the identity provider, its end-session page first.
 */
export async function logOut(): Promise<void> {
  const navigation = claimNavigation();
  try {
    const { csrfToken } = await getSession();
    const res = await fetch('/api/auth/logout', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'x-csrf-token': csrfToken },
    });
    if (!res.ok && res.status !== 401) {
      const body = (await res.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
      throw new Error(body?.error?.message ?? `logging out failed with HTTP ${res.status}`);
    }
    const { redirect } = res.ok ? ((await res.json()) as { redirect?: string }) : { redirect: undefined };
    navigation.go(redirect || '/login');
  } catch (err) {
    navigation.release();
    throw err;
  }
}
