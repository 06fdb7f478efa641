'use client';
// The create form's fields, one component per shape of the field model: an object's fields (the
// advanced ones folded away), a list with add and remove, a map of keys to values, a scalar with
// its label, help and issues, and what only YAML can edit. Catalog text (descriptions) is shown
// as plain text.
import { dependencyMet } from '@/lib/olm/operand-form/dependencies';
import type { Field, FieldPath } from '@/lib/olm/operand-form/types';
import { uncheckedPattern } from '@/lib/olm/operand-form/validate';
import { getAt } from '@/lib/olm/operand-form/values';
import { fieldId, FieldIssues, useOperandForm } from './form-context';
import { SyncedYaml } from './synced-yaml';
import { ResourceRequirements, ScalarInput } from './widgets';

function Help({ field, path }: { field: Field; path: FieldPath }) {
  if (!field.description) return null;
  return (
    <p id={`${fieldId(path)}-help`} title={field.description} className="line-clamp-2 max-w-2xl text-xs text-slate-600">
      {field.description}
    </p>
  );
}

/** A pattern the browser cannot check (RE2 refuses it) is said, not held against the person. */
function PatternNote({ field, path }: { field: Field; path: FieldPath }) {
  const note = uncheckedPattern(field);
  return note ? (
    <p id={`${fieldId(path)}-pattern`} className="max-w-2xl text-xs text-amber-800">
      {note}
    </p>
  ) : null;
}

function Label({ field, path, htmlFor }: { field: Field; path: FieldPath; htmlFor?: string }) {
  // The mark stays outside the label, so a field's name is its label alone; inputs say
  // aria-required themselves.
  const mark = field.required && (
    <span className="text-red-700" aria-hidden="true">
      {' '}
      *
    </span>
  );
  return htmlFor ? (
    <div className="text-sm font-medium">
      <label htmlFor={htmlFor}>{field.label}</label>
      {mark}
    </div>
  ) : (
    <div className="text-sm font-medium">
      <span id={`${fieldId(path)}-label`}>{field.label}</span>
      {mark}
    </div>
  );
}

export function FieldList({ fields, path }: { fields: readonly Field[]; path: FieldPath }) {
  const { object, spec } = useOperandForm();
  // A field that depends on another (fieldDependency) is shown only while that one holds its value.
  const shown = fields.filter((f) => dependencyMet(f, object, spec));
  const basic = shown.filter((f) => !f.advanced);
  const advanced = shown.filter((f) => f.advanced);
  return (
    <div className="space-y-3">
      {basic.map((f) => (
        <FieldRow key={f.key} field={f} path={[...path, f.key]} />
      ))}
      {advanced.length > 0 && (
        <details className="rounded border border-slate-200 p-2">
          <summary className="cursor-pointer text-sm font-medium text-slate-700">Advanced</summary>
          <div className="mt-2 space-y-3">
            {advanced.map((f) => (
              <FieldRow key={f.key} field={f} path={[...path, f.key]} />
            ))}
          </div>
        </details>
      )}
    </div>
  );
}

export function FieldRow({ field, path }: { field: Field; path: FieldPath }) {
  const { object, set } = useOperandForm();
  const value = getAt(object, path);
  switch (field.type) {
    case 'object':
      if (field.resources) {
        return (
          <div className="space-y-1">
            <Label field={field} path={path} />
            <Help field={field} path={path} />
            <ResourceRequirements path={path} label={field.label} />
          </div>
        );
      }
      return (
        <details
          open={field.required || field.described || value !== undefined}
          className="rounded border border-slate-200 px-3 py-2"
        >
          <summary className="cursor-pointer text-sm font-medium">
            {field.label}
            {field.required && <span className="text-red-700"> *</span>}
          </summary>
          <Help field={field} path={path} />
          <div className="mt-2">
            <FieldList fields={field.fields} path={path} />
          </div>
          <FieldIssues path={path} />
        </details>
      );
    case 'array':
      return <ListField field={field} path={path} />;
    case 'map':
      return <MapField field={field} path={path} />;
    case 'raw':
      return (
        <div className="space-y-1">
          <Label field={field} path={path} />
          <Help field={field} path={path} />
          <p className="text-xs text-slate-600">
            Edited as YAML here: the schema gives this part no fields ({field.reason}).
          </p>
          <SyncedYaml value={value} onChange={(v) => set(path, v)} label={`${field.label} (YAML)`} rows={4} />
          <FieldIssues path={path} />
        </div>
      );
    default:
      // A field of no known type holding a list or an object (the example's) is edited as YAML.
      if (field.type === 'string' && field.untyped && value !== null && typeof value === 'object') {
        return (
          <FieldRow
            field={{ ...field, type: 'raw', reason: 'its type is not known: the schema is open' }}
            path={path}
          />
        );
      }
      return (
        <div className="space-y-1">
          <Label field={field} path={path} htmlFor={fieldId(path)} />
          <ScalarInput field={field} path={path} label={field.label} />
          <Help field={field} path={path} />
          <PatternNote field={field} path={path} />
          <FieldIssues path={path} />
        </div>
      );
  }
}

function emptyOf(f: Field): unknown {
  if (f.type === 'object' || f.type === 'map') return {};
  if (f.type === 'array') return [];
  if (f.type === 'boolean') return false;
  if (f.type === 'integer' || f.type === 'number') return f.minimum ?? 0;
  if (f.type === 'string') return f.enum?.find((e) => e !== '') ?? '';
  return {};
}

function ListField({ field, path }: { field: Extract<Field, { type: 'array' }>; path: FieldPath }) {
  const { object, set, removeItem } = useOperandForm();
  const value = getAt(object, path);
  const list = Array.isArray(value) ? value : [];
  const item = field.items;
  return (
    <fieldset
      className="space-y-2 rounded border border-slate-200 px-3 py-2"
      aria-describedby={field.description ? `${fieldId(path)}-help` : undefined}
    >
      <legend className="px-1 text-sm font-medium">
        {field.label}
        {field.required && <span className="text-red-700"> *</span>}
      </legend>
      <Help field={field} path={path} />
      {list.map((_, i) => {
        const p = [...path, i];
        const label = `${field.label} ${i + 1}`;
        return (
          <div key={i} className="flex items-start gap-2 border-l-2 border-slate-200 pl-2">
            <div className="flex-1">
              {item.type === 'object' && !item.resources ? (
                <FieldList fields={item.fields} path={p} />
              ) : item.type === 'string' ||
                item.type === 'integer' ||
                item.type === 'number' ||
                item.type === 'boolean' ? (
                <>
                  <ScalarInput field={item} path={p} label={label} />
                  <FieldIssues path={p} />
                </>
              ) : (
                <FieldRow field={{ ...item, label }} path={p} />
              )}
            </div>
            <button type="button" onClick={() => removeItem(p)} className="text-xs text-red-700 underline">
              Remove {label}
            </button>
          </div>
        );
      })}
      <button
        type="button"
        disabled={field.maxItems !== undefined && list.length >= field.maxItems}
        onClick={() => set([...path, list.length], emptyOf(item))}
        className="text-sm text-sky-700 underline disabled:text-slate-400"
      >
        Add to {field.label}
      </button>
      <FieldIssues path={path} />
    </fieldset>
  );
}

function MapField({ field, path }: { field: Extract<Field, { type: 'map' }>; path: FieldPath }) {
  const { object, set } = useOperandForm();
  const value = getAt(object, path);
  const entries =
    value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value as Record<string, unknown>) : [];
  const scalar =
    field.values.type === 'string' ||
    field.values.type === 'integer' ||
    field.values.type === 'number' ||
    field.values.type === 'boolean';
  if (!scalar) return <FieldRow field={{ ...field, type: 'raw', reason: 'a map of structured values' }} path={path} />;
  const rename = (from: string, to: string) => {
    if (!to || to === from) return;
    set(path, Object.fromEntries(entries.map(([k, v]) => (k === from ? [to, v] : [k, v]))));
  };
  return (
    <fieldset className="space-y-2 rounded border border-slate-200 px-3 py-2">
      <legend className="px-1 text-sm font-medium">{field.label}</legend>
      <Help field={field} path={path} />
      {entries.map(([k]) => (
        <div key={k} className="flex items-center gap-2">
          <input
            aria-label={`${field.label} key`}
            defaultValue={k}
            onBlur={(e) => rename(k, e.target.value.trim())}
            className="w-40 rounded border border-slate-300 px-2 py-1 text-sm"
          />
          <div className="flex-1">
            <ScalarInput
              field={{ ...(field.values as Extract<Field, { type: 'string' }>), label: k }}
              path={[...path, k]}
              label={`${field.label} ${k}`}
            />
          </div>
          <button type="button" onClick={() => set([...path, k], undefined)} className="text-xs text-red-700 underline">
            Remove {k}
          </button>
        </div>
      ))}
      <button
        type="button"
        onClick={() => {
          let n = 1;
          while (entries.some(([k]) => k === `key${n}`)) n++;
          set([...path, `key${n}`], emptyOf(field.values));
        }}
        className="text-sm text-sky-700 underline"
      >
        Add to {field.label}
      </button>
      <FieldIssues path={path} />
    </fieldset>
  );
}
