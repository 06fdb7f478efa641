'use client';
// The form view of the create page: the operand's namespace (for a namespaced API) and name,
// then its spec's fields as the field model lays them out (or, when the schema leaves the whole
// spec open, why there are none).
import type { WatchedNamespaces } from '@/lib/olm/operand-form/namespaces';
import type { FormModel } from '@/lib/olm/operand-form/types';
import { getAt } from '@/lib/olm/operand-form/values';
import { fieldId, FieldIssues, useOperandForm } from './form-context';
import { FieldList } from './form-fields';
import { NamespaceChoice } from './namespace-choice';

export function FormView({
  model,
  schemaProblem,
  watched,
  copyOf,
}: {
  model: FormModel;
  schemaProblem?: string;
  watched?: WatchedNamespaces;
  copyOf?: string;
}) {
  const { object, set, namespace } = useOperandForm();
  const name = getAt(object, ['metadata', 'name']);
  const namePath = ['metadata', 'name'];
  return (
    <div className="space-y-4">
      {watched && (
        <NamespaceChoice
          watched={watched}
          copyOf={copyOf}
          value={namespace}
          onChange={(v) => set(['metadata', 'namespace'], v)}
        />
      )}
      <FieldIssues path={['metadata', 'namespace']} />
      <div className="space-y-1">
        <div className="text-sm font-medium">
          <label htmlFor={fieldId(namePath)}>Name</label>
          <span className="text-red-700" aria-hidden="true">
            {' '}
            *
          </span>
        </div>
        <input
          id={fieldId(namePath)}
          type="text"
          aria-required="true"
          autoComplete="off"
          value={typeof name === 'string' ? name : ''}
          onChange={(e) => set(namePath, e.target.value || undefined)}
          aria-describedby={`${fieldId(namePath)}-issues`}
          className="w-full max-w-md rounded border border-slate-300 px-2 py-1 text-sm"
        />
        <FieldIssues path={namePath} />
      </div>
      {schemaProblem && <p className="text-sm text-amber-800">No schema: {schemaProblem}.</p>}
      {model.freeForm ? (
        <p className="text-sm text-slate-600">
          This API&apos;s schema gives its spec no fields ({model.freeForm}) and the operator describes none: write the
          spec in the YAML view.
        </p>
      ) : (
        <fieldset className="space-y-3">
          <legend className="mb-2 text-base font-semibold">Spec</legend>
          <FieldList fields={model.spec.fields} path={['spec']} />
        </fieldset>
      )}
    </div>
  );
}
