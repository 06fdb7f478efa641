'use client';
// The Role and bindings a service account needs, as YAML to review, copy or download: for a
// scoped install before it starts, and for the rights OLM found missing after it failed.
import { dump } from 'js-yaml';
import { useState } from 'react';
import type { ScopedInstall } from '@/lib/olm/install/plan';

/** What a scoped install needs of its account, before it starts. */
export function ScopedRights({ scoped }: { scoped: ScopedInstall }) {
  return (
    <section
      aria-labelledby="scoped-rights-title"
      className="space-y-2 rounded border border-slate-200 bg-white p-3 text-sm"
    >
      <h3 id="scoped-rights-title" className="font-semibold">
        Service account rights
      </h3>
      <p className="text-slate-700">
        OLM creates this operator&apos;s objects and Deployments as service account{' '}
        <strong>{scoped.serviceAccount}</strong>, and the API server lets it only what the account may do; nor may the
        account grant the operator any right it does not hold itself.{' '}
        {scoped.granted
          ? 'The install creates this Role and binding:'
          : 'An administrator can review and apply this Role and binding (kubectl apply -f), before or after the install:'}
      </p>
      {scoped.rbac.clusterWide && (
        <p className="text-amber-900">
          The operator asks for cluster-wide rights, so the account must hold them cluster-wide (a ClusterRole and
          ClusterRoleBinding): its reach goes beyond the namespace.
        </p>
      )}
      {scoped.rbac.unknownRules && <p className="text-amber-900">Not complete: {scoped.rbac.unknownRules}.</p>}
      {scoped.dependencies && (
        <p className={scoped.dependencies.included ? 'text-slate-700' : 'text-amber-900'}>
          {scoped.dependencies.included ? '' : 'Not complete: '}
          {scoped.dependencies.message}.
        </p>
      )}
      <RbacYaml
        objects={scoped.rbac.objects}
        fileName={`${scoped.serviceAccount}-rights.yaml`}
        label={`Role for service account ${scoped.serviceAccount}`}
      />
    </section>
  );
}

export function RbacYaml({
  objects,
  fileName,
  label,
}: {
  objects: Record<string, unknown>[];
  fileName: string;
  label: string;
}) {
  const [copied, setCopied] = useState(false);
  const text = objects.map((o) => dump(o, { lineWidth: 120, noRefs: true })).join('---\n');
  const href = `data:application/yaml;charset=utf-8,${encodeURIComponent(text)}`;
  return (
    <div className="space-y-1">
      <div className="flex gap-3 text-sm">
        <button
          type="button"
          className="text-sky-700 underline"
          onClick={() => {
            void navigator.clipboard?.writeText(text).then(() => setCopied(true));
          }}
        >
          {copied ? 'Copied' : 'Copy YAML'}
        </button>
        <a className="text-sky-700 underline" href={href} download={fileName}>
          Download {fileName}
        </a>
      </div>
      {/* Focusable, so a keyboard can scroll what does not fit. */}
      <pre
        aria-label={label}
        tabIndex={0}
        className="max-h-80 overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100"
      >
        {text}
      </pre>
    </div>
  );
}
