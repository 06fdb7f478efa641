// What a rollout's OperatorPolicy does on each cluster, and what its status there says, as
// config-policy-controller v0.16.0 does it (docs/using/fleet.md#operatorpolicy-for-olm-v0).
// Sources, in open-cluster-management.io/config-policy-controller v0.16.0:
// - controllers/operatorpolicy_controller.go: buildSubscription (installPlanApproval is refused in
//   spec.subscription; the controller writes Manual, or Automatic only when the policy is enforced
//   with upgradeApproval Automatic and no versions), getApprovedCSVs and musthaveInstallPlan (an
//   enforced policy approves the first InstallPlan whatever upgradeApproval says, and an upgrade
//   only with Automatic; either only when the Subscription's currentCSV is allowed: any when
//   `versions` is empty, else one of them or spec.subscription.startingCSV), handleCSV (an installed
//   CSV that is not allowed is NonCompliant).
// - controllers/operatorpolicy_status.go: the messages quoted here (installPlanUpgradeCond,
//   disallowedCSVCond) and calculateComplianceCondition (the `Compliant` condition: "Compliant; " or
//   "NonCompliant; " and every other condition's message, joined), which status feedback brings back.

/** An OperatorPolicy's terms as a rollout's template carries them. */
export interface PolicyTerms {
  name: string;
  namespace: string;
  upgradeApproval: string;
  versions: string[];
  startingCSV?: string;
}

type Manifest = {
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  spec?: { upgradeApproval?: string; versions?: string[]; subscription?: { startingCSV?: string } };
};

/** The OperatorPolicy among a ManifestWork template's manifests, or undefined when it has none. */
export function policyTerms(template: unknown): PolicyTerms | undefined {
  const manifests = (template as { workload?: { manifests?: Manifest[] } } | undefined)?.workload?.manifests ?? [];
  const p = manifests.find((m) => m.kind === 'OperatorPolicy');
  if (!p) return undefined;
  const startingCSV = p.spec?.subscription?.startingCSV;
  return {
    name: p.metadata?.name ?? '',
    namespace: p.metadata?.namespace ?? '',
    upgradeApproval: p.spec?.upgradeApproval ?? '',
    versions: (p.spec?.versions ?? []).map((v) => v.trim()).filter(Boolean),
    ...(startingCSV ? { startingCSV } : {}),
  };
}

/** What the policy does on every cluster, sentence by sentence, quoting the controller where it speaks. */
export function policyBehaviour(t: PolicyTerms): string[] {
  const allowed = t.versions.length ? [...t.versions, ...(t.startingCSV ? [t.startingCSV] : [])] : [];
  const allowedText = allowed.length ? `only ${allowed.join(', ')}` : 'any CSV';
  const automatic = t.upgradeApproval === 'Automatic';
  const lines = [
    `config-policy-controller makes the OperatorGroup (when the namespace has none) and the Subscription, with ` +
      `installPlanApproval ${automatic && !allowed.length ? 'Automatic' : 'Manual'}, and keeps them so.`,
  ];
  if (automatic && !allowed.length)
    lines.push(
      'upgradeApproval Automatic, no versions: OLM installs and upgrades by itself, as the Subscription says; an ' +
        'InstallPlan still waiting from before, the policy approves.',
    );
  else
    lines.push(
      `It approves the first InstallPlan when the CSV it installs is allowed (${allowedText}).`,
      automatic
        ? `upgradeApproval Automatic: it approves an upgrade's InstallPlan only to an allowed CSV (${allowedText}); ` +
            'otherwise its InstallPlan condition says "an InstallPlan to update to […] is available for ' +
            'approval but approval for […] is required".'
        : 'upgradeApproval None: it approves no upgrade; its InstallPlan condition says "an InstallPlan to ' +
            'update to […] is available for approval", which leaves the policy Compliant ' +
            '(complianceConfig.upgradesAvailable defaults to Compliant).',
    );
  if (allowed.length)
    lines.push(
      `An installed CSV other than ${allowed.join(', ')} makes it NonCompliant: "ClusterServiceVersion (…) is not ` +
        'an approved version".',
    );
  lines.push(
    'Stopping the rollout leaves the OperatorPolicy on each cluster (the template orphans what it made), where ' +
      'config-policy-controller keeps enforcing it: delete it there to let the operator go unmanaged.',
  );
  return lines;
}

export interface Compliance {
  /** The policy's own status.compliant, or `unknown` when no controller has reported one. */
  state: 'Compliant' | 'NonCompliant' | 'unknown';
  /** The policy's `Compliant` condition message, or why compliance is not known. */
  message: string;
  /** False when the controller last evaluated an earlier version of the policy (an upgrade not seen yet). */
  current: boolean;
}

/**
 * One cluster's compliance from its status feedback (cluster-objects.ts POLICY_FEEDBACK). `where`:
 * whether the work agent has put the policy on the cluster (`applied`), is doing so (`applying`),
 * or has not (`absent`: no ManifestWork yet, or the agent could not apply it, as where OperatorPolicy
 * is not a served kind): only a policy on the cluster can be evaluated there.
 */
export function policyCompliance(
  feedback: Record<string, string>,
  where: 'absent' | 'applying' | 'applied',
): Compliance {
  const compliant = feedback.compliant;
  if (compliant === 'Compliant' || compliant === 'NonCompliant') {
    const { observedGeneration: seen, generation } = feedback;
    const current = !seen || !generation || seen === generation;
    return { state: compliant, message: feedback.compliantMessage ?? '', current };
  }
  const why = {
    absent: 'the OperatorPolicy is not on the cluster, so nothing there evaluates it',
    applying: 'not reported yet: the work agent is applying the OperatorPolicy',
    applied:
      'the OperatorPolicy is on the cluster but its status is empty: no config-policy-controller with ' +
      '--enable-operator-policy watching its namespace has evaluated it',
  }[where];
  return { state: 'unknown', message: why, current: true };
}
