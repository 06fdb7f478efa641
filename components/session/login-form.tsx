'use client';
// Logging in with one's own token (per-user mode): the token is checked by the cluster and kept
// in an encrypted, HttpOnly session cookie; the page never stores it.
import { useMutation } from '@tanstack/react-query';
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import type { SessionInfo } from '@/lib/client/api';
import { safeRedirectTarget } from '@/lib/client/redirect';
import { useSession } from '@/lib/client/session';
import { ErrorNotice } from '../common/notice';

export function LoginForm() {
  const next = useSearchParams().get('next');
  const [token, setToken] = useState('');
  const { session } = useSession();
  const login = useMutation({
    mutationFn: async () => {
      const res = await fetch('/api/session', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      const body = (await res.json()) as SessionInfo & { error?: { reason: string; message: string } };
      if (!res.ok) throw new Error(body.error ? `${body.error.reason}: ${body.error.message}` : `HTTP ${res.status}`);
      return body;
    },
    // A full page load, not a client-side push: the header, the permissions and every cached
    // answer belong to the person now logged in, not to whoever (or no one) was before.
    onSuccess: () => window.location.assign(safeRedirectTarget(next, window.location.origin)),
  });
  if (session?.mode === 'kubeconfig') {
    return (
      <section className="max-w-xl space-y-3">
        <h1 className="text-2xl font-bold">Log in</h1>
        <p className="text-slate-700">
          This console acts with its kubeconfig identity ({session.username}); there is nothing to log in to.
        </p>
      </section>
    );
  }
  return (
    <form
      className="max-w-xl space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        login.mutate();
      }}
    >
      <h1 className="text-2xl font-bold">Log in</h1>
      {session?.loggedIn && (
        <p className="text-sm text-slate-700">Logged in as {session.username}. Log in again to switch.</p>
      )}
      <label className="flex flex-col text-sm">
        <span className="font-medium">Your Kubernetes bearer token</span>
        <textarea
          value={token}
          onChange={(e) => setToken(e.target.value)}
          rows={4}
          autoComplete="off"
          spellCheck={false}
          className="rounded border border-slate-300 bg-white px-2 py-1.5 font-mono text-xs"
        />
      </label>
      <p className="text-xs text-slate-600">
        Every request the console makes for you uses this token: you see and do exactly what the cluster lets you.
      </p>
      <button
        type="submit"
        disabled={!token.trim() || login.isPending}
        className="rounded bg-sky-700 px-4 py-1.5 font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
      >
        Log in
      </button>
      {login.error && <ErrorNotice error={login.error} what="Login failed" />}
    </form>
  );
}
