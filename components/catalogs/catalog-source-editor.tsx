'use client';
// Adding a catalog by its index image, or editing an image-backed one: the fields OLM reads,
// checked as the person types (the same rules the server applies, lib/olm/catalog), then the
// server's plan (the exact CatalogSource, or the fields that change, and what OLM then does), then
// the write as the person. An edit names the generation read, so someone else's change since
// is refused, not overwritten.
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type {
  CatalogSourceApplied,
  CatalogSourceChange,
  CatalogSourceForm,
  CatalogSourcePlan,
  CatalogSourceRow,
} from '@/lib/api/catalog-sources';
import { apiWrite } from '@/lib/client/api';
import { formProblems } from '@/lib/olm/catalog/catalog-source-form';
import { ErrorNotice, Warning } from '../common/notice';
import { StackedCell, StackedRow, StackedTable } from '../common/stacked-table';
import { YamlBlock } from '../common/yaml-block';
import { PlanSubscriptions } from './plan-subscriptions';

const EMPTY: CatalogSourceForm = { image: '', displayName: '', publisher: '', priority: 0, pollInterval: '10m' };
const NAME = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** A labelled input whose hint or error is its description, not part of its name. */
function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: string;
  error?: string;
  children: (a: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => React.ReactNode;
}) {
  const id = useId();
  const note = error ?? hint;
  return (
    <div className="flex flex-col text-sm">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      {children({
        id,
        ...(note ? { 'aria-describedby': `${id}-note` } : {}),
        ...(error ? { 'aria-invalid': true } : {}),
      })}
      {note && (
        <span id={`${id}-note`} className={`mt-1 text-xs ${error ? 'text-red-800' : 'text-slate-600'}`}>
          {note}
        </span>
      )}
    </div>
  );
}

export function CatalogSourceEditor({
  row,
  globalNamespaces,
  onDone,
  onCancel,
}: {
  row?: CatalogSourceRow;
  globalNamespaces: string[];
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const editing = !!row;
  const [form, setForm] = useState<CatalogSourceForm>(row?.form ?? EMPTY);
  const [name, setName] = useState(row?.name ?? '');
  const [namespace, setNamespace] = useState(row?.namespace ?? globalNamespaces[0] ?? '');
  const [plan, setPlan] = useState<CatalogSourcePlan | null>(null);
  const problems = formProblems(form);
  const nameProblem = editing
    ? undefined
    : !name
      ? 'a name for the CatalogSource'
      : name.length > 63 || !NAME.test(name)
        ? 'lowercase letters, digits and "-", starting with a letter (OLM names its Service after it)'
        : undefined;
  const nsProblem = !namespace || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(namespace) ? 'a namespace name' : undefined;
  const invalid = Object.keys(problems).length > 0 || !!nameProblem || !!nsProblem;
  const change: CatalogSourceChange = editing
    ? { action: 'update', namespace, name, source: form, seen: String(row.generation ?? '') }
    : { action: 'create', namespace, name, source: form };
  const review = useMutation({
    mutationFn: () => apiWrite<CatalogSourcePlan>('/api/catalogsources/plan', 'POST', change),
    onSuccess: setPlan,
  });
  const apply = useMutation({
    mutationFn: () =>
      editing
        ? apiWrite<CatalogSourceApplied>(
            `/api/catalogsources/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`,
            'PUT',
            { source: form, seen: String(row.generation ?? '') },
          )
        : apiWrite<CatalogSourceApplied>('/api/catalogsources', 'POST', { namespace, name, source: form }),
    onSuccess: () =>
      onDone(
        editing
          ? `Saved catalog source ${namespace}/${name}.`
          : `Created catalog source ${namespace}/${name}: OLM is pulling its image.`,
      ),
  });
  const set = (patch: Partial<CatalogSourceForm>) => {
    setPlan(null);
    setForm((f) => ({ ...f, ...patch }));
  };
  const title = editing ? `Edit catalog source ${row.namespace}/${row.name}` : 'Add a catalog source';

  return (
    <section aria-label={title} className="space-y-4 rounded-lg border border-slate-300 bg-white p-4">
      <h2 className="text-lg font-semibold">{title}</h2>
      <form
        className="grid gap-3 sm:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (!invalid) review.mutate();
        }}
      >
        {!editing && (
          <>
            <Field
              label="Name"
              error={name ? nameProblem : undefined}
              hint="The CatalogSource's name; Subscriptions name it as their source."
            >
              {(a) => (
                <input
                  {...a}
                  value={name}
                  onChange={(e) => {
                    setPlan(null);
                    setName(e.target.value.trim());
                  }}
                  className="rounded border border-slate-300 px-2 py-1.5"
                />
              )}
            </Field>
            <Field
              label="Namespace"
              error={nsProblem}
              hint={
                globalNamespaces.length
                  ? `${globalNamespaces.join(', ')}: catalogs there serve every namespace; elsewhere only their own.`
                  : undefined
              }
            >
              {(a) => (
                <>
                  <input
                    {...a}
                    list="catalog-namespaces"
                    value={namespace}
                    onChange={(e) => {
                      setPlan(null);
                      setNamespace(e.target.value.trim());
                    }}
                    className="rounded border border-slate-300 px-2 py-1.5"
                  />
                  <datalist id="catalog-namespaces">
                    {globalNamespaces.map((n) => (
                      <option key={n} value={n} />
                    ))}
                  </datalist>
                </>
              )}
            </Field>
          </>
        )}
        <div className="sm:col-span-2">
          <Field
            label="Index image"
            error={form.image ? problems.image : undefined}
            hint="The catalog's index image, for example quay.io/acme/catalog:latest or …@sha256:digest."
          >
            {(a) => (
              <input
                {...a}
                value={form.image}
                onChange={(e) => set({ image: e.target.value })}
                className="rounded border border-slate-300 px-2 py-1.5 font-mono"
              />
            )}
          </Field>
        </div>
        <Field label="Display name" error={problems.displayName} hint="Shown in OperatorHub as the catalog's name.">
          {(a) => (
            <input
              {...a}
              value={form.displayName}
              onChange={(e) => set({ displayName: e.target.value })}
              className="rounded border border-slate-300 px-2 py-1.5"
            />
          )}
        </Field>
        <Field label="Publisher" error={problems.publisher}>
          {(a) => (
            <input
              {...a}
              value={form.publisher}
              onChange={(e) => set({ publisher: e.target.value })}
              className="rounded border border-slate-300 px-2 py-1.5"
            />
          )}
        </Field>
        <Field
          label="Priority"
          error={problems.priority}
          hint="When two catalogs offer the same package, OLM prefers the higher priority (0 by default)."
        >
          {(a) => (
            <input
              {...a}
              type="number"
              step={1}
              value={Number.isFinite(form.priority) ? form.priority : ''}
              onChange={(e) => set({ priority: e.target.value === '' ? 0 : Number(e.target.value) })}
              className="rounded border border-slate-300 px-2 py-1.5"
            />
          )}
        </Field>
        <Field
          label="Polling interval"
          error={problems.pollInterval}
          hint="How often OLM pulls the image again for new versions (10m, 1h). Empty: pulled once."
        >
          {(a) => (
            <input
              {...a}
              value={form.pollInterval ?? ''}
              onChange={(e) => set({ pollInterval: e.target.value })}
              className="rounded border border-slate-300 px-2 py-1.5 font-mono"
            />
          )}
        </Field>
        <div className="flex gap-2 sm:col-span-2">
          <button
            type="submit"
            disabled={invalid || review.isPending}
            className="rounded bg-sky-700 px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
          >
            {review.isPending ? 'Planning…' : 'Review'}
          </button>
          <button type="button" onClick={onCancel} className="rounded border border-slate-300 px-3 py-1.5 text-sm">
            Cancel
          </button>
        </div>
      </form>
      {review.error && <ErrorNotice error={review.error} what="The change could not be planned" />}
      {plan && (
        <section aria-label="What the change will do" className="space-y-3">
          {!plan.allowed.allowed && (
            <p role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
              You may not do this: {plan.allowed.reason}
            </p>
          )}
          <Warning title="What OLM does then">
            <ul className="list-disc space-y-1 pl-5">
              {plan.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </Warning>
          <PlanSubscriptions plan={plan} />
          {plan.changes
            ? plan.changes.length > 0 && (
                <StackedTable label="Changes" columns={['Field', 'Now', 'After']}>
                  {plan.changes.map((c) => (
                    <StackedRow key={c.field} className="font-mono text-xs">
                      <StackedCell label="Field">{c.field}</StackedCell>
                      <StackedCell label="Now">{c.from === undefined ? '—' : JSON.stringify(c.from)}</StackedCell>
                      <StackedCell label="After">{c.to === undefined ? '(removed)' : JSON.stringify(c.to)}</StackedCell>
                    </StackedRow>
                  ))}
                </StackedTable>
              )
            : plan.object && (
                <>
                  <p className="text-sm text-slate-700">Created in the cluster as you:</p>
                  <YamlBlock object={plan.object} label="CatalogSource to create" />
                </>
              )}
          {apply.error && (
            <ErrorNotice
              error={apply.error}
              what={editing ? 'The catalog source was not changed' : 'The catalog source was not created'}
            />
          )}
          <button
            type="button"
            disabled={
              !plan.allowed.allowed || apply.isPending || (plan.changes !== undefined && plan.changes.length === 0)
            }
            onClick={() => apply.mutate()}
            className="rounded bg-sky-700 px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
          >
            {apply.isPending ? 'Writing…' : editing ? 'Save changes' : 'Create catalog source'}
          </button>
        </section>
      )}
    </section>
  );
}
