'use client';
// Which cluster the page shows, and the same page on each other cluster the console serves (only
// when it serves more than one). Links, not a select that navigates as it changes: the person
// chooses where to go, and each is a plain link to open in a tab, loading the page afresh (see
// ClusterLink). The fleet pages are every cluster's; from them a cluster's link leads to its front page.
import { useSearchParams } from 'next/navigation';
import { onCluster, usePageCluster } from '@/lib/client/cluster';

export function ClusterSwitcher() {
  const { cluster, path, names } = usePageCluster();
  const query = useSearchParams()?.toString();
  if (names.length < 2) return null;
  const current = cluster ?? names[0]!;
  const here = `${path}${query ? `?${query}` : ''}`;
  const target = (name: string) => {
    const onIt = name === names[0] ? undefined : name;
    const moved = onCluster(onIt, here);
    // A console-wide page (the fleet's) stays where it is on every cluster: go to the front page.
    return moved === here && onIt ? onCluster(onIt, '/') : moved;
  };
  return (
    // Closed again on every page: the key changes with the address.
    <details key={`${current}${here}`} className="relative text-sm">
      <summary className="cursor-pointer whitespace-nowrap rounded border border-slate-500 px-3 py-1 text-slate-100">
        Cluster: <span className="font-semibold text-white">{current}</span>
      </summary>
      <nav
        aria-label="Clusters"
        className="mt-1 rounded border border-slate-600 bg-slate-800 p-2 md:absolute md:right-0 md:z-20 md:w-64"
      >
        <p className="px-2 pb-1 text-xs text-slate-300">This page on:</p>
        <ul>
          {names.map((name, i) => (
            <li key={name}>
              <a
                href={target(name)}
                aria-current={name === current ? 'page' : undefined}
                className={`block rounded px-2 py-1 [overflow-wrap:anywhere] hover:bg-slate-700 ${
                  name === current ? 'font-semibold text-white' : 'text-slate-200'
                }`}
              >
                {name}
                {i === 0 && <span className="text-slate-300"> (home)</span>}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </details>
  );
}
