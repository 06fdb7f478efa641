import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { QueryProvider } from '@/lib/client/query-provider';
import './globals.css';

export const metadata: Metadata = {
  title: 'OLM Console',
  description: 'Operator Lifecycle Manager console: catalogs, installs, upgrades.',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request: its inline scripts carry that request's CSP nonce
  // (lib/server/security/page-headers.ts), which a page prerendered at build time could not.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen">
        <header className="border-b border-slate-200 bg-slate-900 text-white">
          <nav aria-label="Main" className="mx-auto flex max-w-7xl items-center gap-6 px-6 py-3">
            <Link href="/" className="text-lg font-semibold tracking-tight">
              OLM Console
            </Link>
            <Link href="/operatorhub" className="text-sm text-slate-200 hover:text-white">
              OperatorHub
            </Link>
            <Link href="/operators" className="text-sm text-slate-200 hover:text-white">
              Installed Operators
            </Link>
            <Link href="/catalogsources" className="text-sm text-slate-200 hover:text-white">
              Catalog sources
            </Link>
            <Link href="/cluster-upgrade" className="text-sm text-slate-200 hover:text-white">
              Cluster upgrade
            </Link>
            <Link href="/settings" className="text-sm text-slate-200 hover:text-white">
              Cluster settings
            </Link>
          </nav>
        </header>
        <main className="mx-auto max-w-7xl px-6 py-8">
          <QueryProvider>{children}</QueryProvider>
        </main>
      </body>
    </html>
  );
}
