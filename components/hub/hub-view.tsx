'use client';
// OperatorHub: the whole list is fetched once, then searched, filtered and counted here, per
// keystroke, off the input's critical path (useDeferredValue), and rendered a page of tiles at a
// time as the person scrolls. Until it arrives, the server's first screen of the view in the URL
// is shown (its tiles, counts and totals), so the first tiles still come with the HTML while the
// page no longer carries the whole list. The view state lives in the URL. The search box comes first, on
// every screen; the facets are a side panel on wide screens and a drawer on narrow ones.
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'next/navigation';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { apiGet, ApiClientError } from '@/lib/client/api';
import type { HubSort } from '@/lib/hub/filter';
import { catalogKey } from '@/lib/hub/olm-offer';
import type { HubList } from '@/lib/hub/package-summary';
import { notRunnableReason } from '@/lib/hub/platforms';
import { FacetPanel } from './facet-panel';
import { FiltersButton, FilterDrawer } from './filter-drawer';
import {
  countsOf,
  HUB_PAGE as PAGE,
  listsClusterCatalogs,
  searchedOf,
  shownOf,
  viewKeyOf,
  type HubFirstScreen,
} from './hub-results';
import { NoCatalogs } from './no-catalogs';
import { PackageTile } from './package-tile';
import { readViewState, toggle, writeViewState, type FacetKey, type HubViewState } from './url-state';

export function HubView({ first }: { first?: HubFirstScreen }) {
  const params = useSearchParams();
  const namespace = params.get('namespace') ?? undefined;
  const [state, setState] = useState<HubViewState>(() => readViewState(new URLSearchParams(params.toString())));
  const view = useDeferredValue(state);
  // Paging restarts whenever the view changes.
  const viewKey = viewKeyOf(view);
  const [paging, setPaging] = useState({ key: viewKey, limit: PAGE });
  const limit = paging.key === viewKey ? paging.limit : PAGE;
  const showMore = () => setPaging((p) => ({ key: viewKey, limit: (p.key === viewKey ? p.limit : PAGE) + PAGE }));
  const list = useQuery({
    queryKey: ['hub', namespace ?? ''],
    queryFn: ({ signal }) =>
      apiGet<HubList>(`/api/catalog/packages${namespace ? `?namespace=${encodeURIComponent(namespace)}` : ''}`, signal),
    staleTime: 30_000,
  });
  // The server's first screen, while the list is on its way and the view is still the one it rendered.
  const preview = !list.data && first?.view === viewKey ? first : undefined;
  const catalogs = list.data?.catalogs ?? preview?.catalogs;
  const platforms = list.data ? list.data.platforms : preview?.platforms;

  // From the deferred view: the router re-renders on every history write, so typing fast
  // writes the URL once the results have caught up rather than once per keystroke.
  useEffect(() => {
    const next = writeViewState(view, new URLSearchParams(window.location.search)).toString();
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${next ? `?${next}` : ''}`);
  }, [view]);

  const all = list.data?.packages;
  const searched = useMemo(() => (all ? searchedOf(all, view.q) : []), [all, view.q]);
  const withV1 = !!catalogs && listsClusterCatalogs({ catalogs });
  const fullCounts = useMemo(() => countsOf(searched, withV1), [searched, withV1]);
  const counts = preview?.counts ?? fullCounts;
  const { filters, sort, q } = view;
  const fullShown = useMemo(() => shownOf(searched, { q, filters, sort }), [searched, q, filters, sort]);
  const tiles = preview ? preview.tiles : fullShown.slice(0, limit);
  const shownCount = preview ? preview.shown : fullShown.length;
  const totalCount = preview ? preview.total : (all?.length ?? 0);
  const catalogNames = useMemo(
    () =>
      new Map(
        (catalogs ?? []).map((c) => [
          catalogKey(c),
          c.kind === 'ClusterCatalog' ? `${c.displayName} (ClusterCatalog)` : c.displayName,
        ]),
      ),
    [catalogs],
  );

  const sentinel = useRef<HTMLDivElement>(null);
  // Scrolling asks for more only once the whole list is here (the first screen has no more to show).
  const more = !preview && fullShown.length > limit;
  const showMoreRef = useRef(showMore);
  useEffect(() => {
    showMoreRef.current = showMore;
  });
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !more) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) showMoreRef.current();
      },
      { rootMargin: '600px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [more, limit]);

  const onToggle = useCallback((key: FacetKey, value: string) => setState((s) => toggle(s, key, value)), []);
  const labelOf = useCallback(
    (key: FacetKey, value: string) => (key === 'catalog' ? (catalogNames.get(value) ?? value) : value),
    [catalogNames],
  );
  const chosen = Object.values(state.filters).reduce((n, v) => n + v.length, 0);
  const anyFilter = state.q !== '' || chosen > 0;
  const problems = (catalogs ?? []).filter((c) => c.problem);
  const [drawer, setDrawer] = useState(false);
  const closeDrawer = useCallback(() => setDrawer(false), []);
  const noFilters = readViewState(new URLSearchParams()).filters;
  const facets = catalogs && (
    <FacetPanel counts={counts} filters={state.filters} onToggle={onToggle} labelOf={labelOf} />
  );
  const clearFacets = () => setState((s) => ({ ...s, filters: noFilters }));

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-x-4 gap-y-3">
        <h1 id="hub-title" className="mr-auto text-2xl font-bold">
          OperatorHub
        </h1>
        <label className="flex w-full flex-col text-sm sm:w-auto">
          <span className="font-medium text-slate-700">Filter by keyword</span>
          <input
            type="search"
            value={state.q}
            onChange={(e) => setState((s) => ({ ...s, q: e.target.value }))}
            placeholder="Name, provider, keyword…"
            className="w-full rounded border border-slate-400 bg-white px-3 py-1.5 sm:w-72"
          />
        </label>
        <div className="flex items-end gap-3">
          <label className="flex flex-col text-sm">
            <span className="font-medium text-slate-700">Sort by</span>
            <select
              value={state.sort ?? ''}
              onChange={(e) => setState((s) => ({ ...s, sort: (e.target.value || undefined) as HubSort | undefined }))}
              className="rounded border border-slate-400 bg-white px-2 py-1.5"
            >
              <option value="">{state.q ? 'Relevance' : 'Name'}</option>
              <option value="relevance">Relevance</option>
              <option value="name">Name</option>
              <option value="provider">Provider</option>
              <option value="catalog">Source</option>
            </select>
          </label>
          {!!catalogs?.length && (
            <FiltersButton className="md:hidden" active={chosen} open={drawer} onOpen={() => setDrawer(true)} />
          )}
        </div>
      </div>

      {problems.map((c) => (
        <p
          key={catalogKey(c)}
          role="status"
          className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          {c.kind === 'ClusterCatalog' ? (
            <>
              ClusterCatalog <strong>{c.name}</strong> (OLM v1) is not fully available: {c.problem}.
            </>
          ) : (
            <>
              Catalog <strong>{c.displayName}</strong> ({c.namespace}/{c.name}) is not fully available: {c.problem}.
            </>
          )}
        </p>
      ))}
      {catalogs?.some((c) => c.source === 'packagemanifests') && (
        <p role="note" className="text-sm text-slate-600">
          Some catalogs are read through PackageManifests, which carry no upgrade edges: their graphs show versions
          only.
        </p>
      )}

      <div className="grid gap-8 md:grid-cols-[16rem_1fr]">
        <aside aria-labelledby="hub-facets-title" className="hidden md:sticky md:top-4 md:block md:self-start">
          {/* Forty-odd checkboxes stand between the search box and the tiles. */}
          <a
            href="#hub-results"
            className="sr-only focus:not-sr-only focus:mb-2 focus:inline-block focus:text-sm focus:text-sky-800
              focus:underline"
          >
            Skip the filters to the results
          </a>
          <h2 id="hub-facets-title" className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-600">
            Filters
          </h2>
          {facets}
        </aside>
        {/* Busy while the results still show an earlier keystroke's view (useDeferredValue). */}
        <section
          id="hub-results"
          tabIndex={-1}
          aria-labelledby="hub-results-title"
          aria-busy={view !== state}
          className="min-w-0 space-y-4"
        >
          <h2 id="hub-results-title" className="sr-only">
            Operators
          </h2>
          {list.isPending && !preview && <p role="status">Loading the catalogs…</p>}
          {list.error && (
            <p role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
              The catalogs could not be loaded:{' '}
              {list.error instanceof ApiClientError
                ? `${list.error.body.reason}: ${list.error.message}`
                : list.error.message}
            </p>
          )}

          {catalogs?.length === 0 && <NoCatalogs namespace={namespace} />}
          {catalogs && catalogs.length > 0 && (
            <>
              <div className="flex items-center gap-3 text-sm text-slate-600">
                <p role="status" aria-live="polite">
                  {shownCount} of {totalCount} operators
                </p>
                {anyFilter && (
                  <button
                    type="button"
                    className="text-sky-800 underline"
                    onClick={() => setState({ q: '', filters: noFilters, sort: state.sort })}
                  >
                    Clear all filters
                  </button>
                )}
              </div>
              {shownCount === 0 ? (
                <p className="rounded border border-dashed border-slate-300 p-8 text-center text-slate-600">
                  No operator matches these filters.
                </p>
              ) : (
                <ul aria-label="Operators" className="grid grid-cols-[repeat(auto-fill,minmax(16rem,1fr))] gap-4">
                  {tiles.map((p) => (
                    <PackageTile
                      key={`${p.catalog.namespace}/${p.catalog.name}/${p.name}`}
                      pkg={p}
                      namespace={namespace}
                      notRunnable={notRunnableReason(p, platforms)}
                      showOlm={withV1}
                    />
                  ))}
                </ul>
              )}
              {shownCount > limit && (
                <div ref={sentinel} className="flex justify-center py-4">
                  <button
                    type="button"
                    className="rounded border border-slate-300 bg-white px-4 py-1.5 text-sm"
                    onClick={showMore}
                  >
                    Show more ({shownCount - limit} left)
                  </button>
                </div>
              )}
            </>
          )}
        </section>
      </div>
      <FilterDrawer open={drawer} onClose={closeDrawer} shown={shownCount} onClear={clearFacets}>
        {facets}
      </FilterDrawer>
    </div>
  );
}
