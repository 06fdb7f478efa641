'use client';
// What a page (or a tab) shows when what it is about could not be read: a title, what happened in
// plain words for the kind of failure, the API's own message for whoever digs further, and ways on
// (back to where such things are listed, try again, log in). As the whole page (level 1) it has
// the breadcrumb the page would have had, read from the address.
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useId } from 'react';
import { ApiClientError } from '@/lib/client/api';
import { PageTrail } from './page-trail';

export interface WayBack {
  href: string;
  label: string;
}

interface Explained {
  words: string;
  retry: boolean;
  login: boolean;
}

const GONE = 'It is not there: it may have been deleted, or it never existed under this name.';
const FORBIDDEN = 'The cluster does not let you read it. Someone who administers it can grant access.';
const UNREACHABLE = 'The console got no answer from the cluster; it may be busy or out of reach for a moment.';

function explain(error: unknown, notFound: string | undefined): Explained {
  const code = error instanceof ApiClientError ? error.code : undefined;
  const said = (words: string, retry = false, login = false): Explained => ({ words, retry, login });
  if (code === 404) return said(notFound ?? GONE);
  if (code === 403) return said(FORBIDDEN);
  if (code === 401) return said('You are not logged in, or your session has ended.', false, true);
  if (code === 0) return said('The console did not answer: your connection may be down.', true);
  if (code !== undefined && code >= 500) return said(UNREACHABLE, true);
  if (code !== undefined && code >= 400) return said('The console refused the request as it was made.');
  return said('Something went wrong while reading it.', true);
}

const PANEL = 'max-w-3xl space-y-3 rounded-lg border border-red-300 bg-white p-5';

function apiMessage(error: unknown): string {
  if (error instanceof ApiClientError) return `${error.body.reason}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

interface Props {
  error: unknown;
  title: string;
  /** What a 404 means here, in words. */
  notFound?: string;
  back?: readonly WayBack[];
  /** Offered when trying again may help (the console or the cluster did not answer). */
  onRetry?: () => void;
  /** 1 when the panel is the page; 2 inside a page that has its own title. */
  level?: 1 | 2;
}

export function ErrorPanel({ error, title, notFound, back = [], onRetry, level = 1 }: Props) {
  const e = explain(error, notFound);
  const id = useId();
  const Heading = level === 1 ? 'h1' : 'h2';
  const here = typeof window === 'undefined' ? '/' : window.location.pathname + window.location.search;
  return (
    <>
      {level === 1 && <PageTrail />}
      <section role="alert" aria-labelledby={id} className={PANEL}>
        <Heading id={id} className={`font-bold text-red-900 ${level === 1 ? 'text-2xl' : 'text-lg'}`}>
          {title}
        </Heading>
        <p className="text-slate-800">{e.words}</p>
        <p className="text-sm text-slate-700">
          The API said: <code className="rounded bg-slate-100 px-1 [overflow-wrap:anywhere]">{apiMessage(error)}</code>
        </p>
        <p className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
          {e.login && (
            <a className="font-semibold text-sky-800 underline" href={`/login?next=${encodeURIComponent(here)}`}>
              Log in
            </a>
          )}
          {e.retry && onRetry && (
            <button type="button" onClick={onRetry} className="rounded border border-slate-300 px-3 py-1 font-semibold">
              Try again
            </button>
          )}
          {back.map((b) => (
            <Link key={b.href} className="text-sky-800 underline" href={b.href}>
              {b.label}
            </Link>
          ))}
        </p>
      </section>
    </>
  );
}
