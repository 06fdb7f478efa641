'use client';
// Update approval. What the Subscription gets is the plan's answer (lib/olm/install/plan.ts
// decides when Manual is forced); this shows it, and keeps Automatic off while the plan forces
// Manual for the version or the cluster chosen.
import type { InstallPlanResult } from '@/lib/olm/install/plan';
import type { Approval } from './install-request';

export function ApprovalFields({
  chosen,
  plan,
  onChange,
}: {
  chosen: Approval;
  plan?: InstallPlanResult;
  onChange: (a: Approval) => void;
}) {
  const gets = plan?.approval ?? chosen;
  const forced = gets === 'Manual' && chosen === 'Automatic';
  const tokens = forced && plan?.openshift?.tokenAuth.offered;
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">Update approval</legend>
      {(['Automatic', 'Manual'] as const).map((a) => (
        <label key={a} className="flex items-start gap-2 text-sm">
          <input
            type="radio"
            name="approval"
            className="mt-1"
            checked={gets === a}
            disabled={forced && a === 'Automatic'}
            onChange={() => onChange(a)}
          />
          <span>
            <span className="font-medium">{a}</span>
            <span className="block text-slate-600">
              {a === 'Automatic'
                ? 'OLM installs upgrades as soon as the channel offers them.'
                : 'Every install and upgrade waits until someone approves its InstallPlan. InstallPlans are per namespace: other operators there wait too when they share a plan.'}
            </span>
          </span>
        </label>
      ))}
      {tokens && (
        <p className="text-xs text-amber-800">
          Manual, as OpenShift requires on a cluster with short-lived cloud tokens: each upgrade waits until someone has
          checked the cloud role still grants what the new version needs.
        </p>
      )}
    </fieldset>
  );
}
