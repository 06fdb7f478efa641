// One place for "you are not logged in": with per-user tokens, an API answer of 401 (no session,
// an expired or revoked one, a token the cluster no longer accepts) takes the tab to the login
// page, which comes back here afterwards. In kubeconfig mode a 401 is the cluster refusing the
// console's own credentials, which no login fixes, so the page shows it as it is.
import { ApiClientError, getSession } from './api';

/** The login page, asked to come back to `path` (a path of this console, with its query). */
export function loginHref(path: string): string {
  return path === '/' || path.startsWith('/login') ? '/login' : `/login?next=${encodeURIComponent(path)}`;
}

// A tab leaves once: the first navigation away wins and later ones are ignored. Logging out
// claims it before the session ends, because every live page then notices the ended session and
// would send the tab to the login page — overtaking the logout's own way out through the identity
// provider's end-session page, which would leave the person signed in there.
let leaving = false;

/** Takes the tab to `href`, unless it is already on its way somewhere. */
export function leaveTo(href: string, how: 'assign' | 'replace' = 'assign'): void {
  if (leaving) return;
  leaving = true;
  window.location[how](href);
}

/** Holds the tab's one navigation for a logout: `go` takes it, `release` gives it back on failure. */
export function claimNavigation(): { go: (href: string) => void; release: () => void } {
  leaving = true;
  return {
    go: (href) => window.location.assign(href),
    release: () => {
      leaving = false;
    },
  };
}

/** For the query client's error hooks: every failed query and mutation passes through here. */
export async function redirectIfUnauthorized(err: unknown): Promise<void> {
  if (leaving || !(err instanceof ApiClientError) || err.code !== 401) return;
  if (window.location.pathname === '/login') return;
  let mode: string;
  try {
    mode = (await getSession()).mode;
  } catch {
    return;
  }
  if (mode !== 'token') return;
  // Once per tab, however many queries failed together; replace, so Back does not return to
  // the page that would only send the person here again.
  leaveTo(loginHref(`${window.location.pathname}${window.location.search}`), 'replace');
}
