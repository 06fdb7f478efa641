'use client';
// The cluster the page is on, for the browser: a page of a cluster other than home is at
// `/clusters/<name>/…` (lib/api/cluster-route.ts), and everything it asks for and links to stays on
// that cluster. The server render learns the cluster from the header the HTTP server set (the
// router there sees the path without the prefix); the browser from the address bar, which keeps
// it. The names come with the page, since a name may hold a slash: the configured clusters and
// those the person's OCM hub lists to them (lib/server/context-page.ts), home first.
import NextLink from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { createContext, useContext, useMemo, type ComponentProps, type ReactNode } from 'react';
import { CLUSTERS_ATTRIBUTE, clusterPath, routeCluster } from '../api/cluster-route';

export interface ClusterNames {
  /** Every cluster the console serves this person, home first; one name when it serves one. */
  names: string[];
  /** The cluster the server rendered this page for (undefined: home). */
  rendered?: string;
}

const Context = createContext<ClusterNames>({ names: [] });

function knownNames(): string[] {
  try {
    const names: unknown = JSON.parse(document.body.getAttribute(CLUSTERS_ATTRIBUTE) ?? '[]');
    return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
  } catch {
    return [];
  }
}

export function ClusterProvider({ names, rendered, children }: ClusterNames & { children: ReactNode }) {
  const value = useMemo(() => ({ names, ...(rendered ? { rendered } : {}) }), [names, rendered]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

/** Paths that are the console's, not a cluster's: they keep their address on every cluster. */
const CONSOLE_WIDE = [
  /^\/fleet(\/|$|\?)/,
  /^\/login(\/|$|\?)/,
  /^\/clusters\//,
  /^\/api\/(session|auth|fleet)(\/|$|\?)/,
];

function decoded(pathname: string): string {
  try {
    return pathname.split('/').map(decodeURIComponent).join('/');
  } catch {
    return pathname;
  }
}

/** The cluster an address-bar path names among `names` (undefined: home), and the rest of it. */
export function splitPagePath(pathname: string, names: readonly string[]): { cluster?: string; path: string } {
  const route = routeCluster(decoded(pathname), names);
  return route.kind === 'cluster' ? { cluster: route.cluster, path: route.path } : { path: pathname };
}

/** `path` (a home path) as it is reached from a page of `cluster`. */
export function onCluster(cluster: string | undefined, path: string): string {
  if (!cluster || !path.startsWith('/') || CONSOLE_WIDE.some((re) => re.test(path))) return path;
  return clusterPath(cluster, path);
}

/** The path of an API call from the page in the address bar: on the page's cluster. */
export function apiPath(path: string): string {
  if (typeof window === 'undefined') return path;
  return onCluster(splitPagePath(window.location.pathname, knownNames()).cluster, path);
}

/** The page's cluster (undefined: home) and its path without the prefix, the same in both renders. */
export function usePageCluster(): { cluster?: string; path: string; names: string[] } {
  const { names, rendered } = useContext(Context);
  const pathname = usePathname() ?? '/';
  // The server renders the routed path (no prefix) for the cluster in its header.
  if (typeof window === 'undefined') return { ...(rendered ? { cluster: rendered } : {}), path: pathname, names };
  return { ...splitPagePath(pathname, names), names };
}

/**
 * next/link on the page's cluster: an absolute href of a cluster's page gets the prefix. A link to
 * another cluster (a console-wide page, from a non-home one) loads the page afresh instead: the
 * API helper reads the cluster from the address bar, which the router changes only after the new
 * page's queries may have started, so a client-side move between clusters could ask the old one.
 */
export function ClusterLink({ href, ...rest }: ComponentProps<typeof NextLink>) {
  const { cluster, names } = usePageCluster();
  if (typeof href !== 'string') return <NextLink href={href} {...rest} />;
  const target = onCluster(cluster, href);
  if (!target.startsWith('/') || splitPagePath(target.split(/[?#]/)[0]!, names).cluster === cluster)
    return <NextLink href={target} {...rest} />;
  // next/link's own props are not an anchor's: they are taken off, and go unused.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { prefetch: _p, replace: _r, scroll: _s, shallow: _h, passHref: _a, legacyBehavior: _l, ...anchor } = rest;
  return <a href={target} {...anchor} />;
}

/** The router, with absolute paths taken to the page's cluster (relative ones, `?tab=x`, stay). */
export function useClusterRouter(): ReturnType<typeof useRouter> {
  const router = useRouter();
  const { cluster } = usePageCluster();
  return useMemo(
    () => ({
      ...router,
      push: (href, options) => router.push(onCluster(cluster, href), options),
      replace: (href, options) => router.replace(onCluster(cluster, href), options),
      prefetch: (href, options) => router.prefetch(onCluster(cluster, href), options),
    }),
    [router, cluster],
  );
}
