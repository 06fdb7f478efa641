'use client';
// The two small forms of the ClusterCatalogs page: adding a catalog from an image reference, and
// changing one's priority and poll interval. Both send what the person typed as it is; the server
// and the API server judge it, and their refusal is shown in their words with nothing changed.
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { ClusterCatalogRow } from '@/lib/api/olm-v1-catalogs';
import { apiWrite } from '@/lib/client/api';
import { ErrorNotice } from '../common/notice';

const INPUT = 'w-full rounded border border-slate-400 px-2 py-1 text-sm';
const PRIMARY =
  'rounded bg-sky-700 px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600';
const SECONDARY = 'rounded border border-slate-300 px-3 py-1.5 text-sm';

/**
 * A number field's value for the API: empty is "not given"; a number is sent as one; anything else
 * is sent as typed, for the server to refuse with the field's name (NaN would become null, "unset").
 */
function numberOf(text: string): number | string | undefined {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

function Field({ label, hint, children }: { label: string; hint?: string; children: (id: string) => React.ReactNode }) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children(id)}
      {hint && <p className="text-xs text-slate-600">{hint}</p>}
    </div>
  );
}

/** A number typed as text (see numberOf), with its label and hint. */
function NumberField(props: { label: string; hint: string; value: string; onChange: (v: string) => void }) {
  return (
    <Field label={props.label} hint={props.hint}>
      {(id) => (
        <input
          id={id}
          className={INPUT}
          inputMode="numeric"
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/** The form's buttons: one to send, disabled while it is on its way, and Cancel. */
function FormButtons({ label, pending, onCancel }: { label: string; pending: boolean; onCancel: () => void }) {
  return (
    <div className="flex gap-2">
      <button type="submit" className={PRIMARY} disabled={pending}>
        {label}
      </button>
      <button type="button" className={SECONDARY} onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

export function AddClusterCatalog({ onDone, onCancel }: { onDone: (m: string) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [imageRef, setImageRef] = useState('');
  const [priority, setPriority] = useState('');
  const [poll, setPoll] = useState('');
  const add = useMutation({
    mutationFn: () =>
      apiWrite('/api/olm-v1/clustercatalogs', 'POST', {
        name,
        imageRef,
        priority: numberOf(priority),
        pollIntervalMinutes: numberOf(poll),
      }),
    onSuccess: () => onDone(`Added ClusterCatalog ${name}; catalogd now pulls ${imageRef}.`),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate();
  };
  return (
    <form aria-label="Add a ClusterCatalog" onSubmit={submit} className="space-y-3 rounded border border-slate-300 p-3">
      <h2 className="font-semibold">Add a ClusterCatalog</h2>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Name" hint="Lowercase letters, digits and “-”.">
          {(id) => <input id={id} className={INPUT} value={name} onChange={(e) => setName(e.target.value)} required />}
        </Field>
        <Field label="Image reference" hint="With its registry, and a tag or a digest: quay.io/org/catalog:v4.18">
          {(id) => (
            <input id={id} className={INPUT} value={imageRef} onChange={(e) => setImageRef(e.target.value)} required />
          )}
        </Field>
        <NumberField
          label="Priority"
          hint="Optional; higher wins when two catalogs offer the same bundle. Default 0."
          value={priority}
          onChange={setPriority}
        />
        <NumberField
          label="Poll interval (minutes)"
          hint="Optional; unset: catalogd never checks the tag again."
          value={poll}
          onChange={setPoll}
        />
      </div>
      {add.error && <ErrorNotice error={add.error} what="The catalog was not added" />}
      <FormButtons label="Add catalog" pending={add.isPending} onCancel={onCancel} />
    </form>
  );
}

export function EditClusterCatalog({
  row,
  onDone,
  onCancel,
}: {
  row: ClusterCatalogRow;
  onDone: (m: string) => void;
  onCancel: () => void;
}) {
  const [priority, setPriority] = useState(String(row.priority));
  const [poll, setPoll] = useState(row.pollIntervalMinutes === undefined ? '' : String(row.pollIntervalMinutes));
  const save = useMutation({
    mutationFn: () =>
      apiWrite(`/api/olm-v1/clustercatalogs/${encodeURIComponent(row.name)}`, 'PATCH', {
        seen: row.generation,
        priority: numberOf(priority),
        pollIntervalMinutes: numberOf(poll) ?? null,
      }),
    onSuccess: () => onDone(`Saved ClusterCatalog ${row.name}.`),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form
      aria-label={`Edit ClusterCatalog ${row.name}`}
      onSubmit={submit}
      className="space-y-3 rounded border border-slate-300 p-3"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <NumberField
          label="Priority"
          hint="Higher wins when two catalogs offer the same bundle."
          value={priority}
          onChange={setPriority}
        />
        <NumberField
          label="Poll interval (minutes)"
          hint="Empty: never check the tag again. Not allowed with a digest."
          value={poll}
          onChange={setPoll}
        />
      </div>
      {save.error && <ErrorNotice error={save.error} what="Nothing was changed" />}
      <FormButtons label="Save" pending={save.isPending} onCancel={onCancel} />
    </form>
  );
}
