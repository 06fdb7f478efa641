'use client';
// The Catalogs page's "Default sources": on OpenShift (the cluster serves the OperatorHub API),
// OperatorHub `cluster`'s switches — disableAllDefaultSources and one per default source — with
// what the marketplace operator reported, each source's CatalogSource and the Subscriptions that
// install from it; each switch reviewed (DefaultSourcePlan) before it is applied as the person,
// disabled with the cluster's reason for people who may not. Elsewhere, that upstream OLM has no
// such switch, and what it offers instead.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { DefaultSourceRow, HubSwitch, OperatorHubView } from '@/lib/api/operator-hub';
import { apiGet } from '@/lib/client/api';
import { useLiveRefresh } from '@/lib/client/live';
import { Badge } from '../common/badges';
import { ErrorNotice } from '../common/notice';
import { DefaultSourcePlan, switchTitle } from './default-source-plan';
import { FACTS_GRID } from '../common/facts-grid';

const DECIDED_BY: Record<DefaultSourceRow['decidedBy'], string> = {
  'source entry': 'by its own entry in spec.sources',
  disableAllDefaultSources: 'by disableAllDefaultSources',
  default: 'by default',
};

function Toggle({
  label,
  off,
  disabled,
  describedBy,
  onFlip,
}: {
  label: string;
  off: boolean;
  disabled: boolean;
  describedBy?: string;
  onFlip: () => void;
}) {
  // Checked means enabled, as a person reads "Red Hat Operators: on".
  return (
    <button
      type="button"
      role="switch"
      aria-checked={!off}
      aria-label={label}
      aria-describedby={describedBy}
      disabled={disabled}
      onClick={onFlip}
      className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition disabled:cursor-not-allowed disabled:opacity-50 ${off ? 'bg-slate-300' : 'bg-sky-700'}`}
    >
      <span
        className={`inline-block h-5 w-5 rounded-full bg-white shadow transition ${off ? 'translate-x-0.5' : 'translate-x-5'}`}
      />
    </button>
  );
}

function Reported({ row }: { row: DefaultSourceRow }) {
  const r = row.reported;
  if (!r) return <span className="text-slate-600">the marketplace operator has not reported on it yet</span>;
  const tone = r.status === 'Success' ? (row.pending ? 'progressing' : 'ok') : 'error';
  return (
    <span>
      <Badge tone={tone}>{r.status ?? 'no status'}</Badge> {r.disabled ? 'disabled' : 'enabled'}
      {r.message ? `: ${r.message}` : ''}
      {row.pending && (
        <span className="text-slate-600">
          {' '}
          (not yet applied: the spec says {row.disabled ? 'disabled' : 'enabled'})
        </span>
      )}
    </span>
  );
}

function UpstreamNote({ globalNamespaces }: { globalNamespaces: string[] }) {
  const ns = globalNamespaces[0] ?? 'olm';
  return (
    <section
      aria-labelledby="default-sources-title"
      className="space-y-1 rounded-lg border border-slate-200 bg-white p-4 text-sm"
    >
      <h2 id="default-sources-title" className="text-lg font-semibold">
        Default sources
      </h2>
      <p>
        This cluster runs upstream OLM, which has no switch to disable a catalog (OpenShift&apos;s OperatorHub config is
        not served here). A catalog in the global catalog namespace <code>{ns}</code> serves every namespace for as long
        as its CatalogSource exists. <strong>Disable</strong> below deletes it and keeps its definition in ConfigMap{' '}
        <code>{ns}/olm-console-disabled-catalogs</code>, so that <strong>Enable</strong> makes it again as it was;
        meanwhile the operators installed from it keep running but report CatalogSourcesUnhealthy.
      </p>
    </section>
  );
}

export function DefaultSources({ globalNamespaces, onChanged }: { globalNamespaces: string[]; onChanged: () => void }) {
  const key = ['operatorhub'];
  const qc = useQueryClient();
  const view = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => apiGet<OperatorHubView>('/api/operatorhub', signal),
  });
  useLiveRefresh(
    key,
    undefined,
    ['operatorhubs', 'catalogsources'],
    view.data?.api === 'served' && view.data.state === 'present',
  );
  const [open, setOpen] = useState<HubSwitch | null>(null);
  const [done, setDone] = useState<string | null>(null);
  if (view.error) return <ErrorNotice error={view.error} what="The default sources could not be read" />;
  const v = view.data;
  if (!v) return <p role="status">Reading OperatorHub…</p>;
  if (v.api === 'absent') return <UpstreamNote globalNamespaces={globalNamespaces} />;
  const denied = v.canChange.allowed
    ? undefined
    : `You may not change the default sources: ${v.canChange.reason ?? 'the cluster refused'}`;
  const locked = !!denied || v.state !== 'present' || open !== null;
  const flip = (sw: HubSwitch) => {
    setDone(null);
    setOpen(sw);
  };
  return (
    <section
      aria-labelledby="default-sources-title"
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <div>
        <h2 id="default-sources-title" className="text-lg font-semibold">
          Default sources
        </h2>
        <p className="text-sm text-slate-700">
          OpenShift&apos;s marketplace operator keeps these catalogs in openshift-marketplace as OperatorHub{' '}
          <code>cluster</code> says: a disabled source&apos;s CatalogSource is deleted, an enabled one is created again,
          and edits to it are undone.
        </p>
      </div>
      {v.state !== 'present' && (
        <p role="note" className="rounded border border-slate-300 bg-slate-50 px-3 py-2 text-sm">
          {v.state === 'forbidden' ? `You may not read OperatorHub cluster: ${v.message ?? ''}` : `${v.message}.`}
        </p>
      )}
      {denied && (
        <p id="hub-denied" className="text-sm text-slate-600">
          {denied}
        </p>
      )}
      {v.state === 'present' && (
        <div className="flex items-center gap-3">
          <Toggle
            label="All default sources"
            off={v.disableAllDefaultSources === true}
            disabled={locked}
            describedBy={denied ? 'hub-denied' : undefined}
            onFlip={() => flip({ kind: 'all', disabled: !v.disableAllDefaultSources })}
          />
          <span className="text-sm">
            <strong>All default sources</strong>:{' '}
            {v.disableAllDefaultSources
              ? "disabled (disableAllDefaultSources: true); a source's own entry can still enable it"
              : "enabled unless a source's own entry disables it"}
          </span>
        </div>
      )}
      {open?.kind === 'all' && (
        <DefaultSourcePlan
          change={open}
          seen={v.resourceVersion ?? ''}
          onCancel={() => setOpen(null)}
          onApplied={() => {
            setOpen(null);
            setDone(`Applied as you: ${switchTitle(open).toLowerCase()}. The marketplace operator is acting on it.`);
            void qc.invalidateQueries({ queryKey: key });
            onChanged();
          }}
        />
      )}
      {done && (
        <p role="status" className="rounded border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          {done}
        </p>
      )}
      <ul aria-label="Default sources" className="divide-y divide-slate-100">
        {v.sources.map((s) => (
          <li key={s.name} aria-label={`Default source ${s.name}`} className="space-y-1 py-2">
            <div className="flex flex-wrap items-center gap-3">
              {/* Without OperatorHub cluster there is no telling the switch's position: no switch is drawn. */}
              {v.state === 'present' && (
                <Toggle
                  label={s.name}
                  off={s.disabled}
                  disabled={locked}
                  describedBy={denied ? 'hub-denied' : undefined}
                  onFlip={() => flip({ kind: 'source', name: s.name, disabled: !s.disabled })}
                />
              )}
              <span className="font-medium">{s.name}</span>
              <span className="text-sm text-slate-700">
                {v.state === 'present'
                  ? `${s.disabled ? 'Disabled' : 'Enabled'} ${DECIDED_BY[s.decidedBy]}`
                  : 'Switch position unknown (OperatorHub cluster cannot be read)'}
              </span>
            </div>
            <dl className={`${FACTS_GRID.medium} text-sm`}>
              {v.state === 'present' && (
                <>
                  <dt className="text-slate-600">Marketplace operator</dt>
                  <dd>
                    <Reported row={s} />
                  </dd>
                </>
              )}
              <dt className="text-slate-600">CatalogSource</dt>
              <dd>
                {s.catalogSource ? (
                  <>
                    <Badge tone={s.catalogSource.health.healthy ? 'ok' : 'error'}>{s.catalogSource.health.state}</Badge>
                    {s.catalogSource.managed
                      ? ''
                      : " (not marked as the marketplace operator's: it is not deleted when disabled)"}
                  </>
                ) : (
                  'none'
                )}
              </dd>
              <dt className="text-slate-600">Subscriptions</dt>
              <dd>
                {s.subscriptions.length === 0
                  ? 'none install from it'
                  : `${s.subscriptions.length} ${s.subscriptions.length === 1 ? 'installs' : 'install'} from it: ${s.subscriptions.map((x) => `${x.namespace}/${x.name}`).join(', ')}`}
              </dd>
            </dl>
            {open?.kind === 'source' && open.name === s.name && (
              <DefaultSourcePlan
                change={open}
                seen={v.resourceVersion ?? ''}
                onCancel={() => setOpen(null)}
                onApplied={() => {
                  setOpen(null);
                  setDone(
                    `Applied as you: ${switchTitle(open).toLowerCase()}. The marketplace operator is acting on it.`,
                  );
                  void qc.invalidateQueries({ queryKey: key });
                  onChanged();
                }}
              />
            )}
          </li>
        ))}
      </ul>
      {v.sources.length === 0 && v.state === 'present' && (
        <p className="text-sm text-slate-600">The marketplace operator reports no default sources on this cluster.</p>
      )}
      {v.otherEntries.length > 0 && (
        <div role="note" className="rounded border border-amber-200 bg-amber-50 px-3 py-2 text-sm">
          <p className="font-semibold">Entries in spec.sources that name no default source</p>
          <ul className="list-disc pl-5">
            {v.otherEntries.map((o) => (
              <li key={o.name}>
                {o.name} (disabled: {String(o.disabled)})
                {o.reported?.message ? `: ${o.reported.status} — ${o.reported.message}` : ''}
              </li>
            ))}
          </ul>
        </div>
      )}
      {v.problems.map((p) => (
        <p key={p} className="text-sm text-amber-800">
          {p}.
        </p>
      ))}
    </section>
  );
}
