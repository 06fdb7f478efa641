// What an address that leads to no page shows (Next.js renders it inside the root layout, with the
// navigation): a title, the breadcrumb, what happened in words and the ways on, instead of the
// framework's bare "404".
import type { Metadata } from 'next';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { PageTrail } from '@/components/common/page-trail';

export const metadata: Metadata = { title: 'Page not found · OLM Console' };

export default function NotFound() {
  return (
    <>
      <PageTrail last="Page not found" />
      <section aria-labelledby="not-found-title" className="max-w-3xl space-y-3">
        <h1 id="not-found-title" className="text-2xl font-bold">
          Page not found
        </h1>
        <p className="text-slate-800">
          There is no page at this address in the console. It may be mistyped, or the link that led here may be out of
          date.
        </p>
        <p className="flex flex-wrap gap-x-4 gap-y-2">
          <Link className="text-sky-800 underline" href="/operatorhub">
            Browse OperatorHub
          </Link>
          <Link className="text-sky-800 underline" href="/operators">
            See the installed operators
          </Link>
          <Link className="text-sky-800 underline" href="/">
            Go to the start page
          </Link>
        </p>
      </section>
    </>
  );
}
