'use client';
// On a cluster-wide page the navigation does not offer this person (reached by a link or typed),
// the reason it is not offered, above whatever the page itself manages to show.
import { usePageCluster } from '@/lib/client/cluster';
import { usePageAccess } from '@/lib/client/page-access';
import { useSession } from '@/lib/client/session';
import { NAV_ITEMS } from './nav-items';

export function PageAccessNote() {
  const pathname = usePageCluster().path;
  const { session } = useSession();
  const item = NAV_ITEMS.find((i) => i.clusterPage && (pathname === i.href || pathname.startsWith(`${i.href}/`)));
  const { pages } = usePageAccess(!!item && session?.loggedIn === true);
  const answer = item?.clusterPage ? pages?.get(item.clusterPage) : undefined;
  if (!item || !answer || answer.allowed) return null;
  return (
    <p role="note" className="mb-6 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      <span className="font-semibold">{item.label}</span> is not in your navigation: it needs you to {answer.needs}, and
      the cluster says no ({answer.reason}). What follows is what you may see of it.
    </p>
  );
}
