// An OperatorPolicy's compliance on one cluster as the rollout page says it. config-policy-controller
// words its `Compliant` condition "Compliant; …" or "NonCompliant; …" (calculateComplianceCondition,
// lib/olm/rollout/operator-policy.ts), so the state is already the message's first word: it is said
// once, in the policy's words, and added only where the message does not begin with it.
import type { Compliance } from '@/lib/olm/rollout/operator-policy';

export function complianceWords(p: Compliance): string {
  const earlier = p.current ? '' : ' (evaluated for an earlier version of the policy)';
  if (p.state === 'unknown') return `OperatorPolicy compliance not known${earlier}: ${p.message}`;
  if (!p.message) return `OperatorPolicy ${p.state}${earlier}`;
  const said = p.message === p.state || p.message.startsWith(`${p.state};`);
  return said ? `OperatorPolicy${earlier}: ${p.message}` : `OperatorPolicy ${p.state}${earlier}: ${p.message}`;
}
