'use client';
// What a page shows when showing it failed in the console itself (a cluster's error is the page's
// own ErrorPanel): a title, the breadcrumb, what happened in words, Try again and the ways back.
// The error's message is not shown: in a production build the server's is withheld, and its
// digest is what the console's log names, so that is what a person can pass on.
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useEffect, useRef } from 'react';
import { PageTrail } from '@/components/common/page-trail';
import { trailFor } from '@/components/common/trail';

export default function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The page the person was on went away under them: the focus goes to what replaced it.
  useEffect(() => heading.current?.focus(), []);
  const section = trailFor(typeof window === 'undefined' ? '/' : window.location.pathname).section;
  return (
    <>
      <title>This page could not be shown · OLM Console</title>
      <PageTrail />
      <section role="alert" aria-labelledby="page-error-title" className="max-w-3xl space-y-3">
        <h1 id="page-error-title" ref={heading} tabIndex={-1} className="text-2xl font-bold focus:outline-none">
          This page could not be shown
        </h1>
        <p className="text-slate-800">
          The console failed while showing this page; nothing was changed in the cluster. Trying again may help. If it
          does not, whoever runs the console can find what happened in its log
          {error.digest ? (
            <>
              {' '}
              under the reference <code className="rounded bg-slate-100 px-1">{error.digest}</code>
            </>
          ) : null}
          .
        </p>
        <p className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <button type="button" onClick={reset} className="rounded border border-slate-300 px-3 py-1 font-semibold">
            Try again
          </button>
          {section && (
            <Link className="text-sky-800 underline" href={section.href}>
              {section.label}
            </Link>
          )}
          <Link className="text-sky-800 underline" href="/">
            Go to the start page
          </Link>
        </p>
      </section>
    </>
  );
}
