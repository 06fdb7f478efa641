// The rollout form's OLM v0 option of an OperatorPolicy: where config-policy-controller runs on
// each cluster, the policy makes and keeps the Subscription, allows only the versions named and
// approves upgrades itself (Automatic) or never (None), and its compliance is each cluster's health.
import { FormField, INPUT } from './rollout-form-field';
import type { FieldProblems, RolloutForm } from './rollout-form-state';

export function RolloutPolicyFields({
  form,
  set,
  problems,
}: {
  form: RolloutForm;
  set: (change: Partial<RolloutForm>) => void;
  problems: FieldProblems;
}) {
  const policy = form.policy;
  const change = (c: Partial<RolloutForm['policy']>) => set({ policy: { ...policy, ...c } });
  return (
    <fieldset className="min-w-0 space-y-3 rounded border border-slate-300 bg-white p-3">
      <legend className="px-1 font-semibold">OperatorPolicy (optional)</legend>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-1"
          checked={policy.on}
          onChange={(e) => change({ on: e.target.checked })}
        />
        <span>
          Install through an OperatorPolicy on each cluster: config-policy-controller must run there; it makes and keeps
          the Subscription, and its compliance is the cluster&apos;s health.
        </span>
      </label>
      {policy.on ? (
        <div className="grid gap-3 md:grid-cols-2">
          <FormField
            label="Namespace config-policy-controller watches"
            hint="The OperatorPolicy goes there on every cluster."
            problems={problems.operatorPolicy}
          >
            {(p) => (
              <input
                {...p}
                className={INPUT}
                value={policy.namespace}
                onChange={(e) => change({ namespace: e.target.value })}
              />
            )}
          </FormField>
          <FormField
            label="Allowed versions (optional)"
            hint="CSV names, comma-separated; left empty, any version the channel brings."
          >
            {(p) => (
              <input
                {...p}
                className={INPUT}
                value={policy.allowedVersions}
                onChange={(e) => change({ allowedVersions: e.target.value })}
              />
            )}
          </FormField>
          <fieldset className="min-w-0">
            <legend className="text-sm font-semibold">Upgrades the policy approves</legend>
            <div className="flex flex-wrap gap-4 text-sm">
              {(['Automatic', 'None'] as const).map((a) => (
                <label key={a} className="flex items-center gap-1">
                  <input
                    type="radio"
                    name="rollout-policy-approval"
                    checked={policy.upgradeApproval === a}
                    onChange={() => change({ upgradeApproval: a })}
                  />
                  {a === 'Automatic' ? 'Automatic (within the allowed versions)' : 'None'}
                </label>
              ))}
            </div>
          </fieldset>
        </div>
      ) : null}
    </fieldset>
  );
}
