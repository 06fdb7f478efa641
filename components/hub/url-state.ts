// OperatorHub's view state in the URL, so a filtered view can be shared and reloaded.
import type { HubFilters, HubSort } from '@/lib/hub/filter';

export const FACET_KEYS = [
  'catalog',
  'category',
  'provider',
  'capability',
  'installMode',
  'infrastructureFeature',
  'validSubscription',
  'installState',
  'olm',
] as const;
export type FacetKey = (typeof FACET_KEYS)[number];

export interface HubViewState {
  q: string;
  filters: Required<Pick<HubFilters, FacetKey>>;
  sort?: HubSort;
}

const SORTS: readonly HubSort[] = ['relevance', 'name', 'provider', 'catalog'];

export function readViewState(params: URLSearchParams): HubViewState {
  const filters = Object.fromEntries(FACET_KEYS.map((k) => [k, params.getAll(k)])) as HubViewState['filters'];
  const sort = params.get('sort');
  return { q: params.get('q') ?? '', filters, sort: SORTS.includes(sort as HubSort) ? (sort as HubSort) : undefined };
}

export function writeViewState(state: HubViewState, keep?: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  // Parameters this page does not own (a namespace) survive.
  for (const [k, v] of keep ?? [])
    if (k !== 'q' && k !== 'sort' && !(FACET_KEYS as readonly string[]).includes(k)) out.append(k, v);
  if (state.q) out.set('q', state.q);
  for (const k of FACET_KEYS) for (const v of state.filters[k]) out.append(k, v);
  if (state.sort) out.set('sort', state.sort);
  return out;
}

export function toggle(state: HubViewState, key: FacetKey, value: string): HubViewState {
  const current = state.filters[key];
  const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  return { ...state, filters: { ...state.filters, [key]: next } };
}
