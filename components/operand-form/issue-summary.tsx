'use client';
// Every issue of the create form in one list above the buttons, each naming its field: those of a
// field the form does not show (a cause about a part of the object only YAML has) are seen here.
import type { FieldIssue } from '@/lib/olm/operand-form/types';

export function IssueSummary({ issues, title }: { issues: readonly FieldIssue[]; title: string }) {
  if (!issues.length) return null;
  return (
    <div role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm">
      <p className="font-semibold text-red-800">{title}</p>
      <ul className="list-disc pl-5 text-red-800">
        {issues.map((i) => (
          <li key={`${i.field}:${i.message}`}>
            {i.field ? <code>{i.field}</code> : 'the object'}: {i.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
