'use client';
// Update approval. The person's click shows at once (approval-shown.ts); Automatic is off while
// the planner (lib/olm/install/plan.ts) forces Manual for the version or the cluster chosen.
import type { InstallPlanResult } from '@/lib/olm/install/plan';
import { approvalShown } from './approval-shown';
import type { Approval, InstallRequestBody } from './install-request';

export function ApprovalFields({
  chosen,
  nonHead,
  planned,
  onChange,
}: {
  chosen: Approval;
  /** The chosen version is not its channel's head (from the package details, before any plan). */
  nonHead: boolean;
  /** The last plan and the request it was made for, possibly of earlier choices. */
  planned?: { plan: InstallPlanResult; body: InstallRequestBody };
  onChange: (a: Approval) => void;
}) {
  const plan = planned?.plan;
  const { checked, forced } = approvalShown(
    chosen,
    nonHead,
    planned && { asked: planned.body.approval, gets: planned.plan.approval },
  );
  const tokens = forced && !nonHead && plan?.openshift?.tokenAuth.offered;
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">Update approval</legend>
      {(['Automatic', 'Manual'] as const).map((a) => (
        <label key={a} className="flex items-start gap-2 text-sm">
          <input
            type="radio"
            name="approval"
            className="mt-1"
            checked={checked === a}
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
