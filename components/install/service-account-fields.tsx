'use client';
// Installing with a service account's rights (a scoped install): the wizard's choice when the
// install creates the namespace's OperatorGroup, or what the existing group decides.
import type { InstallPlanResult } from '@/lib/olm/install/plan';

export interface ServiceAccountChoice {
  on: boolean;
  name: string;
  grant: boolean;
}

export function ServiceAccountFields({
  plan,
  value,
  onChange,
  nameOk,
}: {
  plan?: InstallPlanResult;
  value: ServiceAccountChoice;
  onChange: (v: ServiceAccountChoice) => void;
  nameOk: boolean;
}) {
  const existing = plan?.scoped && !plan.scoped.groupIsNew ? plan.scoped : undefined;
  const createsGroup = plan?.objects.some((o) => o.kind === 'OperatorGroup' && o.action === 'create') ?? false;
  if (existing && !value.on) {
    return (
      <p
        role="note"
        aria-label="Service account"
        className="rounded border border-slate-200 bg-white p-3 text-sm text-slate-700"
      >
        OperatorGroup <strong>{existing.operatorGroup}</strong> of this namespace names service account{' '}
        <strong>{existing.serviceAccount}</strong>: OLM installs the operator with that account&apos;s rights, not its
        own.
      </p>
    );
  }
  if (!createsGroup && !value.on) return null;
  return (
    <fieldset className="space-y-2 rounded border border-slate-200 bg-white p-3 text-sm">
      <legend className="px-1 font-medium">Service account</legend>
      <label className="flex items-start gap-2">
        <input
          type="checkbox"
          className="mt-1"
          checked={value.on}
          onChange={(e) => onChange({ ...value, on: e.target.checked })}
        />
        <span>
          <span className="font-medium">Install with a service account</span>
          <span className="block text-slate-600">
            The new OperatorGroup names the account, and OLM creates the operator&apos;s objects with its rights only:
            people who may not grant those rights themselves can then install and upgrade here.
          </span>
        </span>
      </label>
      {value.on && (
        <>
          <label className="flex flex-col">
            <span className="font-medium">Account name</span>
            <input
              value={value.name}
              onChange={(e) => onChange({ ...value, name: e.target.value.trim() })}
              aria-invalid={!nameOk}
              className="rounded border border-slate-300 bg-white px-2 py-1.5"
            />
            {!nameOk && (
              <span className="mt-1 text-xs text-red-800">
                A service account name is lowercase letters, digits, &quot;-&quot; and &quot;.&quot;, at most 253
                characters.
              </span>
            )}
          </label>
          <label className="flex items-start gap-2">
            <input
              type="checkbox"
              className="mt-1"
              checked={value.grant}
              onChange={(e) => onChange({ ...value, grant: e.target.checked })}
            />
            <span>
              <span className="font-medium">Grant it the rights this operator needs</span>
              <span className="block text-slate-600">
                Creates the Role and binding shown under &quot;Service account rights&quot;. Leave it off to hand them
                to an administrator: until the account holds them, OLM waits and says which right it lacks.
              </span>
            </span>
          </label>
        </>
      )}
    </fieldset>
  );
}
