// One labelled field of the rollout form: a hint under its label, and the refusals about it (the
// route's, or why its text cannot be read) right beside it, tied to the control for screen readers.
import { useId, type ReactNode } from 'react';

export const INPUT =
  'w-full min-w-0 rounded border border-slate-400 px-2 py-1 text-sm aria-[invalid=true]:border-red-700';

export interface FieldControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

export function FormField({
  label,
  hint,
  problems,
  children,
}: {
  label: string;
  hint?: ReactNode;
  problems?: string[];
  /** The control, given its id and what describes it. */
  children: (control: FieldControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const problemId = `${id}-problem`;
  const described = [hint ? hintId : '', problems?.length ? problemId : ''].filter(Boolean).join(' ');
  return (
    <div className="min-w-0 space-y-1">
      <label htmlFor={id} className="block text-sm font-semibold">
        {label}
      </label>
      {children({
        id,
        ...(described ? { 'aria-describedby': described } : {}),
        ...(problems?.length ? { 'aria-invalid': true } : {}),
      })}
      {hint ? (
        <p id={hintId} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {problems?.length ? (
        <p id={problemId} className="text-sm text-red-800">
          {problems.join('; ')}
        </p>
      ) : null}
    </div>
  );
}
