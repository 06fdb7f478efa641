'use client';
// The Subscription of an installed operator: first the InstallPlans waiting for approval (what each
// installs, linked to its preview), then the installed and current CSV and the channel (only those
// OLM can move to are offered; the others say why) and approval (which OLM applies per namespace)
// to change, the path to the channel head (listed, and drawn on the channel's graph) with the next
// InstallPlan's target and what holds it back, an upgrade target; the operator's pod placement and
// configuration; the way back to an earlier version; the catalog's health and the conditions.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useState } from 'react';
import type { OperatorDetails } from '@/lib/api/operators';
import { apiWrite } from '@/lib/client/api';
import { stoppedConditions } from '@/lib/olm/resources/subscription';
import { usePermission } from '@/lib/client/permissions';
import { Badge, installPlanHref, UpgradeBadge } from '../common/badges';
import { ConditionsTable } from '../common/conditions-table';
import { ErrorNotice } from '../common/notice';
import { ChannelGraphPanel } from '../graph/channel-graph-panel';
import { NextUpgrade } from '../graph/installed-note';
import { OperatorConfigSection } from './operator-config-section';
import { RefreshSubscription } from './refresh-subscription';
import { RollbackSection } from './rollback-section';
import { UpgradeTargetSection } from './upgrade-target-section';
import { FACTS_GRID } from '../common/facts-grid';

export function SubscriptionTab({
  details,
  namespace,
  onChanged,
}: {
  details: OperatorDetails;
  namespace: string;
  onChanged: () => void;
}) {
  const sub = details.subscription!;
  const s = sub.object;
  const perm = usePermission(namespace, 'changeSubscription');
  const currentChannel = s.spec.channel ?? details.updatePath?.channel ?? '';
  const currentApproval = s.spec.installPlanApproval ?? 'Automatic';
  const [channel, setChannel] = useState(currentChannel);
  const [approval, setApproval] = useState(currentApproval);
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: (change: { channel?: string; approval?: string }) =>
      apiWrite<{ warnings: string[] }>(
        `/api/subscriptions/${encodeURIComponent(namespace)}/${encodeURIComponent(s.metadata?.name ?? '')}`,
        'PATCH',
        { ...change, seen: { channel: s.spec.channel ?? '', approval: currentApproval } },
      ),
    onSuccess: () => onChanged(),
    onError: () => void qc.invalidateQueries({ queryKey: ['operator', namespace] }),
  });
  const chosen = sub.channels?.find((c) => c.name === channel);
  const denied =
    perm.allowed === false
      ? `You may not change subscriptions in ${namespace}: ${perm.reason ?? 'the cluster refused'}`
      : undefined;
  const path = details.updatePath;

  return (
    <div className="space-y-8">
      <WaitingApprovals details={details} namespace={namespace} />

      <section aria-labelledby="subscription-title" className="space-y-4">
        <h2 id="subscription-title" className="text-lg font-semibold">
          Subscription {s.metadata?.name}
        </h2>
        <dl className={`${FACTS_GRID.wide} text-sm`}>
          <dt className="text-slate-600">Package</dt>
          <dd>
            {s.spec.name} from {s.spec.sourceNamespace}/{s.spec.source}
          </dd>
          <dt className="text-slate-600">Installed CSV</dt>
          <dd>{s.status?.installedCSV ?? '—'}</dd>
          <dt className="text-slate-600">Current CSV</dt>
          <dd>{s.status?.currentCSV ?? '—'}</dd>
          <dt className="text-slate-600">Upgrade status</dt>
          <dd>
            <UpgradeBadge upgrade={sub.upgrade} namespace={namespace} />{' '}
            <span className="text-slate-600">{sub.upgrade.detail}</span>
          </dd>
        </dl>

        {denied && <p className="text-sm text-slate-600">{denied}</p>}
        <form
          aria-label="Change the update channel"
          className="flex flex-wrap items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate({ channel });
          }}
        >
          <div className="flex flex-col text-sm">
            <label htmlFor="sub-channel" className="font-medium text-slate-700">
              Update channel
            </label>
            <select
              id="sub-channel"
              value={channel}
              disabled={!!denied}
              onChange={(e) => setChannel(e.target.value)}
              className="rounded border border-slate-300 bg-white px-2 py-1.5"
            >
              {(sub.channels ?? [{ name: currentChannel, current: true, allowed: true }]).map((c) => (
                <option key={c.name} value={c.name} disabled={!c.allowed}>
                  {c.name}
                  {c.current
                    ? ' (current)'
                    : !c.allowed
                      ? ' (OLM cannot move here)'
                      : c.next
                        ? ` (upgrades to ${c.next})`
                        : ''}
                </option>
              ))}
            </select>
          </div>
          <button
            type="submit"
            disabled={!!denied || channel === currentChannel || save.isPending}
            className="rounded bg-sky-700 px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
          >
            Change channel
          </button>
          {chosen && !chosen.current && chosen.next && (
            <p className="text-sm text-slate-600">
              OLM will upgrade to {chosen.next}
              {currentApproval === 'Manual' ? ' once you approve the plan' : ''}.
            </p>
          )}
        </form>
        {sub.channels?.some((c) => !c.allowed) && (
          <details className="text-sm text-slate-600">
            <summary>Why some channels are not offered</summary>
            <ul className="list-disc pl-5">
              {sub.channels
                .filter((c) => !c.allowed)
                .map((c) => (
                  <li key={c.name}>
                    {c.name}: {c.reason}
                  </li>
                ))}
            </ul>
          </details>
        )}
        {!sub.channels && details.updatePathProblem && (
          <p className="text-sm text-slate-600">Channels could not be checked: {details.updatePathProblem}.</p>
        )}

        <form
          aria-label="Change the update approval"
          className="space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate({ approval });
          }}
        >
          <fieldset className="flex flex-wrap items-center gap-4 text-sm" disabled={!!denied}>
            <legend className="mb-1 font-medium text-slate-700">Update approval</legend>
            {['Automatic', 'Manual'].map((a) => (
              <label key={a} className="flex items-center gap-1.5">
                <input
                  type="radio"
                  name="approval"
                  value={a}
                  checked={approval === a}
                  onChange={() => setApproval(a as 'Automatic' | 'Manual')}
                />{' '}
                {a}
              </label>
            ))}
            <button
              type="submit"
              disabled={approval === currentApproval || save.isPending}
              className="rounded bg-sky-700 px-3 py-1.5 font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
            >
              Change approval
            </button>
          </fieldset>
          <p className="text-xs text-slate-600">
            OLM makes one InstallPlan per namespace for every operator in it: with Manual approval on any Subscription
            in {namespace}, a plan that touches it waits for approval, for all the operators it carries.
          </p>
        </form>
        {save.isSuccess && (
          <p role="status" className="text-sm text-emerald-800">
            Saved.{save.data.warnings.length ? ` ${save.data.warnings.join('. ')}.` : ''}
          </p>
        )}
        {save.error && <ErrorNotice error={save.error} what="The Subscription was not changed" />}
      </section>

      <section aria-labelledby="path-title" className="space-y-2">
        <h2 id="path-title" className="text-lg font-semibold">
          Update path to the channel head
        </h2>
        {path ? (
          path.steps.length === 0 ? (
            <p className="text-sm">
              {path.from} is the head of {path.channel}.
            </p>
          ) : (
            <ol aria-label="Update path" className="list-decimal pl-5 text-sm">
              {path.steps.map((st) => (
                <li key={`${st.from}-${st.to}`}>
                  {st.from} → <strong>{st.to}</strong> <span className="text-slate-600">({st.via.join(', ')})</span>
                </li>
              ))}
              {!path.reachesHead && (
                <li className="text-amber-800">
                  stops at {path.end}, short of the head {path.head}
                  {path.error ? `: ${path.error}` : ''}
                </li>
              )}
            </ol>
          )
        ) : (
          <p className="text-sm text-slate-600">{details.updatePathProblem ?? 'Unknown.'}</p>
        )}
        <NextUpgrade details={details} />
        <UpgradeTargetSection namespace={namespace} name={s.metadata?.name ?? ''} pkg={s.spec.name} />
        {currentChannel && (
          <ChannelGraphPanel
            catalogNamespace={s.spec.sourceNamespace}
            catalog={s.spec.source}
            pkg={s.spec.name}
            channel={currentChannel}
            installed={s.status?.installedCSV}
            namespace={namespace}
          />
        )}
        <p className="text-sm">
          <Link
            className="text-sky-700 underline"
            href={`/operatorhub/${encodeURIComponent(s.spec.sourceNamespace)}/${encodeURIComponent(s.spec.source)}/${encodeURIComponent(s.spec.name)}?channel=${encodeURIComponent(currentChannel)}&namespace=${encodeURIComponent(namespace)}`}
          >
            The package in OperatorHub
          </Link>
        </p>
      </section>

      {stoppedConditions(s.status?.conditions).length > 0 && (
        <RefreshSubscription namespace={namespace} name={s.metadata?.name ?? ''} onDone={onChanged} />
      )}

      <OperatorConfigSection namespace={namespace} name={s.metadata?.name ?? ''} />

      {details.csv.metadata?.name && <RollbackSection namespace={namespace} csvName={details.csv.metadata.name} />}

      {details.catalog && (
        <section aria-labelledby="catalog-title">
          <h2 id="catalog-title" className="text-lg font-semibold">
            Catalog
          </h2>
          <p className="text-sm">
            <Badge tone={details.catalog.healthy ? 'ok' : 'error'}>{details.catalog.state}</Badge>{' '}
            {details.catalog.namespace}/{details.catalog.name}: {details.catalog.explanation}
          </p>
        </section>
      )}

      <section aria-labelledby="conditions-title">
        <h2 id="conditions-title" className="mb-1 text-lg font-semibold">
          Conditions
        </h2>
        <ConditionsTable rows={sub.conditions} label="Subscription conditions" />
      </section>
    </div>
  );
}

/**
 * The InstallPlans waiting for a person, first on the tab: what each would install, and the way
 * to its preview and Approve. Nothing when none waits.
 */
function WaitingApprovals({ details, namespace }: { details: OperatorDetails; namespace: string }) {
  const waiting = details.subscription?.upgrade.pendingApproval ?? [];
  if (waiting.length === 0) return null;
  return (
    <section aria-labelledby="pending-title" className="space-y-1 rounded border border-amber-300 bg-amber-50 p-3">
      <h2 id="pending-title" className="text-lg font-semibold">
        Waiting for approval
      </h2>
      <p className="text-sm text-slate-800">
        The Subscription&apos;s approval is Manual: OLM installs nothing from these plans until someone approves them.
      </p>
      <ul className="space-y-1 text-sm">
        {waiting.map((n) => {
          const csvs = details.installPlans.find((p) => p.name === n)?.summary.csvNames ?? [];
          return (
            <li key={n} className="[overflow-wrap:anywhere]">
              InstallPlan {n}
              {csvs.length ? ` installs ${csvs.join(', ')}` : ''}:{' '}
              <Link className="font-semibold text-sky-800 underline" href={installPlanHref(namespace, n)}>
                Preview and approve
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
