'use client';
// After the install: the ClusterExtension's conditions as operator-controller writes them, read
// again every two seconds (the dry run answers an existing extension's conditions) until it is
// Installed or blocked for good, in words, with the way to the extension's page.
import { useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { apiWrite } from '@/lib/client/api';
import type { V1InstallRequestBody, V1Notice, V1PlanAnswer } from '@/lib/api/olm-v1-install';
import { ConditionsTable } from '../../common/conditions-table';
import { ErrorNotice } from '../../common/notice';

type Cond = { type: string; status: string; reason?: string; message?: string };

function verdict(conditions: Cond[]): { done: boolean; text: string } {
  const installed = conditions.find((c) => c.type === 'Installed');
  const progressing = conditions.find((c) => c.type === 'Progressing');
  if (installed?.status === 'True') return { done: true, text: `Installed: ${installed.message ?? ''}` };
  if (progressing?.status === 'False' && progressing.reason === 'Blocked')
    return { done: true, text: `Blocked, v1 will not retry: ${progressing.message ?? ''}` };
  if (progressing?.reason === 'Retrying')
    return { done: false, text: `Not installed yet, v1 retries: ${progressing.message ?? ''}` };
  return { done: false, text: 'Waiting for operator-controller…' };
}

export function InstallFollow({ body, notices = [] }: { body: V1InstallRequestBody; notices?: V1Notice[] }) {
  const q = useQuery({
    queryKey: ['v1-install-follow', body],
    queryFn: () => apiWrite<V1PlanAnswer>('/api/olm-v1/clusterextensions/plan', 'POST', body),
    refetchInterval: (query) => (verdict(query.state.data?.plan.existing?.conditions ?? []).done ? false : 2000),
  });
  const conditions = q.data?.plan.existing?.conditions ?? [];
  const v = verdict(conditions);
  return (
    <section aria-labelledby="follow-title" className="space-y-3 rounded border border-sky-200 bg-sky-50 p-3">
      <h2 id="follow-title" className="text-lg font-semibold">
        ClusterExtension {body.name} created
      </h2>
      <p role="status" className="text-sm [overflow-wrap:anywhere]">
        {v.text}
      </p>
      {notices.map((n) => (
        <p key={n.message} className="text-sm text-amber-900 [overflow-wrap:anywhere]">
          {n.message}
        </p>
      ))}
      {q.error && <ErrorNotice error={q.error} what="The extension could not be read" />}
      <ConditionsTable rows={conditions} label={`Conditions of ${body.name}`} />
      <Link className="text-sky-700 underline" href={`/clusterextensions/${encodeURIComponent(body.name)}`}>
        Open ClusterExtension {body.name}
      </Link>
    </section>
  );
}
