'use client';
// Beside the plan: the ServiceAccount's rights as YAML to copy for an administrator when the plan
// does not create them, and everything as one YAML List for GitOps (what `kubectl apply -f` of it
// creates is what Install would).
import { useMemo } from 'react';
import type { V1InstallPlan } from '@/lib/api/olm-v1-install';
import { YamlBlock } from '../../common/yaml-block';

const list = (items: Record<string, unknown>[]) => ({ apiVersion: 'v1', kind: 'List', items });

export function PlanExtras({ plan, name }: { plan: V1InstallPlan; name: string }) {
  const account = plan.objects.find((o) => o.kind === 'ServiceAccount')?.object;
  const rights = useMemo(() => list([...(account ? [account] : []), ...plan.rbac]), [account, plan.rbac]);
  const everything = useMemo(
    () =>
      list([
        ...plan.objects.filter((o) => o.kind !== 'ClusterExtension').map((o) => o.object),
        ...(plan.granted ? [] : plan.rbac),
        ...plan.objects.filter((o) => o.kind === 'ClusterExtension').map((o) => o.object),
      ]),
    [plan],
  );
  return (
    <>
      {!plan.granted && plan.rbac.length > 0 && (
        <section
          aria-labelledby="rights-title"
          className="space-y-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm"
        >
          <h3 id="rights-title" className="font-semibold">
            Copy for an administrator
          </h3>
          <p>
            The ServiceAccount and exactly the rights v1 needs to install this bundle with it. Until they exist, the
            ClusterExtension retries in Forbidden words.
          </p>
          <YamlBlock object={rights} label="Installer rights YAML" filename={`${name}-installer-rights.yaml`} />
        </section>
      )}
      {plan.blockers.length === 0 && (
        <details className="rounded border border-slate-200 bg-white p-3 text-sm">
          <summary className="cursor-pointer font-medium text-sky-800">Export for GitOps instead</summary>
          <div className="mt-2 space-y-2">
            <p className="text-slate-700">
              Every object of this install as one YAML file to commit; <code>kubectl apply -f</code> of it creates what
              Install would, the ClusterExtension last.
            </p>
            <YamlBlock object={everything} label="GitOps YAML" filename={`${name}-clusterextension.yaml`} />
          </div>
        </details>
      )}
    </>
  );
}
