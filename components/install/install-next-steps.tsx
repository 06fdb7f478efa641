'use client';
// What an install page offers once the operator runs: the operator's page, a create form for each
// API it owns, the resource it asks for to start working (created in one click, or read first),
// and — under Manual approval — the next upgrade OLM already planned and waits to have approved.
import { useMutation } from '@tanstack/react-query';
import { dump } from 'js-yaml';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useState } from 'react';
import { apiWrite } from '@/lib/client/api';
import { waitingUpgrade, type SubscriptionProgress } from '@/lib/olm/status/install-progress';
import { installPlanHref } from '../common/badges';
import { ErrorNotice } from '../common/notice';
import { createOperandHref } from '../operators/create-href';
import { operatorHref } from '../operators/operators-list';

type InstalledCsv = NonNullable<SubscriptionProgress['csv']>;

const PRIMARY = [
  'rounded bg-sky-700 px-4 py-1.5 font-semibold text-white hover:bg-sky-800',
  'disabled:bg-slate-300 disabled:text-slate-600',
].join(' ');
const SECONDARY = 'inline-block rounded border border-sky-700 px-3 py-1 font-semibold text-sky-800 hover:bg-sky-50';

export function InstallNextSteps({ namespace, progress }: { namespace: string; progress: SubscriptionProgress }) {
  const csv = progress.csv!;
  const owned = csv.ownedApis ?? [];
  const next = waitingUpgrade(progress);
  return (
    <>
      <section aria-labelledby="next-title" className="space-y-3 rounded border border-slate-200 bg-white p-4">
        <h2 id="next-title" className="text-lg font-semibold">
          What next
        </h2>
        <p className="flex flex-wrap items-center gap-3 text-sm">
          <Link href={operatorHref(namespace, csv.name)} className={PRIMARY}>
            View operator
          </Link>
          <span className="text-slate-700 [overflow-wrap:anywhere]">
            {csv.name} in {namespace}: its status, Subscription, instances and events.
          </span>
        </p>
        {owned.length > 0 && (
          <div className="space-y-1 text-sm">
            <p className="text-slate-700">Create what the operator manages:</p>
            <ul className="flex flex-wrap gap-2">
              {owned.map((api) => (
                <li key={`${api.group}/${api.plural}`}>
                  <Link href={createOperandHref(namespace, csv.name, api)} className={SECONDARY}>
                    Create {api.kind}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>
      {next && (
        <section aria-labelledby="waiting-title" className="space-y-1 rounded border border-amber-300 bg-amber-50 p-4">
          <h2 id="waiting-title" className="text-lg font-semibold">
            The next upgrade already waits for approval
          </h2>
          <p className="text-sm [overflow-wrap:anywhere]">
            With Manual approval OLM plans the next version as soon as an install is done: InstallPlan {next.plan}
            {next.csvNames.length ? ` would install ${next.csvNames.join(', ')}` : ''}. That is why the Subscription
            says InstallPlanPending=True below; {csv.name} runs meanwhile, and nothing changes until someone approves
            the plan.
          </p>
          <Link className="text-sm font-semibold text-sky-800 underline" href={installPlanHref(namespace, next.plan)}>
            Review the upgrade
          </Link>
        </section>
      )}
      {csv.initializationResource && (
        <CreateInitResource namespace={namespace} csv={csv.name} resource={csv.initializationResource} />
      )}
    </>
  );
}

interface InitProps {
  namespace: string;
  csv: string;
  resource: NonNullable<InstalledCsv['initializationResource']>;
}

function CreateInitResource({ namespace, csv, resource }: InitProps) {
  const [show, setShow] = useState(false);
  const url = `/api/operands/${encodeURIComponent(namespace)}`;
  const create = useMutation({
    mutationFn: () => apiWrite<{ metadata?: { name?: string } }>(url, 'POST', { csv, object: resource.object }),
  });
  return (
    <section aria-labelledby="init-title" className="space-y-2 rounded border border-slate-200 bg-white p-4">
      <h2 id="init-title" className="text-lg font-semibold">
        The operator asks for a {resource.kind}
      </h2>
      <p className="text-sm text-slate-700">It starts working once one exists. Its bundle suggests this one:</p>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          className={PRIMARY}
          disabled={create.isPending || create.isSuccess}
          onClick={() => create.mutate()}
        >
          Create the suggested {resource.kind}
        </button>
        <button
          type="button"
          className="text-sm text-sky-700 underline"
          aria-expanded={show}
          onClick={() => setShow(!show)}
        >
          {show ? 'Hide YAML' : 'View YAML'}
        </button>
      </div>
      {show && (
        <pre className="whitespace-pre-wrap rounded bg-slate-900 p-3 text-xs text-slate-100 [overflow-wrap:anywhere]">
          {dump(resource.object)}
        </pre>
      )}
      {create.isSuccess && (
        <p role="status" className="text-sm text-emerald-800">
          Created {resource.kind} {create.data.metadata?.name} in {namespace}.
        </p>
      )}
      {create.error && <ErrorNotice error={create.error} what={`Creating the ${resource.kind} failed`} />}
    </section>
  );
}
