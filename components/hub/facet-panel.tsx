// The hub's facets: one group of checkboxes per facet, each with the count of packages that
// choosing it would show among the keyword results.
import { memo, useId, useState } from 'react';
import { OLM_LABELS, type OlmMajor } from '@/lib/hub/olm-offer';
import type { FacetKey, HubViewState } from './url-state';

const TITLES: Record<FacetKey, string> = {
  catalog: 'Source',
  category: 'Category',
  provider: 'Provider',
  capability: 'Capability level',
  installState: 'Install state',
  infrastructureFeature: 'Infrastructure features',
  validSubscription: 'Valid subscription',
  installMode: 'Install modes',
  olm: 'Installs with',
};

const ORDER: FacetKey[] = [
  'olm',
  'catalog',
  'category',
  'provider',
  'capability',
  'installState',
  'installMode',
  'infrastructureFeature',
  'validSubscription',
];
const CAPABILITY_ORDER = ['Basic Install', 'Seamless Upgrades', 'Full Lifecycle', 'Deep Insights', 'Auto Pilot'];
const STATE_LABELS: Record<string, string> = { installed: 'Installed', notInstalled: 'Not installed' };

function sortValues(key: FacetKey, entries: [string, number][]): [string, number][] {
  if (key === 'olm') return entries.sort((a, b) => a[0].localeCompare(b[0]));
  if (key === 'capability')
    return entries.sort(
      (a, b) => (CAPABILITY_ORDER.indexOf(a[0]) + 1 || 99) - (CAPABILITY_ORDER.indexOf(b[0]) + 1 || 99),
    );
  return entries.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

// A long facet (hundreds of providers on a big catalog) shows its biggest values first; the rest
// on demand, so neither the reader nor a keystroke's re-render wades through all of them.
const SHOWN = 8;

type Props = {
  counts: Record<string, Record<string, number>>;
  filters: HubViewState['filters'];
  onToggle: (key: FacetKey, value: string) => void;
  labelOf: (key: FacetKey, value: string) => string;
};

// Memoised: typing in the keyword box re-renders it only when the counts it shows change.
export const FacetPanel = memo(function FacetPanel({ counts, filters, onToggle, labelOf }: Props) {
  const [expanded, setExpanded] = useState<ReadonlySet<FacetKey>>(new Set());
  // The side panel and the phone's drawer can both be in the page: each its own ids.
  const prefix = useId();
  return (
    <div className="space-y-5">
      {ORDER.map((key) => {
        const chosen = filters[key];
        const entries = sortValues(key, Object.entries(counts[key] ?? {}));
        // A chosen value stays listed (with 0) so it can be unchosen.
        for (const v of chosen) if (!entries.some(([e]) => e === v)) entries.push([v, 0]);
        if (entries.length === 0) return null;
        const open = expanded.has(key);
        const visible = open ? entries : entries.filter(([v], i) => i < SHOWN || chosen.includes(v));
        const hidden = entries.length - visible.length;
        return (
          <fieldset key={key} className="space-y-1">
            <legend className="mb-1 text-sm font-semibold text-slate-800">{TITLES[key]}</legend>
            {visible.map(([value, count]) => {
              const id = `${prefix}facet-${key}-${value}`.replace(/[^a-zA-Z0-9_-]/g, '_');
              const label =
                key === 'installState'
                  ? (STATE_LABELS[value] ?? value)
                  : key === 'olm'
                    ? (OLM_LABELS[value as OlmMajor] ?? value)
                    : labelOf(key, value);
              return (
                <div key={value} className="flex items-center gap-2 text-sm">
                  <input
                    id={id}
                    type="checkbox"
                    className="h-4 w-4 accent-sky-700"
                    checked={chosen.includes(value)}
                    onChange={() => onToggle(key, value)}
                  />
                  <label htmlFor={id} className="flex-1 cursor-pointer truncate text-slate-700" title={label}>
                    {label} <span className="text-slate-500">({count})</span>
                  </label>
                </div>
              );
            })}
            {(hidden > 0 || (open && entries.length > SHOWN)) && (
              <button
                type="button"
                className="text-xs text-sky-700 underline"
                aria-expanded={open}
                onClick={() =>
                  setExpanded((e) => {
                    const next = new Set(e);
                    if (open) next.delete(key);
                    else next.add(key);
                    return next;
                  })
                }
              >
                {open
                  ? `Show fewer ${TITLES[key].toLowerCase()} values`
                  : `Show ${hidden} more ${TITLES[key].toLowerCase()} values`}
              </button>
            )}
          </fieldset>
        );
      })}
    </div>
  );
});
