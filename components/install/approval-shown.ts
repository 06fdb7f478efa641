// What the wizard's approval radios show. The person's click must show at once, while the plan
// of the new choices is still being computed: a radio that waited for the plan looked like a
// click that did nothing, and under load a click could go unseen for seconds. Whether Manual is
// forced is the planner's answer (lib/olm/install/plan-subscription.ts), except for a version
// that is not its channel's head, which the package details already say before any plan.

import type { Approval } from './install-request';

/** A plan's answer about approval: what its request asked for and what the Subscription gets. */
export interface PlannedApproval {
  asked: Approval;
  gets: Approval;
}

export interface ApprovalShown {
  /** The radio that is checked. */
  checked: Approval;
  /** Automatic is not offered: the Subscription would get Manual whatever the person picks. */
  forced: boolean;
}

export function approvalShown(chosen: Approval, nonHead: boolean, last?: PlannedApproval): ApprovalShown {
  // A plan only says Automatic is refused when it was asked for Automatic. A plan asked for
  // Manual says nothing about Automatic, and one asked for the other choice is the past: the
  // person's choice shows until the plan of it arrives.
  const refused = !!last && last.asked === 'Automatic' && last.gets === 'Manual';
  const forced = nonHead || (refused && chosen === 'Automatic');
  return { checked: forced ? 'Manual' : chosen, forced };
}
