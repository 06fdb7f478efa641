'use client';
// "Export for GitOps": the installed operator as the kustomize tree a team commits — the cluster
// administrator's part (cluster-scope/) and the application's — each file shown with its path,
// copyable, and the whole tree as a tar to download. Read as the person; nothing is written.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiGet } from '@/lib/client/api';
import type { GitopsExport as Export } from '@/lib/api/gitops-export';
import { GitopsFiles } from '../common/gitops-files';
import { ErrorNotice } from '../common/notice';

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function GitopsExport({ namespace, name }: { namespace: string; name: string }) {
  const [application, setApplication] = useState(namespace);
  const [shown, setShown] = useState<string | null>(null);
  const valid = LABEL.test(application) && application.length <= 63 && application !== 'cluster-scope';
  const base = `/api/operators/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/export?application=${encodeURIComponent(shown ?? application)}`;
  const q = useQuery({
    queryKey: ['gitops-export', namespace, name, shown],
    queryFn: ({ signal }) => apiGet<Export>(base, signal),
    enabled: shown !== null,
    retry: false,
  });
  return (
    <section aria-labelledby="gitops-title" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="gitops-title" className="font-semibold">
        Export for GitOps
      </h2>
      <p className="text-sm text-slate-700">
        This install as a kustomize tree: <code>cluster-scope/</code> holds what a cluster administrator owns (the
        Namespace, its OperatorGroup, and the Subscription of an operator installed for all namespaces); a Subscription
        for chosen namespaces goes to the application&apos;s folder. Objects are written without what the cluster and
        OLM add (status, uids, versions, OLM&apos;s labels), so <code>kubectl apply -k</code> of the tree installs the
        same operator on an empty cluster.
      </p>
      <form
        className="flex flex-wrap items-end gap-2 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) setShown(application);
        }}
      >
        <label className="flex flex-col">
          <span className="font-medium">Application folder</span>
          <input
            value={application}
            onChange={(e) => setApplication(e.target.value.trim())}
            aria-invalid={!valid}
            className="rounded border border-slate-300 px-2 py-1"
          />
        </label>
        <button
          type="submit"
          disabled={!valid}
          className="rounded bg-sky-700 px-3 py-1.5 font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
        >
          Show the files
        </button>
        {!valid && (
          <span className="text-xs text-red-800">
            A folder name: lowercase letters, digits and &quot;-&quot;, not cluster-scope.
          </span>
        )}
      </form>
      {q.error && <ErrorNotice error={q.error} what="The install could not be exported" />}
      {shown !== null && !q.data && !q.error && <p role="status">Reading the install…</p>}
      {q.data && <GitopsFiles files={q.data.files} notes={q.data.notes} tar={{ href: `${base}&format=tar` }} />}
    </section>
  );
}
