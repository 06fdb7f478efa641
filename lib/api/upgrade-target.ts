// What the upgrade-target route answers: the target, the update path to it and what the
// approver does now.
import type { UpdateStep } from '../olm/graph/update-path';
import type { UpgradeTarget, Verdict } from '../olm/install/upgrade-target';

export interface UpgradeTargetView {
  subscription: { namespace: string; name: string; installedCSV?: string; approval: string };
  target?: UpgradeTarget;
  /** Why the approver refuses the target (or an unreadable annotation in its place): it approves nothing for it. */
  refused?: string;
  /** Every version the update path offers from the installed one, one InstallPlan each. */
  path: UpdateStep[];
  pathProblem?: string;
  /** With a target: the hops up to it and what the approver does now. */
  hops?: UpdateStep[];
  verdict?: Verdict;
  approverConfigured: boolean;
}
