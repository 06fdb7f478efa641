'use client';
// Create an instance of an API an installed operator owns: a form built from the CRD's schema and
// the CSV's spec descriptors (lib/olm/operand-form), started from the CSV's example, with the
// same object as YAML in the other view. Issues the form sees are shown before anything is sent;
// the API server's (a dry run, then the create, both as the person) come back onto the fields.
// A namespaced operand goes to the namespace chosen among those its operator watches (the
// object's metadata.namespace, so both views and the pickers follow it).
import { useMutation, useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useSearchParams } from 'next/navigation';
import { useClusterRouter } from '@/lib/client/cluster';
import { useMemo, useState } from 'react';
import type { OperandFormSource } from '@/lib/api/operand-form';
import { ApiClientError, apiGet, apiWrite } from '@/lib/client/api';
import { defaultOperandNamespace } from '@/lib/olm/operand-form/namespaces';
import { buildFormModel } from '@/lib/olm/operand-form/schema';
import type { FieldIssue, FieldPath } from '@/lib/olm/operand-form/types';
import { issuesFromStatus, validateObject } from '@/lib/olm/operand-form/validate';
import { getAt, initialObject, removeItem, setAt, type Obj } from '@/lib/olm/operand-form/values';
import { ErrorPanel } from '../common/error-panel';
import { ErrorNotice } from '../common/notice';
import { instanceHref } from '../operators/instances-tab';
import { operatorHref } from '../operators/operators-list';
import { FormContext, type OperandFormState } from './form-context';
import { FormView } from './form-view';
import { IssueSummary } from './issue-summary';
import { SyncedYaml } from './synced-yaml';

interface Props {
  namespace: string;
  csv: string;
  group: string;
  version: string;
  plural: string;
}

export function CreateOperand(p: Props) {
  const url = `/api/operators/${[p.namespace, p.csv, 'forms', p.group, p.version, p.plural].map(encodeURIComponent).join('/')}`;
  const q = useQuery({
    queryKey: ['operand-form', p.namespace, p.csv, p.group, p.version, p.plural],
    queryFn: ({ signal }) => apiGet<OperandFormSource>(url, signal),
    staleTime: Infinity,
  });
  if (q.error) {
    return (
      <ErrorPanel
        error={q.error}
        title={`The form to create ${p.plural} could not be built`}
        notFound={`Operator ${p.csv} in ${p.namespace} does not provide ${p.plural} in ${p.group}/${p.version}, or it is gone.`}
        onRetry={() => void q.refetch()}
        back={[
          { href: `/operators/${[p.namespace, p.csv].map(encodeURIComponent).join('/')}`, label: `Back to ${p.csv}` },
        ]}
      />
    );
  }
  if (!q.data) return <p role="status">Reading the API&apos;s schema…</p>;
  // Remounted per API: the object being edited belongs to one form.
  return <Editor {...p} source={q.data} />;
}

function Editor({ namespace, csv, source }: Props & { source: OperandFormSource }) {
  const router = useClusterRouter();
  const params = useSearchParams();
  const view = params.get('view') === 'yaml' ? 'yaml' : 'form';
  const { api } = source;
  const model = useMemo(() => buildFormModel(source.schema, source.specDescriptors), [source]);
  // A cluster-scoped API has no choice to make: the create route's namespace is the page's.
  const home = source.namespaced
    ? defaultOperandNamespace(source.watched, source.operatorNamespace, namespace)
    : namespace;
  const [object, setObject] = useState<Obj>(() =>
    initialObject(api, source.namespaced ? home : undefined, source.example),
  );
  const [attempted, setAttempted] = useState(false);
  const [serverIssues, setServerIssues] = useState<FieldIssue[]>([]);
  const chosen = getAt(object, ['metadata', 'namespace']);
  // The YAML view may drop the key: the API server would then take the request's namespace.
  const target = source.namespaced && typeof chosen === 'string' ? chosen : home;
  const own = useMemo(
    () => [
      ...(target ? [] : [{ field: 'metadata.namespace', message: 'Required value: the namespace to create it in' }]),
      ...validateObject(model, object),
    ],
    [model, object, target],
  );
  // "Required" only once the person tries to create: an empty form is not yet wrong.
  const issues = [...serverIssues, ...(attempted ? own : own.filter((i) => !i.message.startsWith('Required')))];
  const edit = (next: Obj) => {
    setObject(next);
    setServerIssues([]);
  };
  const state: OperandFormState = {
    object,
    issues,
    namespace: target,
    spec: model.spec,
    set: (path: FieldPath, value: unknown) => edit(setAt(object, path, value)),
    removeItem: (path: FieldPath) => edit(removeItem(object, path)),
  };
  const create = useMutation({
    mutationFn: () =>
      apiWrite<{ metadata?: { name?: string } }>(`/api/operands/${encodeURIComponent(target)}`, 'POST', {
        csv,
        operatorNamespace: source.operatorNamespace,
        object,
      }),
    onError: (err) => setServerIssues(err instanceof ApiClientError ? issuesFromStatus(err.body.details) : []),
    onSuccess: (created) =>
      router.push(
        instanceHref(namespace, csv, api, source.namespaced ? target : undefined, created.metadata?.name ?? ''),
      ),
  });
  const submit = () => {
    setAttempted(true);
    if (!own.length) create.mutate();
  };
  const choose = (v: 'form' | 'yaml') =>
    router.replace(`?${new URLSearchParams({ ...Object.fromEntries(params), view: v })}`, { scroll: false });
  return (
    <FormContext.Provider value={state}>
      <div className="space-y-4">
        <h1 className="text-2xl font-semibold">Create {api.displayName}</h1>
        <p className="text-sm">
          <Link className="text-sky-700 underline" href={`${operatorHref(namespace, csv)}?tab=instances`}>
            {csv}
          </Link>{' '}
          · {api.kind} · {api.group}/{api.version}
          {source.namespaced ? <> · in {target || '(no namespace yet)'}</> : <> · cluster-scoped</>}
        </p>
        {api.description && <p className="max-w-3xl text-sm text-slate-700">{api.description}</p>}
        <div role="tablist" aria-label="Edit as" className="flex gap-1 border-b border-slate-300">
          {(['form', 'yaml'] as const).map((v) => (
            <button
              key={v}
              type="button"
              role="tab"
              aria-selected={view === v}
              onClick={() => choose(v)}
              className={`-mb-px border-b-2 px-3 py-1.5 text-sm ${view === v ? 'border-sky-700 font-semibold text-sky-800' : 'border-transparent text-slate-600'}`}
            >
              {v === 'form' ? 'Form' : 'YAML'}
            </button>
          ))}
        </div>
        <div role="tabpanel">
          {view === 'form' ? (
            <FormView
              model={model}
              schemaProblem={source.schemaProblem}
              watched={source.namespaced ? source.watched : undefined}
              copyOf={source.copyOnly ? source.operatorNamespace : undefined}
            />
          ) : (
            <SyncedYaml
              value={object}
              onChange={(v) => edit(v as Obj)}
              label={`${api.kind} YAML`}
              rows={24}
              check={(v) =>
                v && typeof v === 'object' && !Array.isArray(v) ? undefined : 'the YAML must be one object (a mapping)'
              }
            />
          )}
        </div>
        <IssueSummary
          issues={issues}
          title={
            serverIssues.length
              ? 'The API server refused it'
              : `Fix ${issues.length === 1 ? 'this' : 'these'} before creating`
          }
        />
        {create.error && !serverIssues.length && (
          <ErrorNotice error={create.error} what={`Creating the ${api.kind} failed`} />
        )}
        <button
          type="button"
          onClick={submit}
          disabled={create.isPending || create.isSuccess}
          className="rounded bg-sky-700 px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
        >
          {create.isPending ? 'Creating…' : `Create ${api.kind}`}
        </button>
      </div>
    </FormContext.Provider>
  );
}
