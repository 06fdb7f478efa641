// One OperatorHub tile: icon (loaded lazily), name, provider, catalog, which OLM installs it, the
// short description, capability level, and where it is installed or that it is deprecated. The whole tile is one
// link named by what it shows, so its name starts with the operator's name as a person reads it.
import { ClusterLink as Link } from '@/lib/client/cluster';
import { memo } from 'react';
import { detailsHref, installsWith, OLM_LABELS } from '@/lib/hub/olm-offer';
import type { PackageSummary } from '@/lib/hub/package-summary';
import { PackageIcon } from './package-icon';

/** Which OLMs install it, and from where, in words for the badge's title. */
function offerTitle(pkg: PackageSummary): string {
  const v0 = pkg.catalog.kind === 'ClusterCatalog' ? [] : [`OLM v0 from CatalogSource ${pkg.catalog.name}`];
  const v1 = (pkg.clusterCatalogs ?? []).map((c) => `OLM v1 from ClusterCatalog ${c}`);
  return `Installs with ${[...v0, ...v1].join('; ')}`;
}

// Memoised: a keystroke re-renders only the tiles that enter or leave the results.
export const PackageTile = memo(function PackageTile({
  pkg,
  namespace,
  notRunnable,
  showOlm,
}: {
  pkg: PackageSummary;
  namespace?: string;
  notRunnable?: string;
  /** Whether the hub lists any ClusterCatalog: without one, saying "OLM v0" on every tile tells nothing. */
  showOlm?: boolean;
}) {
  return (
    // Off-screen tiles skip layout and paint until scrolled near (content-visibility).
    <li className="flex [contain-intrinsic-size:auto_11rem] [content-visibility:auto]">
      <Link
        href={detailsHref(pkg, namespace)}
        // Prefetching every visible tile's page would send dozens of requests per screen.
        prefetch={false}
        className="flex w-full flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4 shadow-sm transition
          hover:border-sky-500 hover:shadow"
        // The list item contains its paint (content-visibility), which would clip an outline drawn
        // outside the tile: the focus outline goes inside its border instead.
        data-focus-inset=""
      >
        <div className="flex items-start gap-3">
          <PackageIcon pkg={pkg} namespace={namespace} size={48} />
          <div className="min-w-0 flex-1">
            {/* Long names and providers are cut to one line; the full text on hover. */}
            <h3 className="truncate font-semibold text-slate-900" title={pkg.displayName}>
              {pkg.displayName}
            </h3>
            <p className="truncate text-sm text-slate-600" title={pkg.provider || undefined}>
              {pkg.provider ? `by ${pkg.provider}` : 'provider not given'}
            </p>
          </div>
        </div>
        <div className="flex flex-wrap gap-1 text-xs">
          <span className="rounded bg-slate-100 px-1.5 py-0.5 text-slate-700">
            {pkg.catalog.displayName || pkg.catalog.name}
          </span>
          {showOlm && (
            <span className="rounded bg-sky-50 px-1.5 py-0.5 font-medium text-sky-900" title={offerTitle(pkg)}>
              {installsWith(pkg)
                .map((m) => OLM_LABELS[m])
                .join(' · ')}
            </span>
          )}
          {pkg.capability && (
            <span className="rounded bg-indigo-50 px-1.5 py-0.5 text-indigo-800">{pkg.capability}</span>
          )}
          {pkg.installedIn?.length ? (
            <span
              className="rounded bg-emerald-100 px-1.5 py-0.5 font-medium text-emerald-900"
              title={`Installed in ${pkg.installedIn.join(', ')}`}
            >
              Installed
              {pkg.installedIn.length === 1 ? ` in ${pkg.installedIn[0]}` : ` in ${pkg.installedIn.length} namespaces`}
            </span>
          ) : null}
          {pkg.installedAs?.length ? (
            <span
              className="rounded bg-emerald-100 px-1.5 py-0.5 font-medium text-emerald-900"
              title={`Installed as ClusterExtension ${pkg.installedAs.join(', ')}`}
            >
              Installed
              {pkg.installedAs.length === 1
                ? ` as ${pkg.installedAs[0]}`
                : ` as ${pkg.installedAs.length} ClusterExtensions`}
            </span>
          ) : null}
          {notRunnable && (
            <span className="rounded bg-red-100 px-1.5 py-0.5 font-medium text-red-900" title={notRunnable}>
              Not runnable here
            </span>
          )}
          {pkg.deprecation && (
            <span className="rounded bg-amber-100 px-1.5 py-0.5 font-medium text-amber-900" title={pkg.deprecation}>
              Deprecated
            </span>
          )}
        </div>
        <p className="line-clamp-3 text-sm text-slate-700">{pkg.shortDescription || 'No description.'}</p>
      </Link>
    </li>
  );
});
