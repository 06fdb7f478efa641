'use client';
// One InstallPlan: phase, approval, the CSVs it installs and every operator it touches, what each
// upgrade in it changes (before Approve), its steps grouped by kind with each step's status and
// manifest; Approve and Deny, after which the focus goes to the sentence saying what happened (the
// buttons are gone). A plan that changed since it was read (approved by someone else, replaced) is
// reloaded, and the page says so.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useEffect, useRef, useState } from 'react';
import type { DenyAnswer, InstallPlanDetails } from '@/lib/api/install-plans';
import { apiGet, apiWrite, ApiClientError } from '@/lib/client/api';
import { useLiveRefresh } from '@/lib/client/live';
import { usePermission } from '@/lib/client/permissions';
import { Badge } from '../common/badges';
import { ErrorPanel } from '../common/error-panel';
import { ErrorNotice } from '../common/notice';
import { RelativeTime } from '../common/relative-time';
import { StackedCell, StackedRow, StackedTable } from '../common/stacked-table';
import { YamlBlock } from '../common/yaml-block';
import { PermissionFailureNotice } from '../common/permission-failure';
import { MoveOperator, MoveOutcome, type MoveState } from './move-operator';
import { PlanChanges } from './plan-changes';

const APPROVED = 'rounded border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900';
const GROUP_TITLES: Record<string, string> = {
  ClusterServiceVersion: 'ClusterServiceVersions',
  CustomResourceDefinition: 'CustomResourceDefinitions',
  RBAC: 'RBAC and service accounts',
  Subscription: 'Subscriptions',
  Other: 'Other resources',
};

export function InstallPlanView({ namespace, name }: { namespace: string; name: string }) {
  const key = ['installplan', namespace, name];
  const qc = useQueryClient();
  const plan = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      apiGet<InstallPlanDetails>(
        `/api/installplans/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`,
        signal,
      ),
  });
  const done = plan.data?.summary.done ?? false;
  useLiveRefresh(key, namespace, ['installplans', 'subscriptions'], !done && !plan.error);
  const perm = usePermission(namespace, 'approveInstallPlan');
  const [stale, setStale] = useState<string | undefined>();
  const [open, setOpen] = useState<string | undefined>();
  const [moving, setMoving] = useState<string | undefined>();
  // Kept here, not in the form: the move deletes this plan, and the form goes with it.
  const [moveState, setMoveState] = useState<MoveState | undefined>();
  const outcome = useRef<HTMLParagraphElement>(null);
  const act = (verb: 'approve' | 'deny') =>
    apiWrite<DenyAnswer>(
      `/api/installplans/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/${verb}`,
      'POST',
      {
        resourceVersion: plan.data?.plan.metadata?.resourceVersion,
        clusterServiceVersionNames: plan.data?.plan.spec.clusterServiceVersionNames,
      },
    );
  const onError = (err: Error) => {
    // 409: the plan moved on since this page read it; read it again and say what happened.
    if (err instanceof ApiClientError && err.code === 409)
      setStale(err.message.replace(/; reload it and try again$/, ''));
    void qc.invalidateQueries({ queryKey: key });
  };
  const approve = useMutation({
    mutationFn: () => act('approve'),
    onSuccess: () => {
      setStale(undefined);
      void qc.invalidateQueries({ queryKey: key });
    },
    onError,
  });
  const deny = useMutation({
    mutationFn: () => act('deny'),
    onSuccess: () => {
      setStale(undefined);
      void qc.invalidateQueries({ queryKey: key });
    },
    onError,
  });

  useEffect(() => {
    if (approve.isSuccess || deny.isSuccess) outcome.current?.focus();
  }, [approve.isSuccess, deny.isSuccess]);

  if (plan.error && moveState?.state === 'moved' && plan.error instanceof ApiClientError && plan.error.code === 404) {
    // The move deleted this plan, as its steps say: not an error to the person who moved.
    return (
      <div className="space-y-4">
        <MoveOutcome move={moveState} />
        <p className="text-sm text-slate-700">
          InstallPlan {name} is gone: the move deleted it. OLM plans {namespace} again for the operators left there,
          without {moveState.subscription}:{' '}
          <Link className="text-sky-700 underline" href={`/operators?namespace=${encodeURIComponent(namespace)}`}>
            Installed Operators in {namespace}
          </Link>
          .
        </p>
      </div>
    );
  }
  if (plan.error) {
    return (
      <div className="space-y-4">
        {moveState && <MoveOutcome move={moveState} />}
        <ErrorPanel
          error={plan.error}
          title={`InstallPlan ${name} could not be read`}
          notFound={
            `There is no InstallPlan ${name} in ${namespace}: ` +
            'OLM deletes old plans, and a plan is replaced when the Subscription is resolved again.'
          }
          onRetry={() => void plan.refetch()}
          back={[
            {
              href: `/operators?namespace=${encodeURIComponent(namespace)}`,
              label: `Installed Operators in ${namespace}`,
            },
          ]}
        />
      </div>
    );
  }
  if (!plan.data) return <p role="status">Loading InstallPlan {name}…</p>;
  const { summary, subscriptions, stepGroups, denied, parts } = plan.data;
  const installs = summary.csvNames.join(', ') || 'the operator';
  const blocked =
    perm.allowed === false
      ? `You may not approve InstallPlans in ${namespace}: ${perm.reason ?? 'the cluster refused'}`
      : undefined;

  return (
    <article className="space-y-5">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <Link className="text-sky-700 underline" href={`/operators?namespace=${encodeURIComponent(namespace)}`}>
          Installed Operators
        </Link>{' '}
        / InstallPlan {name}
      </nav>
      <header className="space-y-1">
        <h1 className="text-2xl font-bold">InstallPlan {name}</h1>
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <Badge
            tone={
              summary.needsApproval ? 'warning' : summary.phase === 'Failed' ? 'error' : summary.done ? 'ok' : 'info'
            }
          >
            {summary.label}
          </Badge>
          <span>
            {summary.manual ? 'Manual approval' : 'Automatic approval'}
            {summary.approved ? ', approved' : ''}
          </span>
          <span className="text-slate-600">in {namespace}</span>
        </p>
        <p className="text-sm [overflow-wrap:anywhere]">
          Installs {summary.csvNames.join(', ') || 'nothing named yet'}.
        </p>
        {subscriptions.length > 0 && (
          <p className="text-sm">
            {subscriptions.length > 1
              ? `Shared by ${subscriptions.length} operators (OLM plans colocated operators together): `
              : 'For subscription '}
            {subscriptions.join(', ')}.
          </p>
        )}
        {summary.message && <p className="text-sm text-red-800">{summary.message}</p>}
      </header>
      <PermissionFailureNotice message={summary.message} namespace={namespace} />
      {moveState && !(parts.length > 1 && summary.needsApproval && moving) && <MoveOutcome move={moveState} />}
      {parts.length > 1 && (
        <section
          aria-label="Operators in this plan"
          className="space-y-2 rounded border border-sky-200 bg-sky-50 px-3 py-2 text-sm"
        >
          <h2 className="font-semibold">{parts.length} operators&apos; changes in one plan</h2>
          <p>
            OLM resolves a namespace as a whole and writes one InstallPlan for everything it found to do there, so{' '}
            {summary.needsApproval
              ? 'approving this plan approves all of these; denying it holds them all back'
              : 'these went together'}
            :
          </p>
          <ul className="list-disc pl-5">
            {parts.map((p) => (
              <li key={p.csv}>
                <strong>{p.csv}</strong>{' '}
                {p.change === 'upgrade'
                  ? `upgrades ${p.from} (Subscription ${p.subscription})`
                  : p.change === 'install'
                    ? `installs for Subscription ${p.subscription}`
                    : p.change === 'dependency'
                      ? 'is a dependency: the plan creates its Subscription'
                      : 'is named by no Subscription yet: OLM writes the plan first, then the Subscription moving to it'}{' '}
                — {p.steps} step{p.steps === 1 ? '' : 's'} (
                {Object.entries(p.kinds)
                  .map(([k, n]) => `${n} ${k}`)
                  .join(', ')}
                )
              </li>
            ))}
          </ul>
          {summary.needsApproval && (
            <>
              <p className="text-slate-700">
                To approve one operator&apos;s change without the others, the operators have to be in different
                namespaces: OLM plans each namespace on its own. The console can plan that move:
              </p>
              <div className="flex flex-wrap gap-2">
                {parts
                  .filter((p) => p.subscription)
                  .map((p) => (
                    <button
                      key={p.subscription}
                      type="button"
                      disabled={moving !== undefined}
                      onClick={() => setMoving(p.subscription)}
                      className="rounded border border-sky-300 bg-white px-2.5 py-1 text-sm text-sky-900 disabled:text-slate-400"
                    >
                      Move {p.subscription} to its own namespace…
                    </button>
                  ))}
              </div>
              {moving && moveState?.state !== 'moved' && (
                <MoveOperator
                  namespace={namespace}
                  subscription={moving}
                  onCancel={() => setMoving(undefined)}
                  onMove={setMoveState}
                />
              )}
              {moveState && moveState.state !== 'moving' && <MoveOutcome move={moveState} />}
            </>
          )}
        </section>
      )}
      {stale && (
        <p role="alert" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm">
          The plan changed since this page read it, so nothing was done: {stale}. It has been read again; check it and
          act again if you still want to.
        </p>
      )}
      {denied && summary.needsApproval && (
        <p role="note" className="rounded border border-slate-300 bg-slate-50 px-3 py-2 text-sm">
          Denied{denied.by ? ` by ${denied.by}` : ''}
          {denied.at ? (
            <>
              {' '}
              <RelativeTime iso={denied.at} />
            </>
          ) : (
            ''
          )}
          : it stays unapproved, OLM installs nothing from it and the operators stay on their current versions.
        </p>
      )}
      {approve.isSuccess && (
        <p ref={outcome} tabIndex={-1} role="status" className={APPROVED}>
          Approved.{' '}
          {summary.done
            ? `The plan is complete: ${summary.csvNames.join(', ')} installed.`
            : `OLM is now creating what the plan lists below; this page follows it until ${installs} is installed.`}
        </p>
      )}
      {deny.isSuccess && (
        <p ref={outcome} tabIndex={-1} role="status" className="text-sm">
          {deny.data.explanation}
        </p>
      )}
      {summary.needsApproval && parts.some((p) => p.change === 'upgrade') && (
        <PlanChanges namespace={namespace} name={name} resourceVersion={plan.data.plan.metadata?.resourceVersion} />
      )}
      {summary.needsApproval && (
        <div className="space-y-1">
          <div className="flex gap-3">
            <button
              type="button"
              disabled={!!blocked || approve.isPending}
              onClick={() => approve.mutate()}
              className="rounded bg-sky-700 px-4 py-1.5 font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
            >
              Approve
            </button>
            <button
              type="button"
              disabled={!!blocked || deny.isPending || !!denied}
              onClick={() => deny.mutate()}
              className="rounded border border-slate-300 px-4 py-1.5 disabled:text-slate-400"
            >
              Deny
            </button>
          </div>
          {blocked && <p className="text-xs text-slate-600">{blocked}</p>}
          <p className="text-xs text-slate-600">
            Approve lets OLM create everything below. Deny records that you refused it; OLM has no &quot;denied&quot;
            state, so the plan stays waiting and nothing is installed from it.
          </p>
        </div>
      )}
      {approve.error && !stale && <ErrorNotice error={approve.error} what="Approving failed" />}
      {deny.error && !stale && <ErrorNotice error={deny.error} what="Denying failed" />}

      {stepGroups.map((g) => (
        <section key={g.group} aria-labelledby={`group-${g.group}`} className="space-y-1">
          <h2 id={`group-${g.group}`} className="text-lg font-semibold">
            {GROUP_TITLES[g.group] ?? g.group}{' '}
            <span className="text-sm font-normal text-slate-600">
              ({g.done} of {g.steps.length} done)
            </span>
          </h2>
          <StepsTable group={g} open={open} onToggle={(id) => setOpen(open === id ? undefined : id)} />
        </section>
      ))}
    </article>
  );
}

type StepGroup = InstallPlanDetails['stepGroups'][number];

/** One kind's steps: the object, its status, its manifest on demand (stacked rows on a phone). */
interface StepsProps {
  group: StepGroup;
  open: string | undefined;
  onToggle: (id: string) => void;
}

function stepTone(status: string): string {
  if (status === 'Created' || status === 'Present') return 'ok';
  return status === 'Unknown' || status === 'NotPresent' ? 'neutral' : 'info';
}

function StepsTable({ group: g, open, onToggle }: StepsProps) {
  return (
    <StackedTable label={GROUP_TITLES[g.group] ?? g.group} columns={['Kind', 'Name', 'Status', 'Manifest']}>
      {g.steps.flatMap((s, i) => {
        const id = `${g.group}-${i}`;
        const row = (
          <StackedRow key={id}>
            <StackedCell label="Kind">{s.resource.kind}</StackedCell>
            <StackedCell label="Name" className="font-medium">
              {s.resource.name}
            </StackedCell>
            <StackedCell label="Status">
              <Badge tone={stepTone(s.status)}>{s.status}</Badge>
            </StackedCell>
            <StackedCell label="Manifest">
              <button
                type="button"
                className="text-left text-sky-700 underline"
                aria-expanded={open === id}
                onClick={() => onToggle(id)}
              >
                {open === id ? 'Hide manifest' : `View manifest of ${s.resource.name}`}
              </button>
            </StackedCell>
          </StackedRow>
        );
        if (open !== id) return [row];
        return [
          row,
          <tr key={`${id}-manifest`} role="row" className="@max-3xl:block">
            <td role="cell" colSpan={4} className="pb-3 @max-3xl:block">
              {s.manifest.form === 'object' && (
                <YamlBlock object={s.manifest.object} label={`${s.resource.kind} ${s.resource.name}`} />
              )}
              {s.manifest.form === 'reference' && (
                <p className="text-xs">
                  Unpacked from the bundle into ConfigMap {s.manifest.reference.namespace}/{s.manifest.reference.name}.
                </p>
              )}
              {s.manifest.form === 'missing' && (
                <p className="text-xs text-slate-600">OLM has not attached a manifest to this step.</p>
              )}
              {s.manifest.form === 'invalid' && (
                <p className="text-xs text-red-800">The manifest could not be read: {s.manifest.error}</p>
              )}
            </td>
          </tr>,
        ];
      })}
    </StackedTable>
  );
}
