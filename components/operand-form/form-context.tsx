'use client';
// What every field of the create form needs without passing it down by hand: the object being
// edited (the one state the form and YAML views share), how to write one path of it, the issues
// to show under each field, the namespace the operand goes to (for pickers), and the spec's
// fields (a field's dependency is judged against another field's default).
import { createContext, useContext } from 'react';
import type { FieldIssue, FieldPath, ObjectField } from '@/lib/olm/operand-form/types';
import { fieldPathString, type Obj } from '@/lib/olm/operand-form/values';

export interface OperandFormState {
  object: Obj;
  set(path: FieldPath, value: unknown): void;
  removeItem(path: FieldPath): void;
  issues: readonly FieldIssue[];
  namespace: string;
  spec: ObjectField;
}

export const FormContext = createContext<OperandFormState | null>(null);

export function useOperandForm(): OperandFormState {
  const ctx = useContext(FormContext);
  if (!ctx) throw new Error('operand form fields outside the form');
  return ctx;
}

/** A DOM id for a field's path (ids may not hold the path's dots and brackets reliably). */
export function fieldId(path: FieldPath): string {
  return `f-${fieldPathString(path).replace(/[^a-zA-Z0-9_-]/g, '_')}`;
}

/** The field's own issues, under it; `role=alert` only for the server's (they come at once). */
export function FieldIssues({ path }: { path: FieldPath }) {
  const { issues } = useOperandForm();
  const p = fieldPathString(path);
  const mine = issues.filter((i) => i.field === p);
  if (!mine.length) return null;
  return (
    <ul id={`${fieldId(path)}-issues`} className="text-xs text-red-700">
      {mine.map((i) => (
        <li key={i.message}>{i.message}</li>
      ))}
    </ul>
  );
}
