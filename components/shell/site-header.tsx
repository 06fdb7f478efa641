'use client';
// The console's header: the product name, the main navigation (a row on wide screens, behind a
// Menu button on narrow ones), the cluster the page is on with a switcher when the console serves
// several, and who the console acts as. Logged out with per-user tokens it offers only Log in:
// every other page would send the person there anyway.
import { ClusterLink as Link } from '@/lib/client/cluster';
import { usePathname } from 'next/navigation';
import { useRef, useState } from 'react';
import { usePageCluster } from '@/lib/client/cluster';
import { usePageAccess } from '@/lib/client/page-access';
import { useSession } from '@/lib/client/session';
import { useFleetIndex } from '../fleet/fleet-index';
import { Account } from './account';
import { ClusterSwitcher } from './cluster-switcher';
import { MainNav } from './main-nav';
import { hubPageState } from './nav-items';

const MENU_ID = 'site-menu';
const BARS = 'M3 5h14v2H3V5Zm0 4h14v2H3V9Zm0 4h14v2H3v-2Z';
const CROSS = 'M5 4l11 11-1 1L4 5l1-1Zm10 0 1 1L5 16l-1-1L15 4Z';

export function SiteHeader() {
  // The whole address (a login comes back to it); the page on its cluster for the navigation.
  const pathname = usePathname();
  const page = usePageCluster();
  const { session } = useSession();
  const loggedOut = session?.mode === 'token' && !session.loggedIn;
  const access = usePageAccess(session?.loggedIn === true);
  const fleet = useFleetIndex(session?.loggedIn === true);
  // Open for the page it was opened on: following one of its links closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const button = useRef<HTMLButtonElement>(null);

  return (
    <header className="bg-slate-900 text-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-1 px-4 py-3 md:flex-nowrap md:px-6">
        <Link href="/" className="text-lg font-semibold tracking-tight">
          OLM Console
        </Link>
        {loggedOut ? (
          <div className="ml-auto">
            <Account session={session} pathname={pathname} />
          </div>
        ) : (
          <>
            <button
              ref={button}
              type="button"
              aria-expanded={open}
              aria-controls={MENU_ID}
              onClick={() => setOpenOn(open ? null : pathname)}
              className="ml-auto inline-flex items-center gap-2 rounded border border-slate-500 px-3 py-1 text-sm
                font-medium md:hidden"
            >
              <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current">
                <path d={open ? CROSS : BARS} />
              </svg>
              Menu
            </button>
            <div
              id={MENU_ID}
              onKeyDown={(e) => {
                if (e.key !== 'Escape' || !open) return;
                setOpenOn(null);
                button.current?.focus();
              }}
              className={`${open ? 'flex' : 'hidden'} w-full flex-col gap-2 border-t border-slate-700 pt-2
                md:flex md:w-auto md:flex-1 md:flex-row md:items-center md:border-0 md:pt-0`}
            >
              <MainNav
                pathname={page.path}
                access={access}
                clusters={fleet.data?.clusters.length ?? 1}
                hub={hubPageState(fleet.data, fleet.isError)}
              />
              <div className="flex flex-col gap-2 md:ml-auto md:flex-row md:items-center md:gap-4">
                <ClusterSwitcher />
                <Account session={session} pathname={pathname} />
              </div>
            </div>
          </>
        )}
      </div>
    </header>
  );
}
