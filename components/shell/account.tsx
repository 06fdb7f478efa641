'use client';
// Who the console acts as: with per-user tokens the person logged in, with Log out; with a
// kubeconfig its user, which every visitor shares and no one logs out of.
import { useMutation } from '@tanstack/react-query';
import type { SessionInfo } from '@/lib/client/api';
import { logOut } from '@/lib/client/session';
import { loginHref } from '@/lib/client/unauthorized';

function PersonIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 shrink-0 fill-current text-slate-400">
      <path d="M10 10a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 8a7 7 0 0 1 14 0H3Z" />
    </svg>
  );
}

export function Account({ session, pathname }: { session?: SessionInfo; pathname: string }) {
  const out = useMutation({ mutationFn: logOut });
  if (!session) return null;
  if (session.mode === 'kubeconfig') {
    return (
      <p
        className="flex min-w-0 items-center gap-2 py-2 text-sm text-slate-200 md:py-0"
        title="The console acts as its kubeconfig's user for everyone who reaches it"
      >
        <PersonIcon />
        <span className="sr-only">Acting as </span>
        <span className="truncate font-medium text-white">{session.username || 'the kubeconfig user'}</span>
        <span className="text-slate-300">(kubeconfig)</span>
      </p>
    );
  }
  if (!session.loggedIn) {
    if (pathname === '/login') return null;
    return (
      <a
        href={loginHref(pathname)}
        className="rounded border border-slate-500 px-3 py-1 text-sm font-medium text-white hover:bg-slate-800"
      >
        Log in
      </a>
    );
  }
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm md:py-0">
      <p className="flex min-w-0 items-center gap-2 text-slate-200">
        <PersonIcon />
        <span className="sr-only">Logged in as </span>
        <span
          className="max-w-[16rem] truncate font-medium text-white"
          title={[session.username, ...(session.groups?.length ? [`groups: ${session.groups.join(', ')}`] : [])].join(
            '\n',
          )}
        >
          {session.username}
        </span>
      </p>
      <button
        type="button"
        onClick={() => out.mutate()}
        disabled={out.isPending}
        className="rounded border border-slate-500 px-3 py-1 font-medium text-white hover:bg-slate-800
          disabled:text-slate-300"
      >
        {out.isPending ? 'Logging out…' : 'Log out'}
      </button>
      {out.error && (
        <p role="alert" className="w-full text-amber-200">
          {out.error.message}
        </p>
      )}
    </div>
  );
}
