'use client';
// One input per scalar field, chosen by the field model's type and widget: text (or password),
// number, a switch or checkbox, a select of the schema's enum or the descriptor's options, a
// namespace picker, a picker of the Secrets, ConfigMaps, StorageClasses or PriorityClasses a field
// names. An emptied input removes its key, so the API server's defaults apply.
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '@/lib/client/api';
import type { NamedKind } from '@/lib/api/object-names';
import type { Field, FieldPath, ReferenceWidget } from '@/lib/olm/operand-form/types';
import { uncheckedPattern } from '@/lib/olm/operand-form/validate';
import { fieldPathString, getAt } from '@/lib/olm/operand-form/values';
import { fieldId, useOperandForm } from './form-context';
import { ObjectNamePicker, type InputProps } from './object-name-picker';

const PICKED_KINDS: Record<ReferenceWidget, NamedKind> = {
  secret: 'secrets',
  configmap: 'configmaps',
  storageclass: 'storageclasses',
  priorityclass: 'priorityclasses',
};

type Scalar = Extract<Field, { type: 'string' | 'integer' | 'number' | 'boolean' }>;

const INPUT = 'w-full max-w-md rounded border border-slate-300 px-2 py-1 text-sm';

function describedBy(path: FieldPath, field: Field): string {
  const id = fieldId(path);
  const ids = [field.description ? `${id}-help` : '', uncheckedPattern(field) ? `${id}-pattern` : '', `${id}-issues`];
  return ids.filter(Boolean).join(' ');
}

function hasIssue(path: FieldPath): (issues: readonly { field: string }[]) => boolean {
  const p = fieldPathString(path);
  return (issues) => issues.some((i) => i.field === p);
}

export function ScalarInput({ field: f, path, label }: { field: Scalar; path: FieldPath; label: string }) {
  const { object, set, issues } = useOperandForm();
  // A list item keeps its place when emptied (removing it is the list's Remove button).
  const inList = typeof path[path.length - 1] === 'number';
  const field = f;
  const value = getAt(object, path);
  const id = fieldId(path);
  // A list item has no <label> of its own: its name is the list's, numbered.
  const common = {
    id,
    'aria-describedby': describedBy(path, field),
    'aria-invalid': hasIssue(path)(issues) || undefined,
    'aria-required': field.required || undefined,
    ...(inList ? { 'aria-label': label } : {}),
  };
  if (field.type === 'boolean') {
    const on = value === true;
    if (field.widget === 'checkbox')
      return (
        <input
          type="checkbox"
          {...common}
          aria-label={label}
          checked={on}
          onChange={(e) => set(path, e.target.checked)}
        />
      );
    return (
      <button
        type="button"
        role="switch"
        {...common}
        aria-label={label}
        aria-checked={on}
        onClick={() => set(path, !on)}
        className={`inline-flex h-5 w-9 items-center rounded-full px-0.5 ${on ? 'bg-sky-700' : 'bg-slate-300'}`}
      >
        <span className={`h-4 w-4 rounded-full bg-white transition ${on ? 'translate-x-4' : ''}`} />
      </button>
    );
  }
  if (field.type === 'integer' || field.type === 'number') {
    return (
      <input
        type="number"
        {...common}
        className={INPUT}
        step={field.type === 'integer' ? 1 : 'any'}
        min={field.minimum}
        max={field.maximum}
        placeholder={field.default !== undefined ? `default: ${String(field.default)}` : undefined}
        value={typeof value === 'number' ? value : ''}
        onChange={(e) => set(path, e.target.value === '' ? (inList ? 0 : undefined) : Number(e.target.value))}
      />
    );
  }
  // Booleans and numbers are handled above: what is left is a string field.
  return (
    <StringInput
      field={field as Extract<Field, { type: 'string' }>}
      path={path}
      common={common}
      value={value}
      inList={inList}
    />
  );
}

/** A scalar as YAML 1.2's core schema reads it: numbers, true/false, else the text. */
function yamlScalar(s: string): string | number | boolean {
  if (s === 'true' || s === 'false') return s === 'true';
  return /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$/.test(s) ? Number(s) : s;
}

function StringInput({
  field,
  path,
  common,
  value,
  inList,
}: {
  field: Extract<Field, { type: 'string' }>;
  path: FieldPath;
  common: InputProps;
  value: unknown;
  inList: boolean;
}) {
  const { set } = useOperandForm();
  const text =
    typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
  // int-or-string (ports, quantities): a whole number is sent as a number, as YAML would; a field
  // of no known type takes numbers and true/false as YAML reads them.
  const typed = (s: string) => (field.untyped ? yamlScalar(s) : field.intOrString && /^-?\d+$/.test(s) ? Number(s) : s);
  const write = (s: string) => set(path, s === '' ? (inList ? '' : undefined) : typed(s));
  if (field.widget === 'select' && field.enum) {
    return (
      <select {...common} className={INPUT} value={text} onChange={(e) => write(e.target.value)}>
        <option value="">{field.default !== undefined ? `(default: ${String(field.default)})` : '(not set)'}</option>
        {field.enum
          .filter((v) => v !== '')
          .map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
      </select>
    );
  }
  if (field.widget === 'namespace') return <NamespacePicker common={common} value={text} onChange={write} />;
  const picks = PICKED_KINDS[field.widget as ReferenceWidget];
  if (picks) return <ObjectNamePicker kind={picks} common={common} value={text} onChange={write} className={INPUT} />;
  return (
    <input
      type={field.widget === 'password' ? 'password' : 'text'}
      {...common}
      className={INPUT}
      value={text}
      autoComplete="off"
      placeholder={
        field.default !== undefined
          ? `default: ${String(field.default)}`
          : field.pattern
            ? `matches ${field.pattern}`
            : undefined
      }
      onChange={(e) => write(e.target.value)}
    />
  );
}

function NamespacePicker({
  common,
  value,
  onChange,
}: {
  common: Record<string, unknown>;
  value: string;
  onChange: (v: string) => void;
}) {
  const list = useQuery({
    queryKey: ['namespaces', ''],
    queryFn: ({ signal }) => apiGet<{ canListAll: boolean; namespaces: { name: string }[] }>('/api/namespaces', signal),
    staleTime: 30_000,
  });
  // A person who may not list namespaces types one.
  if (!list.data?.canListAll)
    return <input type="text" {...common} className={INPUT} value={value} onChange={(e) => onChange(e.target.value)} />;
  return (
    <select {...common} className={INPUT} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">(not set)</option>
      {list.data.namespaces.map((n) => (
        <option key={n.name} value={n.name}>
          {n.name}
        </option>
      ))}
    </select>
  );
}

/** `com.tectonic.ui:resourceRequirements`: CPU and memory limits and requests. */
export function ResourceRequirements({ path, label }: { path: FieldPath; label: string }) {
  const { object, set } = useOperandForm();
  return (
    <div role="group" aria-label={label} className="grid max-w-md grid-cols-2 gap-2">
      {(['limits', 'requests'] as const).flatMap((kind) =>
        (['cpu', 'memory'] as const).map((res) => {
          const p = [...path, kind, res];
          const v = getAt(object, p);
          return (
            <label key={`${kind}-${res}`} className="text-xs text-slate-700">
              {res === 'cpu' ? 'CPU' : 'Memory'} {kind === 'limits' ? 'limit' : 'request'}
              <input
                id={fieldId(p)}
                type="text"
                className={INPUT}
                placeholder={res === 'cpu' ? 'e.g. 500m' : 'e.g. 512Mi'}
                value={typeof v === 'string' || typeof v === 'number' ? String(v) : ''}
                onChange={(e) => set(p, e.target.value || undefined)}
              />
            </label>
          );
        }),
      )}
    </div>
  );
}
