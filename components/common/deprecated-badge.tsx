// "Deprecated", as a badge whose accessible description (and tooltip) is the catalog's message.
import { useId } from 'react';

export function DeprecatedBadge({ description, label = 'Deprecated' }: { description: string; label?: string }) {
  const id = useId();
  return (
    <>
      <span
        role="note"
        aria-label={label}
        aria-describedby={id}
        title={description}
        className="inline-block rounded border border-amber-300 bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900"
      >
        {label}
      </span>
      <span id={id} hidden>
        {description}
      </span>
    </>
  );
}
