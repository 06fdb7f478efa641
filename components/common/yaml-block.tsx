// An object as read-only YAML.
import { dump } from 'js-yaml';
import { useMemo } from 'react';

export function YamlBlock({ object, label }: { object: unknown; label: string }) {
  const text = useMemo(() => dump(object, { noRefs: true, lineWidth: 120 }), [object]);
  return (
    <pre aria-label={label} tabIndex={0} className="max-h-[60vh] overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
      {text}
    </pre>
  );
}
