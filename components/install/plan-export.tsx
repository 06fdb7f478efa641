'use client';
// "Export for GitOps" from the install wizard: the plan's Namespace, OperatorGroup and Subscription
// as the kustomize tree a team commits instead of installing from here (the same tree an installed
// operator exports), built in the browser from the plan; nothing is written.
import { useMemo, useState } from 'react';
import { gitopsTree, targetsAllNamespaces, type KubeObjectLike } from '@/lib/olm/install/gitops-export';
import type { InstallPlanResult } from '@/lib/olm/install/plan';
import { GitopsFiles } from '../common/gitops-files';

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function PlanExport({ plan }: { plan: InstallPlanResult }) {
  const of = (kind: string) => plan.objects.find((o) => o.kind === kind)?.object as KubeObjectLike | undefined;
  const sub = of('Subscription');
  const og = of('OperatorGroup');
  const ns = of('Namespace');
  const namespace = sub?.metadata?.namespace ?? '';
  const [application, setApplication] = useState(namespace);
  const valid = LABEL.test(application) && application.length <= 63 && application !== 'cluster-scope';
  // A scoped install's account and the rights it needs, whether or not the install would grant them.
  const access = useMemo(() => {
    if (!plan.scoped) return [];
    const account = (plan.objects.find((o) => o.kind === 'ServiceAccount')?.object as KubeObjectLike | undefined) ?? {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: plan.scoped.serviceAccount, namespace: sub?.metadata?.namespace },
    };
    return [account, ...(plan.scoped.rbac.objects as KubeObjectLike[])];
  }, [plan, sub]);
  const files = useMemo(
    () =>
      sub && og && valid
        ? gitopsTree({ subscription: sub, operatorGroup: og, namespace: ns, application, access })
        : [],
    [sub, og, ns, application, valid, access],
  );
  const leftOut = [
    ...plan.objects
      .filter(
        (o) =>
          o.action === 'create' && (o.kind === 'Role' || o.kind === 'RoleBinding') && o.name.endsWith('-prometheus'),
      )
      .map((o) => `${o.kind} ${o.name} (cluster monitoring)`),
    ...plan.objects.filter((o) => o.action === 'patch').map((o) => `the change to ${o.kind} ${o.name} (${o.change})`),
  ];
  if (!sub || !og) return null;
  const global = targetsAllNamespaces(og);
  return (
    <details className="rounded border border-slate-200 bg-white p-3 text-sm">
      <summary className="cursor-pointer font-medium text-sky-800">Export for GitOps instead</summary>
      <div className="mt-2 space-y-3">
        <p className="text-slate-700">
          The same install as a kustomize tree to commit: <code>cluster-scope/</code> for the Namespace, the
          OperatorGroup
          {plan.scoped ? `, service account ${plan.scoped.serviceAccount} and the rights it needs` : ''}
          {global ? ' and this all-namespaces Subscription' : ''};{' '}
          {global ? 'no application folder' : 'the Subscription in the application\u2019s folder'}.{' '}
          <code>kubectl apply -k</code> of it installs what Install would{leftOut.length ? ', except' : '.'}
        </p>
        {leftOut.length > 0 && (
          // The tree holds what the install creates for the operator; a change to a shared
          // cluster object or the monitoring grant would be a surprise inside it, so it is named.
          <p className="text-amber-900">
            Not in the tree: {leftOut.join('; ')}. Make {leftOut.length === 1 ? 'it' : 'them'} apart, or install from
            here.
          </p>
        )}
        <label className="flex flex-col">
          <span className="font-medium">Application folder</span>
          <input
            value={application}
            onChange={(e) => setApplication(e.target.value.trim())}
            aria-invalid={!valid}
            className="max-w-xs rounded border border-slate-300 px-2 py-1"
          />
          {!valid && (
            <span className="text-xs text-red-800">
              A folder name: lowercase letters, digits and &quot;-&quot;, not cluster-scope.
            </span>
          )}
        </label>
        {valid && (
          <GitopsFiles
            files={files}
            tar={{ filename: `${application}-${sub.metadata?.name ?? 'install'}-gitops.tar` }}
          />
        )}
      </div>
    </details>
  );
}
