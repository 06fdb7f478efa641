'use client';
// A package's icon from the console's icon route, loaded lazily; a letter when there is none.
import { useEffect, useState } from 'react';
import type { PackageSummary } from '@/lib/hub/package-summary';

export function iconUrl(p: Pick<PackageSummary, 'name' | 'catalog' | 'headVersion'>, namespace?: string): string {
  const q = new URLSearchParams();
  if (namespace) q.set('namespace', namespace);
  // The head version makes a new URL when the catalog ships a new icon with a new version.
  if (p.headVersion) q.set('v', p.headVersion);
  const qs = q.toString();
  if (p.catalog.kind === 'ClusterCatalog') {
    // Read as the person from catalogd's content: no namespace to scope it.
    const v = p.headVersion ? `?v=${encodeURIComponent(p.headVersion)}` : '';
    return `/api/olm-v1/clustercatalogs/${encodeURIComponent(p.catalog.name)}/packages/${encodeURIComponent(p.name)}/icon${v}`;
  }
  return `/api/catalog/packages/${encodeURIComponent(p.catalog.namespace)}/${encodeURIComponent(p.catalog.name)}/${encodeURIComponent(p.name)}/icon${qs ? `?${qs}` : ''}`;
}

export function PackageIcon({
  pkg,
  namespace,
  size,
}: {
  pkg: Pick<PackageSummary, 'name' | 'displayName' | 'catalog' | 'headVersion' | 'hasIcon'>;
  namespace?: string;
  size: number;
}) {
  // Known to have no icon: the letter at once, and no request that could only answer 404.
  const [failed, setFailed] = useState(pkg.hasIcon === false);
  // The image is asked for once the browser is idle: results paint first, icons (fetched,
  // decoded, rastered) follow, so typing in the hub never waits on them.
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback !== 'function') {
      const t = window.setTimeout(() => setIdle(true), 0);
      return () => window.clearTimeout(t);
    }
    const id = window.requestIdleCallback(() => setIdle(true), { timeout: 300 });
    return () => window.cancelIdleCallback(id);
  }, []);
  const style = { width: size, height: size };
  if (!idle) return <span aria-hidden="true" style={style} className="shrink-0 rounded bg-slate-100" />;
  if (failed) {
    return (
      <span
        aria-hidden="true"
        style={style}
        className="flex shrink-0 items-center justify-center rounded bg-slate-200 text-lg font-semibold text-slate-600"
      >
        {(pkg.displayName || pkg.name).slice(0, 1).toUpperCase()}
      </span>
    );
  }
  return (
    // eslint-disable-next-line @next/next/no-img-element -- icons come from the console's own API with their own caching; next/image would re-encode them
    <img
      src={iconUrl(pkg, namespace)}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      fetchPriority="low"
      style={style}
      className="shrink-0 rounded object-contain"
      onError={() => setFailed(true)}
    />
  );
}
