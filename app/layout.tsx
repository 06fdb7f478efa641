// The frame of every page: a skip link, the header (navigation, who is logged in) and the main
// region the link skips to, inside one query client so the header and the page share answers.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { PageAccessNote } from '@/components/shell/page-access-note';
import { SiteHeader } from '@/components/shell/site-header';
import { ClusterNotAsked } from '@/components/fleet/cluster-not-asked';
import { CLUSTERS_ATTRIBUTE } from '@/lib/api/cluster-route';
import { ClusterProvider } from '@/lib/client/cluster';
import { QueryProvider } from '@/lib/client/query-provider';
import { pageClusters } from '@/lib/server/context-page';
import './globals.css';

export const metadata: Metadata = {
  title: 'OLM Console',
  description: 'Operator Lifecycle Manager console: catalogs, installs, upgrades.',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request: its inline scripts carry that request's CSP nonce
  // (lib/server/security/page-headers.ts), which a page prerendered at build time could not.
  await connection();
  // The clusters this person may switch to, and the page's own (lib/server/context-page.ts).
  const { names, rendered, blocked } = await pageClusters(new Headers(await headers()));
  return (
    <html lang="en">
      <body className="min-h-screen" {...{ [CLUSTERS_ATTRIBUTE]: JSON.stringify(names) }}>
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded
            focus:bg-white focus:px-3 focus:py-2 focus:font-semibold focus:text-slate-900"
        >
          Skip to content
        </a>
        <ClusterProvider names={names} {...(rendered ? { rendered } : {})}>
          <QueryProvider>
            <SiteHeader />
            <main id="main" tabIndex={-1} className="mx-auto max-w-7xl px-4 py-6 md:px-6 md:py-8">
              {blocked ? (
                <ClusterNotAsked cluster={blocked.cluster} reason={blocked.reason} />
              ) : (
                <>
                  <PageAccessNote />
                  {children}
                </>
              )}
            </main>
          </QueryProvider>
        </ClusterProvider>
      </body>
    </html>
  );
}
