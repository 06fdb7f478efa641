'use client';
// A catalog package: channel and version selectors, the chosen version described (sanitised
// markdown, facts, APIs), the channel's graph, deprecations, and Install — disabled with the
// cluster's reason when the person may not install, and behind an acknowledgement for a
// community catalog.
import { useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useSearchParams } from 'next/navigation';
import { useClusterRouter } from '@/lib/client/cluster';
import { useState } from 'react';
import { apiGet } from '@/lib/client/api';
import { usePermission } from '@/lib/client/permissions';
import type { PackageDetails } from '@/lib/hub/catalog-types';
import { notRunnableReason } from '@/lib/hub/platforms';
import { v1PackageHref } from '@/lib/hub/olm-offer';
import { isCommunityCatalog } from '@/lib/olm/resources/catalog-source';
import { ErrorPanel } from '../common/error-panel';
import { Warning } from '../common/notice';
import { Markdown } from '../common/markdown';
import { PackageIcon } from '../hub/package-icon';
import { ApiList } from './api-list';
import { CompactGraph } from './compact-graph';
import { bringsUrl, OperatorBrings } from './operator-brings';
import { VersionFacts } from './version-facts';
import { ChannelVersionPickers } from './version-options';

export interface PackageRefProps {
  catalogNamespace: string;
  catalog: string;
  pkg: string;
}

export function packageApiBase(p: PackageRefProps): string {
  return `/api/catalog/packages/${encodeURIComponent(p.catalogNamespace)}/${encodeURIComponent(p.catalog)}/${encodeURIComponent(p.pkg)}`;
}

export function usePackageDetails(p: PackageRefProps, channel?: string, version?: string, namespace?: string) {
  const q = new URLSearchParams();
  if (channel) q.set('channel', channel);
  if (version) q.set('version', version);
  if (namespace) q.set('namespace', namespace);
  return useQuery({
    queryKey: ['package', p.catalogNamespace, p.catalog, p.pkg, channel ?? '', version ?? '', namespace ?? ''],
    queryFn: ({ signal }) => apiGet<PackageDetails>(`${packageApiBase(p)}${q.size ? `?${q}` : ''}`, signal),
    placeholderData: (prev) => prev,
  });
}

export function PackageDetailsView(props: PackageRefProps) {
  const params = useSearchParams();
  const router = useClusterRouter();
  const namespace = params.get('namespace') ?? undefined;
  const channel = params.get('channel') ?? undefined;
  const version = params.get('version') ?? undefined;
  const details = usePackageDetails(props, channel, version, namespace);
  const [acknowledged, setAcknowledged] = useState(false);
  const d = details.data;
  const csv = d?.selected.csv;
  const installNs = namespace ?? csv?.suggestedNamespace ?? csv?.suggestedNamespaceTemplate?.name ?? 'default';
  const install = usePermission(d ? installNs : undefined, 'install');

  const choose = (next: { channel?: string; version?: string }) => {
    const q = new URLSearchParams(params.toString());
    for (const [k, v] of Object.entries(next)) {
      if (v) q.set(k, v);
      else q.delete(k);
    }
    router.replace(`?${q}`, { scroll: false });
  };

  if (details.error) return <PackageError error={details.error} {...props} onRetry={() => void details.refetch()} />;
  if (!d) return <p role="status">Loading {props.pkg}…</p>;

  const sel = d.selected;
  const ch = d.channels.find((c) => c.name === sel.channel)!;
  const community = isCommunityCatalog({ name: d.catalog.name, displayName: d.catalog.displayName });
  const notRunnable = csv ? notRunnableReason(csv, d.platforms) : undefined;
  const installQuery = new URLSearchParams({ channel: sel.channel, version: sel.csvName });
  if (namespace) installQuery.set('namespace', namespace);
  const blockedReason =
    install.allowed === false
      ? `You may not install operators in ${installNs}: ${install.reason ?? 'the cluster refused'}`
      : community && !acknowledged
        ? 'Acknowledge the community catalog notice first'
        : undefined;

  return (
    <article className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <Link
          className="text-sky-700 underline"
          href={`/operatorhub${namespace ? `?namespace=${encodeURIComponent(namespace)}` : ''}`}
        >
          OperatorHub
        </Link>{' '}
        / {csv?.displayName ?? d.name}
      </nav>
      <header className="flex flex-wrap items-start gap-4">
        <PackageIcon
          pkg={{
            name: d.name,
            displayName: csv?.displayName ?? d.name,
            catalog: d.catalog,
            headVersion: d.channels.find((c) => c.isDefault)?.headVersion,
          }}
          namespace={namespace}
          size={72}
        />
        <div className="mr-auto min-w-0">
          <h1 className="text-2xl font-bold">{csv?.displayName ?? d.name}</h1>
          <p className="text-slate-600">
            {sel.version ?? sel.csvName} provided by {csv?.provider.name || 'an unnamed provider'} · from{' '}
            {d.catalog.displayName || d.catalog.name} ({d.catalog.namespace}/{d.catalog.name})
          </p>
        </div>
        <div className="flex flex-col items-end gap-1">
          {blockedReason ? (
            <button
              type="button"
              disabled
              aria-describedby="install-blocked"
              className="cursor-not-allowed rounded bg-slate-300 px-5 py-2 font-semibold text-slate-600"
            >
              Install
            </button>
          ) : (
            <Link
              href={`/operatorhub/${encodeURIComponent(props.catalogNamespace)}/${encodeURIComponent(props.catalog)}/${encodeURIComponent(props.pkg)}/install?${installQuery}`}
              className="rounded bg-sky-700 px-5 py-2 font-semibold text-white hover:bg-sky-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-600 focus-visible:ring-offset-2"
            >
              Install
            </Link>
          )}
          {blockedReason && (
            <p id="install-blocked" className="max-w-xs text-right text-xs text-slate-600">
              {blockedReason}
            </p>
          )}
          {install.allowed === false && (
            // Someone who may not install can still make every choice and send the link to an administrator.
            <Link
              href={`/operatorhub/${encodeURIComponent(props.catalogNamespace)}/${encodeURIComponent(props.catalog)}/${encodeURIComponent(props.pkg)}/install?${installQuery}`}
              className="text-sm text-sky-700 underline"
            >
              Prepare the install for an administrator
            </Link>
          )}
        </div>
      </header>

      {!!d.clusterCatalogs?.length && (
        <p role="note" className="rounded border border-slate-200 bg-white px-3 py-2 text-sm text-slate-700">
          Also offered to OLM v1 by{' '}
          {d.clusterCatalogs.map((c, i) => (
            <span key={c}>
              {i > 0 && ', '}
              <Link className="text-sky-700 underline" href={v1PackageHref(c, d.name)}>
                ClusterCatalog {c}
              </Link>
            </span>
          ))}
          : the same package, installed as a ClusterExtension instead.
        </p>
      )}
      {d.deprecation && <Warning title="This package is deprecated">{d.deprecation}</Warning>}
      {ch.deprecation && <Warning title={`Channel ${ch.name} is deprecated`}>{ch.deprecation}</Warning>}
      {sel.deprecation && (
        <Warning title={`Version ${sel.version ?? sel.csvName} is deprecated`}>{sel.deprecation}</Warning>
      )}
      {notRunnable && (
        <Warning title="Not runnable on this cluster">
          This version is {notRunnable}: its pods would never be scheduled.
        </Warning>
      )}
      {csv?.nonStandalone && (
        <Warning title="Installed as a dependency">
          This operator is meant to be installed by another operator that depends on it.
        </Warning>
      )}
      {community && (
        <Warning title="Community operator">
          <p>
            {d.catalog.displayName || d.catalog.name} is a community catalog: its operators are not supported by the
            cluster&apos;s vendor.
          </p>
          <label className="mt-1 flex items-center gap-2">
            <input type="checkbox" checked={acknowledged} onChange={(e) => setAcknowledged(e.target.checked)} /> I
            understand, and want to install it
          </label>
        </Warning>
      )}

      <ChannelVersionPickers
        idPrefix="details"
        channels={d.channels}
        channel={sel.channel}
        csvName={sel.csvName}
        versions={ch.versions}
        loading={details.isFetching}
        choose={choose}
      />

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
          <CompactGraph
            base={packageApiBase(props)}
            channel={sel.channel}
            namespace={namespace}
            viewerHref={`/operatorhub/${encodeURIComponent(props.catalogNamespace)}/${encodeURIComponent(props.catalog)}/${encodeURIComponent(props.pkg)}/graph?${new URLSearchParams({ channel: sel.channel, ...(namespace ? { namespace } : {}) })}`}
          />
          <ApiList selected={sel} />
          <OperatorBrings
            olm="v0"
            url={bringsUrl(packageApiBase(props), { channel: sel.channel, version: sel.csvName, namespace })}
          />
        </div>
        <aside aria-label="Version facts">
          <VersionFacts selected={sel} />
        </aside>
      </div>
    </article>
  );
}

/** The package could not be read: said in words, with the way back to the hub and the catalogs. */
export function PackageError(props: PackageRefProps & { error: unknown; onRetry: () => void }) {
  const { error, catalogNamespace, catalog, pkg, onRetry } = props;
  const notFound =
    `Catalog ${catalogNamespace}/${catalog} has no package ${pkg}, or there is no such catalog: ` +
    'the package may have been removed from the catalog, or the address is mistyped.';
  return (
    <ErrorPanel
      error={error}
      title={`Package ${pkg} could not be loaded`}
      notFound={notFound}
      onRetry={onRetry}
      back={[
        { href: '/operatorhub', label: 'Browse OperatorHub' },
        { href: '/catalogsources', label: 'See the catalog sources' },
      ]}
    />
  );
}
