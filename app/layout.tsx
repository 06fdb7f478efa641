// The frame of every page: a skip link, the header (navigation, who is logged in) and the main
// region the link skips to, inside one query client so the header and the page share answers.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { PageAccessNote } from '@/components/shell/page-access-note';
import { SiteHeader } from '@/components/shell/site-header';
import { CLUSTER_HEADER, CLUSTERS_ATTRIBUTE } from '@/lib/api/cluster-route';
import { ClusterProvider } from '@/lib/client/cluster';
import { QueryProvider } from '@/lib/client/query-provider';
import { fleetMembers } from '@/lib/server/fleet/members';
import './globals.css';

export const metadata: Metadata = {
  title: 'OLM Console',
  description: 'Operator Lifecycle Manager console: catalogs, installs, upgrades.',
};

/**
 * The clusters the console serves (home first) and the one this page is for, as the HTTP server
 * named it (lib/api/cluster-route.ts). Settings the fleet cannot read leave the home cluster alone,
 * as the pages were before there was a fleet; the fleet pages say what is wrong with them.
 */
async function clusters(): Promise<{ names: string[]; rendered?: string }> {
  let members;
  try {
    members = fleetMembers();
  } catch {
    return { names: [] };
  }
  const asked = (await headers()).get(CLUSTER_HEADER);
  const member = members.find((m) => m.name === asked && !m.home);
  return { names: members.map((m) => m.name), ...(member ? { rendered: member.name } : {}) };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request: its inline scripts carry that request's CSP nonce
  // (lib/server/security/page-headers.ts), which a page prerendered at build time could not.
  await connection();
  const { names, rendered } = await clusters();
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
              <PageAccessNote />
              {children}
            </main>
          </QueryProvider>
        </ClusterProvider>
      </body>
    </html>
  );
}
