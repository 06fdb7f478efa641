'use client';
// The main navigation's links: the current one marked (aria-current and a bar, not colour
// alone), the cluster-wide pages shown once the cluster says the person may use them, the hub's
// pages once the home cluster shows itself a hub they may read, and the ones refused listed with
// the reason instead of silently missing.
import { ClusterLink as Link } from '@/lib/client/cluster';
import type { PageAccessState } from '@/lib/client/page-access';
import { HiddenPages, type HiddenPage } from './hidden-pages';
import { currentState, HUB_NEEDS, hubPageState, navItemsFor } from './nav-items';

type Shown = 'yes' | 'pending' | 'no';

export function MainNav({
  pathname,
  access,
  clusters,
  hub,
}: {
  pathname: string;
  access: PageAccessState;
  /** How many clusters the console serves: the fleet pages are listed only for more than one. */
  clusters: number;
  /** Whether the home cluster is a hub the person may read (nav-items.ts hubPageState). */
  hub: ReturnType<typeof hubPageState>;
}) {
  const hidden: HiddenPage[] = [];
  const items = navItemsFor(clusters).map((item) => {
    const answer = item.clusterPage ? access.pages?.get(item.clusterPage) : undefined;
    // Unanswered (or unanswerable): nothing is hidden on a guess.
    let shown: Shown = 'yes';
    if (item.clusterPage && !access.failed) shown = !answer ? 'pending' : answer.allowed ? 'yes' : 'no';
    if (shown === 'no' && answer) hidden.push({ label: item.label, needs: answer.needs, reason: answer.reason });
    if (item.hub) {
      shown = hub.shown;
      if (hub.shown === 'no') hidden.push({ label: item.label, needs: HUB_NEEDS, reason: hub.reason });
    }
    return { item, shown };
  });
  return (
    <nav aria-label="Main" className="flex flex-col gap-2 md:flex-row md:flex-wrap md:items-center md:gap-x-5">
      <ul className="flex flex-col md:flex-row md:flex-wrap md:items-center md:gap-x-5">
        {items
          .filter(({ shown }) => shown !== 'no')
          .map(({ item, shown }) => {
            const current = currentState(item, pathname);
            return (
              // While the cluster is asked, the link keeps its place unseen, so the row does not
              // shift for the many who may use it.
              <li key={item.href} className={shown === 'pending' ? 'invisible' : undefined}>
                <Link
                  href={item.href}
                  aria-current={current}
                  className={`block border-l-4 py-2 pl-3 text-sm md:border-l-0 md:border-b-2 md:py-1 md:pl-0 ${
                    current
                      ? 'border-sky-400 font-semibold text-white'
                      : 'border-transparent text-slate-200 hover:text-white'
                  }`}
                >
                  {item.label}
                </Link>
              </li>
            );
          })}
      </ul>
      {hidden.length > 0 && <HiddenPages pages={hidden} />}
    </nav>
  );
}
