'use client';
// A ClusterCatalog's package, as OLM v1 offers it: the same channel and version choice, facts,
// description, APIs and graph as a CatalogSource's package (the v0 page's parts), and what is v1's
// own — which catalog it installs from, the deprecation conditions an extension would carry, what
// the channel resolves to, the CatalogSources offering it too (linked), and Install, disabled with
// the cluster's reason when the person may not create ClusterExtensions.
import { useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useSearchParams } from 'next/navigation';
import { useClusterRouter } from '@/lib/client/cluster';
import { ApiClientError, apiGet } from '@/lib/client/api';
import type { V1PackageDetails } from '@/lib/api/olm-v1-packages';
import { detailsHref, v1PackageHref } from '@/lib/hub/olm-offer';
import { notRunnableReason } from '@/lib/hub/platforms';
import { ErrorPanel } from '../common/error-panel';
import { Markdown } from '../common/markdown';
import { Warning } from '../common/notice';
import { PackageIcon } from '../hub/package-icon';
import { ApiList } from './api-list';
import { CompactGraph } from './compact-graph';
import { bringsUrl, OperatorBrings } from './operator-brings';
import { VersionFacts } from './version-facts';
import { ChannelVersionPickers } from './version-options';

const DEPRECATION_TITLES: Record<string, string> = {
  PackageDeprecated: 'This package is deprecated',
  ChannelDeprecated: 'This channel is deprecated',
  BundleDeprecated: 'This version is deprecated',
};

export function v1PackageApiBase(catalog: string, pkg: string): string {
  return `/api/olm-v1${v1PackageHref(catalog, pkg)}`;
}

export function V1PackageView({ catalog, pkg }: { catalog: string; pkg: string }) {
  const params = useSearchParams();
  const router = useClusterRouter();
  const channel = params.get('channel') ?? undefined;
  const version = params.get('version') ?? undefined;
  const q = new URLSearchParams();
  if (channel) q.set('channel', channel);
  if (version) q.set('version', version);
  const base = v1PackageApiBase(catalog, pkg);
  const details = useQuery({
    queryKey: ['v1-package', catalog, pkg, channel ?? '', version ?? ''],
    queryFn: ({ signal }) => apiGet<V1PackageDetails>(`${base}${q.size ? `?${q}` : ''}`, signal),
    placeholderData: (prev) => prev,
  });
  const choose = (next: { channel?: string; version?: string }) => {
    const nq = new URLSearchParams(params.toString());
    for (const [k, v] of Object.entries(next)) {
      if (v) nq.set(k, v);
      else nq.delete(k);
    }
    router.replace(`?${nq}`, { scroll: false });
  };

  if (details.error) {
    const broken = details.error instanceof ApiClientError && details.error.code === 422;
    return (
      <ErrorPanel
        error={details.error}
        title={broken ? `Package ${pkg} in ClusterCatalog ${catalog} is broken` : `Package ${pkg} could not be loaded`}
        notFound={`ClusterCatalog ${catalog} has no package ${pkg}, or there is no such catalog.`}
        onRetry={() => void details.refetch()}
        back={[
          { href: '/operatorhub', label: 'Browse OperatorHub' },
          { href: '/clustercatalogs', label: 'See the ClusterCatalogs' },
        ]}
      />
    );
  }
  const d = details.data;
  if (!d) return <p role="status">Loading {pkg}…</p>;

  const sel = d.selected;
  const csv = sel.csv;
  const ch = d.channels.find((c) => c.name === sel.channel)!;
  const notRunnable = csv ? notRunnableReason(csv, d.platforms) : undefined;
  const installQuery = new URLSearchParams({ channel: sel.channel, version: sel.version ?? sel.csvName });
  const name = csv?.displayName ?? d.name;

  return (
    <article className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <Link className="text-sky-700 underline" href="/operatorhub">
          OperatorHub
        </Link>{' '}
        / {name}
      </nav>
      <header className="flex flex-wrap items-start gap-4">
        <PackageIcon pkg={{ name: d.name, displayName: name, catalog: d.catalog }} size={72} />
        <div className="mr-auto min-w-0">
          <h1 className="text-2xl font-bold">{name}</h1>
          <p className="text-slate-600">
            {sel.version ?? sel.csvName} provided by {csv?.provider.name || 'an unnamed provider'}
          </p>
          <p className="font-medium text-sky-900">
            Installs with OLM v1 from ClusterCatalog{' '}
            <Link className="underline" href="/clustercatalogs">
              {catalog}
            </Link>
          </p>
        </div>
        <div className="flex flex-col items-end gap-1">
          {d.canInstall.allowed ? (
            <Link
              href={`${v1PackageHref(catalog, pkg)}/install?${installQuery}`}
              className="rounded bg-sky-700 px-5 py-2 font-semibold text-white hover:bg-sky-800 focus:outline-none
                focus-visible:ring-2 focus-visible:ring-sky-600 focus-visible:ring-offset-2"
            >
              Install
            </Link>
          ) : (
            <>
              <button
                type="button"
                disabled
                aria-describedby="v1-install-blocked"
                className="cursor-not-allowed rounded bg-slate-300 px-5 py-2 font-semibold text-slate-600"
              >
                Install
              </button>
              <p id="v1-install-blocked" className="max-w-xs text-right text-xs text-slate-600">
                You may not create ClusterExtensions: {d.canInstall.reason ?? 'the cluster refused'}
              </p>
            </>
          )}
        </div>
      </header>

      {d.alsoFromCatalogSources.length > 0 && (
        <p role="note" className="rounded border border-slate-200 bg-white px-3 py-2 text-sm text-slate-700">
          Also offered to OLM v0 by{' '}
          {d.alsoFromCatalogSources.map((s, i) => (
            <span key={`${s.namespace}/${s.name}`}>
              {i > 0 && ', '}
              <Link className="text-sky-700 underline" href={detailsHref({ name: d.name, catalog: s })}>
                CatalogSource {s.displayName || s.name} ({s.namespace}/{s.name})
              </Link>
            </span>
          ))}
          : the same package, installed with a Subscription instead.
        </p>
      )}
      {d.v1Deprecations.map((c) => (
        <Warning key={c.type} title={DEPRECATION_TITLES[c.type] ?? c.type}>
          {c.message.trim()}
          <span className="block text-xs text-amber-900">
            An extension installing {sel.version ?? sel.csvName} from channel {sel.channel} reports {c.type}.
          </span>
        </Warning>
      ))}
      {notRunnable && (
        <Warning title="Not runnable on this cluster">
          This version is {notRunnable}: its pods would never be scheduled.
        </Warning>
      )}

      <ChannelVersionPickers
        idPrefix="v1-details"
        channels={d.channels}
        channel={sel.channel}
        csvName={sel.csvName}
        versions={ch.versions}
        loading={details.isFetching}
        choose={choose}
      />
      <p className="text-sm text-slate-700">
        {'error' in d.channelResolvesTo
          ? `A ClusterExtension asking for channel ${sel.channel} of this catalog would not resolve: ${d.channelResolvesTo.error}`
          : `A ClusterExtension asking for channel ${sel.channel} with no version installs ${d.channelResolvesTo.version} ` +
            '(OLM v1 takes a bundle that is not deprecated first, then the highest version).'}
      </p>

      <div className="grid grid-cols-[minmax(0,1fr)] gap-8 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="min-w-0 space-y-6">
          {csv ? (
            <Markdown
              source={csv.description || csv.shortDescription || 'No description.'}
              className="rounded border border-slate-200 bg-white p-4 text-slate-800"
            />
          ) : (
            <p className="text-slate-600">{sel.note}</p>
          )}
          <CompactGraph base={base} channel={sel.channel} />
          <ApiList selected={sel} />
          <OperatorBrings olm="v1" url={bringsUrl(base, { channel: sel.channel, version: sel.csvName })} />
        </div>
        <aside aria-label="Version facts">
          <VersionFacts selected={sel} olmV1 />
        </aside>
      </div>
    </article>
  );
}
