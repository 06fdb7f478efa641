'use client';
// The versions the catalogs offer from the installed bundle, each with the path v1 would take,
// and the version change: upgrade to one, pin the installed one ("stay on this version"), roll back
// where v1 allows it. A change is always previewed first with the bundle v1 would resolve (or v1's
// refusal) and what it changes against the installed bundle, then applied as the person at the
// resourceVersion the page read.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ExtensionDetails, VersionOption, VersionPlan } from '@/lib/api/olm-v1-extensions';
import { apiWrite } from '@/lib/client/api';
import { Badge } from '../../common/badges';
import { ErrorNotice } from '../../common/notice';
import { StackedCell, StackedRow, StackedTable } from '../../common/stacked-table';
import { PlanWords } from './version-plan-words';

type Policy = 'CatalogProvided' | 'SelfCertified';
interface Draft {
  version: string;
  policy?: Policy;
  why: string;
}

const BUTTON =
  'rounded border border-sky-700 px-2 py-1 text-xs text-sky-900 hover:bg-sky-50 disabled:cursor-not-allowed disabled:border-slate-200 disabled:text-slate-500';

function reachWords(o: VersionOption): string {
  switch (o.reach.kind) {
    case 'installed':
      return 'installed';
    case 'next':
      return 'one upgrade away: set it exactly';
    case 'path':
      return `through ${o.reach.path.join(' → ')}: v1 takes one hop per pass, so only a range holding every hop reaches it`;
    case 'unchecked':
      return 'allowed by SelfCertified (no upgrade edge checked)';
    case 'refused':
      return o.reach.why;
  }
}

export function ExtensionVersions({ details: d }: { details: ExtensionDetails }) {
  const qc = useQueryClient();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [typed, setTyped] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const path = `/api/olm-v1/clusterextensions/${encodeURIComponent(d.name)}/version`;
  const body = (x: Draft) => ({
    version: x.version,
    ...(x.policy ? { upgradeConstraintPolicy: x.policy } : {}),
    seen: d.resourceVersion ?? '',
  });
  const plan = useMutation({ mutationFn: (x: Draft) => apiWrite<VersionPlan>(`${path}/plan`, 'POST', body(x)) });
  const apply = useMutation({
    mutationFn: (x: Draft) => apiWrite<{ resourceVersion: string }>(path, 'PATCH', body(x)),
    onSuccess: (_, x) => {
      setDone(`Set version ${x.version}${x.policy ? ` with ${x.policy}` : ''}; OLM v1 is acting on it.`);
      setDraft(null);
      plan.reset();
      void qc.invalidateQueries({ queryKey: ['olm-v1', 'clusterextension', d.name] });
    },
  });
  const start = (x: Draft) => {
    setDone(null);
    apply.reset();
    setDraft(x);
    plan.mutate(x);
  };
  const blocked = d.canUpdate.allowed ? undefined : `You may not change ${d.name}: ${d.canUpdate.reason ?? ''}`;
  const options = Array.isArray(d.versions) ? d.versions : [];
  const selfCertified = d.spec.policy === 'SelfCertified';
  return (
    <section aria-labelledby="ext-versions" className="space-y-3">
      <h2 id="ext-versions" className="text-lg font-semibold">
        Versions
      </h2>
      {blocked && <p className="text-sm text-slate-700">{blocked}</p>}
      {!Array.isArray(d.versions) && <p className="text-sm text-slate-600">Versions unknown: {d.versions.problem}.</p>}
      {selfCertified && (
        <p className="text-sm text-amber-900">
          This extension is SelfCertified: v1 installs any version you set, older ones included, without checking the
          catalog&apos;s upgrade edges.
        </p>
      )}
      {d.installed && (
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <button
            type="button"
            className={BUTTON}
            disabled={!!blocked || d.spec.version === d.installed.version}
            onClick={() => start({ version: d.installed!.version, why: 'Pin: stay on the installed version' })}
          >
            Pin to {d.installed.version}
          </button>
          <span className="text-slate-600">
            {d.spec.version === d.installed.version
              ? `Pinned: the version is exactly ${d.installed.version}.`
              : 'Sets the exact installed version, so v1 upgrades no further.'}
          </span>
        </div>
      )}
      {options.length > 0 && (
        <StackedTable label={`Versions of ${d.spec.package ?? d.name}`} columns={['Version', 'From here', 'Action']}>
          {options.map((o) => (
            <StackedRow key={o.version}>
              <StackedCell label="Version">
                {o.version} <span className="text-xs text-slate-600">({o.catalog})</span>
              </StackedCell>
              <StackedCell label="From here" className="text-xs">
                {o.reach.kind === 'installed' ? <Badge tone="ok">installed</Badge> : reachWords(o)}
              </StackedCell>
              <StackedCell label="Action">
                <VersionAction o={o} disabled={!!blocked} start={start} selfCertified={selfCertified} />
              </StackedCell>
            </StackedRow>
          ))}
        </StackedTable>
      )}
      <form
        className="flex flex-wrap items-end gap-2 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          if (typed.trim()) start({ version: typed.trim(), why: 'Set a version or range' });
        }}
      >
        <label className="flex flex-col">
          <span className="font-medium text-slate-700">Version or range</span>
          <input
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder={d.spec.version || '>=1.0.0 <2.0.0'}
            className="w-56 rounded border border-slate-300 px-2 py-1.5"
          />
        </label>
        <button type="submit" className={BUTTON} disabled={!!blocked || !typed.trim()}>
          Preview
        </button>
      </form>
      {draft && (
        <div
          role="region"
          aria-label="Version change preview"
          className="space-y-2 rounded border border-slate-300 p-3"
        >
          <p className="text-sm font-medium">
            {draft.why}: version {draft.version}
            {draft.policy ? `, policy ${draft.policy}` : ''}
          </p>
          {draft.policy === 'SelfCertified' && !selfCertified && (
            <p className="text-sm text-amber-900">
              SelfCertified: v1 then installs whatever version you set without checking the catalog&apos;s upgrade
              edges, for this change and every later one until the policy is set back.
            </p>
          )}
          {plan.isPending && <p role="status">Asking what OLM v1 would install…</p>}
          {plan.error && <ErrorNotice error={plan.error} what="The preview failed" />}
          {plan.data && <PlanWords plan={plan.data} />}
          <div className="flex gap-2">
            <button
              type="button"
              className={BUTTON}
              disabled={!plan.data?.resolved || plan.data.rights?.state === 'refused' || apply.isPending}
              onClick={() => apply.mutate(draft)}
            >
              Apply
            </button>
            <button type="button" className={BUTTON} onClick={() => setDraft(null)}>
              Cancel
            </button>
          </div>
          {apply.error && <ErrorNotice error={apply.error} what="The change was refused" />}
        </div>
      )}
      {done && (
        <p role="status" className="text-sm text-emerald-900">
          {done}
        </p>
      )}
    </section>
  );
}

function VersionAction(props: {
  o: VersionOption;
  disabled: boolean;
  selfCertified: boolean;
  start: (d: Draft) => void;
}) {
  const { o, disabled, start } = props;
  if (o.reach.kind === 'installed') return null;
  if (o.reach.kind === 'next' || (o.reach.kind === 'unchecked' && o.newer))
    return (
      <button
        type="button"
        className={BUTTON}
        disabled={disabled}
        onClick={() => start({ version: o.version, why: 'Upgrade' })}
      >
        Upgrade to {o.version}
      </button>
    );
  if (o.reach.kind === 'path')
    return (
      <button
        type="button"
        className={BUTTON}
        disabled={disabled}
        onClick={() => start({ version: `<=${o.version}`, why: `Upgrade along the path to ${o.version}` })}
      >
        Upgrade to {o.version} by a range
      </button>
    );
  if (o.newer) return null;
  // An older version: under SelfCertified v1 installs it; under CatalogProvided only with the policy changed.
  return (
    <button
      type="button"
      className={BUTTON}
      disabled={disabled}
      onClick={() =>
        start({
          version: o.version,
          ...(props.selfCertified ? {} : { policy: 'SelfCertified' as const }),
          why: 'Roll back',
        })
      }
    >
      Roll back to {o.version}
      {props.selfCertified ? '' : ' (SelfCertified)'}
    </button>
  );
}
