'use client';
// What the rollout form offers from the hub's own catalogs, read as the person: the packages whose
// names match what was typed (OperatorHub's list), the catalogs that offer the chosen one (OLM v0:
// its CatalogSources; OLM v1: its ClusterCatalogs), and that catalog's channels and versions. The
// hub's catalog stands for every cluster's: the rollout names the catalog, and each cluster's OLM
// resolves the package from its own catalog of that name.
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue } from 'react';
import type { ChannelSummary, PackageDetails } from '@/lib/hub/catalog-types';
import type { HubList } from '@/lib/hub/package-summary';
import { apiGet } from '@/lib/client/api';

export interface RolloutCatalog {
  /** Package names matching what was typed, for the suggestions. */
  names: string[];
  /** The catalogs offering exactly the typed package, for the chosen OLM. */
  catalogs: { value: string; label: string }[];
  /** Whether the typed package was looked up and no catalog of this OLM offers it. */
  notOffered: boolean;
  channels: ChannelSummary[];
  defaultChannel?: string;
  /** The install modes of the chosen version (OLM v0), where the catalog says. */
  installModes?: string[];
  error?: unknown;
}

function detailsPath(olm: 'v0' | 'v1', catalog: string, pkg: string, channel: string): string | undefined {
  const q = channel ? `?channel=${encodeURIComponent(channel)}` : '';
  if (olm === 'v1')
    return `/api/olm-v1/clustercatalogs/${encodeURIComponent(catalog)}/packages/${encodeURIComponent(pkg)}${q}`;
  const [ns, name] = catalog.split('/');
  if (!ns || !name) return undefined;
  const base = `/api/catalog/packages/${encodeURIComponent(ns)}/${encodeURIComponent(name)}/${encodeURIComponent(pkg)}`;
  return `${base}${q}`;
}

export function useRolloutCatalog(
  olm: 'v0' | 'v1',
  pkg: string,
  chosenCatalog: string,
  channel: string,
): RolloutCatalog & { catalog: string } {
  const typed = useDeferredValue(pkg.trim());
  const list = useQuery({
    queryKey: ['rollout-form', 'packages', typed],
    queryFn: ({ signal }) => apiGet<HubList>(`/api/catalog/packages?sort=name&q=${encodeURIComponent(typed)}`, signal),
    enabled: typed.length > 0,
    placeholderData: (prev) => prev,
    staleTime: 60_000,
  });
  const offers = (list.data?.packages ?? []).filter((p) => p.name === typed);
  const catalogs =
    olm === 'v0'
      ? offers
          .filter((p) => p.catalog.kind !== 'ClusterCatalog')
          .map((p) => ({
            value: `${p.catalog.namespace}/${p.catalog.name}`,
            label: `CatalogSource ${p.catalog.namespace}/${p.catalog.name}`,
          }))
      : [
          ...new Set(
            offers.flatMap((p) => [
              ...(p.clusterCatalogs ?? []),
              ...(p.catalog.kind === 'ClusterCatalog' ? [p.catalog.name] : []),
            ]),
          ),
        ].map((name) => ({ value: name, label: `ClusterCatalog ${name}` }));
  const catalog = catalogs.some((c) => c.value === chosenCatalog) ? chosenCatalog : (catalogs[0]?.value ?? '');
  const path = catalog && typed ? detailsPath(olm, catalog, typed, channel) : undefined;
  const details = useQuery({
    queryKey: ['rollout-form', 'details', path],
    queryFn: ({ signal }) => apiGet<PackageDetails>(path!, signal),
    enabled: !!path,
    placeholderData: (prev) => prev,
    staleTime: 60_000,
  });
  // A kept answer of another package or catalog is not this one's.
  const d = details.data && details.data.name === typed ? details.data : undefined;
  const modes = d?.selected.csv?.installModes?.filter((m) => m.supported).map((m) => m.type);
  return {
    names: [...new Set((list.data?.packages ?? []).map((p) => p.name))].slice(0, 50),
    catalogs,
    catalog,
    notOffered: !!list.data && !list.isPlaceholderData && typed.length > 0 && catalogs.length === 0,
    channels: d?.channels ?? [],
    ...(d?.defaultChannel ? { defaultChannel: d.defaultChannel } : {}),
    ...(modes ? { installModes: modes } : {}),
    ...(list.error || details.error ? { error: list.error ?? details.error } : {}),
  };
}
