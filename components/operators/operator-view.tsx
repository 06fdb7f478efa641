'use client';
// One installed operator, live, in tabs: Details, Subscription, Conditions, InstallPlans, YAML,
// Events; and Uninstall. A copied CSV says where the operator really is and links there.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useSearchParams } from 'next/navigation';
import { useClusterRouter } from '@/lib/client/cluster';
import { useEffect, useState } from 'react';
import type { OperatorDetails } from '@/lib/api/operators';
import { apiGet } from '@/lib/client/api';
import { useLiveRefresh } from '@/lib/client/live';
import { LiveNotice } from '@/components/common/live-notice';
import { usePermission } from '@/lib/client/permissions';
import { Badge, UpgradeBadge } from '../common/badges';
import { ConditionsTable } from '../common/conditions-table';
import { Markdown } from '../common/markdown';
import { ErrorPanel } from '../common/error-panel';
import { Warning } from '../common/notice';
import { YamlBlock } from '../common/yaml-block';
import { halfGone } from '@/lib/olm/install/leftovers';
import { createOperandHref } from './create-href';
import { GitopsExport } from './gitops-export';
import { InstancesTab } from './instances-tab';
import { leftoversHref } from './leftovers-href';
import { MigrateToV1 } from './migrate-to-v1';
import { OperatorConditionsTab } from './operator-conditions-tab';
import { EventsTable, InstallPlansTable } from './operator-tables';
import { operatorHref } from './operators-list';
import { SubscriptionTab } from './subscription-tab';
import { UninstallDialog } from './uninstall-dialog';
import { useSuccessor } from './use-successor';
import { PermissionFailureNotice } from '../common/permission-failure';

const TABS = [
  { key: 'details', label: 'Details' },
  { key: 'subscription', label: 'Subscription' },
  { key: 'conditions', label: 'Conditions' },
  { key: 'instances', label: 'Instances' },
  { key: 'installplans', label: 'InstallPlans' },
  { key: 'yaml', label: 'YAML' },
  { key: 'events', label: 'Events' },
] as const;
type Tab = (typeof TABS)[number]['key'];

export function OperatorView({ namespace, name }: { namespace: string; name: string }) {
  const params = useSearchParams();
  const router = useClusterRouter();
  const qc = useQueryClient();
  const tab = (TABS.find((t) => t.key === params.get('tab'))?.key ?? 'details') as Tab;
  const key = ['operator', namespace, name];
  const details = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      apiGet<OperatorDetails>(`/api/operators/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`, signal),
  });
  const [uninstalling, setUninstalling] = useState(false);
  // Moving to OLM v1 deletes the CSV too: the page holds still so the move's result stays shown.
  const [moving, setMoving] = useState(false);
  // While the uninstall dialog is open the operator is going away: the page holds still.
  const live = useLiveRefresh(
    key,
    namespace,
    ['clusterserviceversions', 'subscriptions', 'installplans', 'operatorgroups', 'events'],
    !details.error && !uninstalling && !moving,
  );
  const uninstallPerm = usePermission(namespace, 'uninstall');
  const successor = useSuccessor(namespace, name, details, !uninstalling && !moving);
  useEffect(() => {
    if (successor.csv)
      router.replace(`${operatorHref(namespace, successor.csv)}?tab=${tab}&replaced=${encodeURIComponent(name)}`, {
        scroll: false,
      });
  }, [successor.csv, namespace, name, tab, router]);
  const dialog = uninstalling && (
    <UninstallDialog
      namespace={namespace}
      csv={name}
      onClose={() => setUninstalling(false)}
      onDone={() => router.push(`/operators?namespace=${encodeURIComponent(namespace)}`)}
    />
  );

  // The dialog keeps its place in the tree whatever the page shows, so it is never remounted
  // (and its outcome lost) when the operator it removed can no longer be read.
  if (successor.csv || successor.looking) {
    return (
      <p role="status">
        {successor.csv
          ? `${name} was replaced by ${successor.csv}: opening it…`
          : `${name} is no longer in ${namespace}: asking its Subscription what is installed now…`}
      </p>
    );
  }
  if (details.error) {
    return (
      <>
        <ErrorPanel
          error={details.error}
          title={`Operator ${name} could not be read`}
          notFound={
            `There is no operator (ClusterServiceVersion) ${name} in ${namespace}: ` +
            'it may have been uninstalled, or upgraded to a version with another name.'
          }
          onRetry={() => void details.refetch()}
          back={[
            {
              href: `/operators?namespace=${encodeURIComponent(namespace)}`,
              label: `Installed Operators in ${namespace}`,
            },
            { href: '/operators', label: 'Installed Operators in all namespaces' },
          ]}
        />
        {dialog}
      </>
    );
  }
  if (!details.data) return <p role="status">Loading {name}…</p>;
  const d = details.data;
  const desc = d.description;
  const choose = (t: Tab) => router.replace(`?tab=${t}`, { scroll: false });
  // Said only when this CSV really replaced it, whatever the URL claims.
  const replaced = params.get('replaced');
  const upgradedFrom = replaced && d.csv.spec.replaces === replaced ? replaced : undefined;
  // A CSV deleted by hand, or left by an uninstall that stopped: where to see and clean up the rest.
  const half = d.copiedFrom || d.replacedBy ? undefined : halfGone(d.csv, d.subscription?.object);
  const uninstallBlocked =
    uninstallPerm.allowed === false
      ? `You may not uninstall in ${namespace}: ${uninstallPerm.reason ?? 'the cluster refused'}`
      : undefined;

  return (
    <>
      <article className="space-y-5">
        <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
          <Link className="text-sky-700 underline" href={`/operators?namespace=${encodeURIComponent(namespace)}`}>
            Installed Operators
          </Link>{' '}
          / {desc.displayName || name}
        </nav>
        <header className="flex flex-wrap items-start gap-4">
          <div className="mr-auto">
            <h1 className="text-2xl font-bold">{desc.displayName || name}</h1>
            <p className="text-slate-600">
              {desc.version ?? name} provided by {desc.provider.name || 'an unnamed provider'} · in {namespace}
            </p>
            <p className="mt-1 flex flex-wrap items-center gap-2 text-sm">
              <Badge tone={d.status.severity} title={d.status.detail}>
                {d.status.label}
              </Badge>
              {d.subscription && <UpgradeBadge upgrade={d.subscription.upgrade} namespace={namespace} />}
              <LiveNotice state={live} />
            </p>
          </div>
          {!d.copiedFrom && !moving && (
            <div className="flex flex-col items-end gap-1">
              <button
                type="button"
                disabled={!!uninstallBlocked}
                aria-describedby={uninstallBlocked ? 'uninstall-blocked' : undefined}
                onClick={() => setUninstalling(true)}
                className="rounded border border-red-300 px-4 py-1.5 font-semibold text-red-800 hover:bg-red-50 disabled:cursor-not-allowed disabled:border-slate-200 disabled:text-slate-400"
              >
                Uninstall
              </button>
              {uninstallBlocked && (
                <p id="uninstall-blocked" className="max-w-xs text-right text-xs text-slate-600">
                  {uninstallBlocked}
                </p>
              )}
            </div>
          )}
        </header>
        {moving && (
          <p role="note" className="rounded border border-sky-200 bg-sky-50 px-3 py-2 text-sm">
            This operator is moving, or has moved, to OLM v1: the page shows it as it was before. The move&apos;s result
            is under Move to OLM v1 below.
          </p>
        )}
        {upgradedFrom && (
          <p role="note" className="rounded border border-sky-200 bg-sky-50 px-3 py-2 text-sm">
            OLM replaced {upgradedFrom} with {name}
            {d.status.severity === 'ok' ? '' : ' and is installing it'}; this page followed the operator.
          </p>
        )}
        {d.replacedBy && (
          <p role="note" className="rounded border border-sky-200 bg-sky-50 px-3 py-2 text-sm">
            OLM has installed{' '}
            <Link className="text-sky-700 underline" href={operatorHref(namespace, d.replacedBy.csv, tab)}>
              {d.replacedBy.csv}
            </Link>{' '}
            in place of this version (Subscription {d.replacedBy.subscription}); {name} stays until its replacement
            runs.
          </p>
        )}
        {half && (
          <p role="note" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm">
            This operator is half gone: {half}.{' '}
            <Link
              className="font-semibold text-sky-700 underline"
              href={leftoversHref(namespace, {
                csv: name,
                ...(d.subscription ? { subscription: d.subscription.object.metadata?.name } : {}),
              })}
            >
              See what is left
            </Link>
          </p>
        )}
        {d.copiedFrom && (
          <Warning title="A copy">
            OLM copied this CSV into {namespace} because the operator installed in{' '}
            <Link className="underline" href={operatorHref(d.copiedFrom, name)}>
              {d.copiedFrom}
            </Link>{' '}
            watches this namespace. Manage it there.
          </Warning>
        )}
        {d.status.severity !== 'ok' && (
          <p className="text-sm text-slate-700">
            {d.status.detail}
            {d.status.message ? ` OLM says: ${d.status.message}` : ''}
          </p>
        )}
        {d.status.severity !== 'ok' && <PermissionFailureNotice message={d.status.message} namespace={namespace} />}

        {/* The tabs wrap onto a second line on a narrow screen rather than run off it. */}
        <div role="tablist" aria-label="Operator" className="flex flex-wrap gap-x-1 border-b border-slate-300">
          {TABS.filter((t) => t.key !== 'subscription' || d.subscription).map((t) => (
            <button
              key={t.key}
              role="tab"
              id={`tab-${t.key}`}
              aria-selected={tab === t.key}
              aria-controls="tab-panel"
              type="button"
              onClick={() => choose(t.key)}
              className={`-mb-px border-b-2 px-3 py-1.5 text-sm ${tab === t.key ? 'border-sky-700 font-semibold text-sky-800' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
            >
              {t.label}
              {t.key === 'installplans' && d.subscription?.upgrade.pendingApproval.length
                ? ` (${d.subscription.upgrade.pendingApproval.length} waiting)`
                : ''}
            </button>
          ))}
        </div>
        <section id="tab-panel" role="tabpanel" aria-labelledby={`tab-${tab}`} className="min-h-40">
          {tab === 'details' && (
            <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
              <div className="space-y-5">
                {desc.description ? (
                  <Markdown source={desc.description} />
                ) : (
                  <p className="text-slate-600">No description.</p>
                )}
                <section aria-labelledby="provided-title" className="space-y-2">
                  <h2 id="provided-title" className="text-lg font-semibold">
                    Provided APIs
                  </h2>
                  {desc.providedApis.length === 0 && <p className="text-sm text-slate-600">None.</p>}
                  {desc.providedApis.map((api) => (
                    <div key={api.name} className="rounded border border-slate-200 p-3">
                      <p className="font-medium">
                        {api.displayName || api.kind}{' '}
                        <span className="text-xs text-slate-500">
                          {api.group}/{api.version}
                        </span>
                      </p>
                      {api.description && <p className="text-sm text-slate-700">{api.description}</p>}
                      {api.crd && !d.copiedFrom && (
                        <Link
                          className="text-sm text-sky-700 underline"
                          href={createOperandHref(namespace, name, {
                            group: api.group,
                            version: api.version,
                            plural: api.name.slice(0, api.name.indexOf('.')),
                          })}
                        >
                          Create {api.kind}
                        </Link>
                      )}
                    </div>
                  ))}
                </section>
                <section aria-labelledby="csv-conditions-title">
                  <h2 id="csv-conditions-title" className="mb-1 text-lg font-semibold">
                    Status history
                  </h2>
                  <ConditionsTable
                    rows={[
                      ...((
                        d.csv.status as
                          | {
                              conditions?: {
                                phase?: string;
                                reason?: string;
                                message?: string;
                                lastTransitionTime?: string;
                              }[];
                            }
                          | undefined
                      )?.conditions ?? []),
                    ].reverse()}
                    label="CSV status history"
                    first="Phase"
                  />
                </section>
                {!d.copiedFrom && <MigrateToV1 namespace={namespace} csvName={name} onMoving={setMoving} />}
              </div>
              <dl className="space-y-2 text-sm">
                <div>
                  <dt className="text-slate-600">Version</dt>
                  <dd>{desc.version ?? '—'}</dd>
                </div>
                <div>
                  <dt className="text-slate-600">Provider</dt>
                  <dd>{desc.provider.name || '—'}</dd>
                </div>
                <div>
                  <dt className="text-slate-600">Capability level</dt>
                  <dd>{desc.capability || '—'}</dd>
                </div>
                <div>
                  <dt className="text-slate-600">Managed namespaces</dt>
                  <dd>{managedNamespaces(d.operatorGroup, namespace)}</dd>
                </div>
                <div>
                  <dt className="text-slate-600">OperatorGroup</dt>
                  <dd>
                    {d.operatorGroup
                      ? `${d.operatorGroup.name}${d.operatorGroup.namespace !== namespace ? ` in ${d.operatorGroup.namespace}` : ''}${d.operatorGroup.createdByConsole ? ' (created by the console)' : ''}`
                      : 'none'}
                  </dd>
                </div>
                {desc.containerImage && (
                  <div>
                    <dt className="text-slate-600">Container image</dt>
                    <dd className="[overflow-wrap:anywhere]">{desc.containerImage}</dd>
                  </div>
                )}
              </dl>
            </div>
          )}
          {tab === 'subscription' && !d.subscription && (
            <p className="text-sm text-slate-600">
              {d.copiedFrom
                ? `A copy has no Subscription; the operator's is in ${d.copiedFrom}.`
                : d.replacedBy
                  ? `Subscription ${d.replacedBy.subscription} has moved on to ${d.replacedBy.csv}.`
                  : `No Subscription in ${namespace} names ${name} as its installed or current CSV.`}
            </p>
          )}
          {tab === 'subscription' && d.subscription && (
            <SubscriptionTab
              details={d}
              namespace={namespace}
              onChanged={() => void qc.invalidateQueries({ queryKey: key })}
            />
          )}
          {tab === 'conditions' && (
            <OperatorConditionsTab namespace={namespace} name={name} copiedFrom={d.copiedFrom} />
          )}
          {tab === 'instances' && <InstancesTab namespace={namespace} name={name} />}
          {tab === 'installplans' && <InstallPlansTable namespace={namespace} plans={d.installPlans} />}
          {tab === 'yaml' && (
            <div className="space-y-4">
              {!d.copiedFrom && d.subscription && <GitopsExport namespace={namespace} name={name} />}
              <h2 className="font-semibold">ClusterServiceVersion {name}</h2>
              <YamlBlock object={d.csv} label="CSV YAML" />
              {d.subscription && (
                <>
                  <h2 className="font-semibold">Subscription {d.subscription.object.metadata?.name}</h2>
                  <YamlBlock object={d.subscription.object} label="Subscription YAML" />
                </>
              )}
            </div>
          )}
          {tab === 'events' && <EventsTable events={d.events} />}
        </section>
      </article>
      {dialog}
    </>
  );
}

function managedNamespaces(og: OperatorDetails['operatorGroup'], namespace: string): string {
  if (!og) return '—';
  if (og.targets === 'all') return 'All namespaces';
  // OLM copies a CSV only into namespaces its operator watches; the rest is in a group the person may not read.
  if (!og.targets)
    return `${namespace}, and any others its OperatorGroup in ${og.namespace} names (you may not read it)`;
  return og.targets.join(', ');
}
