'use client';
// An OLM message that holds the API server's refusal, said in words, with the Role (or
// ClusterRole) and binding that grant what was missing. Nothing when the message is another kind.
import { grantRules } from '@/lib/olm/install/scoped-install';
import { explainPermissionFailure } from '@/lib/olm/status/permission-failure';
import { RbacYaml } from '../install/service-account-rights';

function shortHash(text: string): string {
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = ((h * 33) ^ text.charCodeAt(i)) >>> 0;
  return h.toString(36);
}

export function PermissionFailureNotice({ message, namespace }: { message: string | undefined; namespace: string }) {
  const f = explainPermissionFailure(message, namespace);
  if (!f) return null;
  const account = f.serviceAccount;
  const inNamespace = f.missing.filter((m) => m.namespace).map((m) => m.rule);
  const clusterWide = f.missing.filter((m) => !m.namespace).map((m) => m.rule);
  // Named after what they grant: OLM stops at the first refusal, and the next one's grant must
  // not collide with this one's.
  const suffix = shortHash(JSON.stringify(f.missing));
  const objects = account
    ? [
        ...(clusterWide.length
          ? grantRules(
              account.namespace,
              account.name,
              `${account.namespace}-${account.name}-rights-${suffix}`,
              clusterWide,
              true,
            )
          : []),
        ...(inNamespace.length
          ? grantRules(account.namespace, account.name, `${account.name}-rights-${suffix}`, inNamespace, false)
          : []),
      ]
    : [];
  return (
    <section
      aria-label="Missing rights"
      className="space-y-2 rounded border border-red-300 bg-red-50 p-3 text-sm text-red-950"
    >
      <p className="font-semibold">
        {f.kind === 'escalation'
          ? 'OLM may not grant the operator rights the installing account does not hold'
          : 'The API server refused OLM a write'}
      </p>
      <ul className="list-disc pl-5">
        {f.sentences.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ul>
      {account && (
        <>
          <p className="text-slate-800">
            OLM writes here as this account because the namespace&apos;s OperatorGroup names it. Granting the rights
            below (kubectl apply -f) lets OLM go on: it tries the plan again by itself, and stops at the next right it
            lacks, if any.
          </p>
          <RbacYaml
            objects={objects}
            fileName={`${account.name}-rights-${suffix}.yaml`}
            label={`Missing rights of service account ${account.name}`}
          />
        </>
      )}
    </section>
  );
}
