'use client';
// Install mode: every mode the version supports, each with what it means; a mode the person may
// not use is shown disabled with the right it needs, in the cluster's words (an access review).
import type { InstallModeType } from '@/lib/olm/resources/cluster-service-version';

const MODE_TEXT: Record<InstallModeType, { title: string; text: string }> = {
  AllNamespaces: {
    title: 'All namespaces',
    text: 'The operator watches every namespace. It is installed into a global namespace: one whose OperatorGroup targets all namespaces.',
  },
  OwnNamespace: { title: 'Own namespace', text: 'The operator watches only the namespace it is installed in.' },
  SingleNamespace: {
    title: 'A single other namespace',
    text: 'The operator runs in one namespace and watches another (for example it runs in team1-operator and watches team1, so tenants never see its pod or service account).',
  },
  MultiNamespace: {
    title: 'Several namespaces',
    text: 'The operator runs in one namespace and watches the namespaces you pick.',
  },
};

export function InstallModeFields({
  modes,
  mode,
  refused,
  onChange,
}: {
  modes: InstallModeType[];
  mode: InstallModeType | undefined;
  /** Why a mode is not the person's to use, by mode. */
  refused: Partial<Record<InstallModeType, string>>;
  onChange: (m: InstallModeType) => void;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">Install mode</legend>
      {modes.length === 0 && <p className="text-sm text-red-800">This version declares no supported install mode.</p>}
      {modes.map((m) => (
        <label
          key={m}
          className={`flex items-start gap-2 rounded border border-slate-200 p-2 text-sm ${refused[m] ? 'bg-slate-50' : 'bg-white'}`}
        >
          <input
            type="radio"
            name="mode"
            className="mt-1"
            checked={mode === m}
            disabled={!!refused[m]}
            aria-describedby={refused[m] ? `mode-refused-${m}` : undefined}
            onChange={() => onChange(m)}
          />
          <span>
            <span className="font-medium">{MODE_TEXT[m].title}</span>
            <span className="block text-slate-600">{MODE_TEXT[m].text}</span>
            {refused[m] && (
              <span id={`mode-refused-${m}`} className="mt-1 block text-slate-800">
                Not yours to choose: {refused[m]}
              </span>
            )}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
