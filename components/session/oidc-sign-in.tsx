'use client';
// Signing in with the identity provider, on the login page of a console started with
// --oidc-issuer: a plain link to /api/auth/login (a top-level navigation, so the provider's
// redirect back carries the sign-in cookie), returning to the page that sent the person here.
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'next/navigation';
import { apiGet, type SessionInfo } from '@/lib/client/api';
import { safeRedirectTarget } from '@/lib/client/redirect';

type WithAuth = SessionInfo & { auth?: 'oidc' | 'token' | null };

export function OidcSignIn() {
  const next = useSearchParams().get('next');
  const session = useQuery({
    queryKey: ['session'],
    queryFn: ({ signal }) => apiGet<WithAuth>('/api/session', signal),
  });
  if (session.data?.auth !== 'oidc') return null;
  const target = safeRedirectTarget(next, typeof window === 'undefined' ? 'http://localhost' : window.location.origin);
  return (
    <section className="mb-8 max-w-xl space-y-2" aria-labelledby="oidc-sign-in">
      <h2 id="oidc-sign-in" className="text-lg font-semibold">
        Sign in with your organisation&apos;s account
      </h2>
      <a
        href={`/api/auth/login?next=${encodeURIComponent(target)}`}
        className="inline-block rounded bg-sky-700 px-4 py-1.5 font-semibold text-white"
      >
        Sign in with the identity provider
      </a>
      <p className="text-xs text-slate-600">Or paste a Kubernetes bearer token below.</p>
    </section>
  );
}
