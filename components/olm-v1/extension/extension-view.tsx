'use client';
// One ClusterExtension (OLM v1), live: v1's state in words and why, its deprecations, the objects
// it installed with one health verdict, the spec and installed bundle, the versions it may move to
// (upgrade, pin, roll back, previewed), and uninstall. Every change is made as the person and
// disabled with the cluster's reason where they may not (SelfSubjectAccessReview).
import { useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import type { ExtensionDetails } from '@/lib/api/olm-v1-extensions';
import { apiGet } from '@/lib/client/api';
import { useLiveRefresh } from '@/lib/client/live';
import { Badge } from '../../common/badges';
import { ConditionsTable } from '../../common/conditions-table';
import { ErrorPanel } from '../../common/error-panel';
import { LiveNotice } from '../../common/live-notice';
import { Warning } from '../../common/notice';
import { ExtensionObjects } from './extension-objects';
import { ExtensionSpec } from './extension-spec';
import { ExtensionUninstall } from './extension-uninstall';
import { ExtensionVersions } from './extension-versions';
import { OlmBadge } from './olm-badge';

export function ExtensionView({ name }: { name: string }) {
  const key = ['olm-v1', 'clusterextension', name];
  const askedUninstall = useSearchParams().get('tab') === 'uninstall';
  // Once an uninstall has started the page holds still: the panel follows the deletion itself.
  const [busy, setBusy] = useState(false);
  const details = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      apiGet<ExtensionDetails>(`/api/olm-v1/clusterextensions/${encodeURIComponent(name)}`, signal),
  });
  const ns = details.data?.spec.namespace;
  // The extension itself (cluster-scoped), and the Deployments where it installs: their rollout is
  // what its health verdict waits on, and v1 writes no condition when a rollout ends.
  const live = useLiveRefresh(key, undefined, ['clusterextensions'], !details.error && !busy);
  useLiveRefresh(key, ns, ['deployments'], !!ns && !details.error && !busy);

  if (details.error)
    return (
      <ErrorPanel
        error={details.error}
        title={`ClusterExtension ${name} could not be read`}
        notFound={`There is no ClusterExtension ${name}: it may have been uninstalled, or never installed under this name.`}
        onRetry={() => void details.refetch()}
        back={[{ href: '/operators', label: 'Installed Operators' }]}
      />
    );
  if (!details.data) return <p role="status">Loading {name}…</p>;
  const d = details.data;
  const tones: Record<string, string> = { Healthy: 'ok', Progressing: 'progressing', Degraded: 'error' };
  const verdictTone = tones[d.verdict.state] ?? 'warning';
  return (
    <article className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <Link
          className="text-sky-700 underline"
          href={ns ? `/operators?namespace=${encodeURIComponent(ns)}` : '/operators'}
        >
          Installed Operators
        </Link>{' '}
        / {name}
      </nav>
      <header className="space-y-1">
        <h1 className="text-2xl font-bold [overflow-wrap:anywhere]">
          {name} <OlmBadge olm="v1" />
        </h1>
        <p className="text-slate-600">
          ClusterExtension of package {d.spec.package ?? '—'}
          {d.installed ? `, ${d.installed.version} installed` : ''}
          {ns ? ` · installs into ${ns}` : ''}
        </p>
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <Badge tone={d.status.severity} title={d.status.detail}>
            {d.status.label}
          </Badge>
          <Badge tone={verdictTone} title={d.verdict.detail}>
            Health: {d.verdict.state}
          </Badge>
          <LiveNotice state={live} />
        </p>
      </header>
      <section aria-labelledby="ext-status" className="space-y-2">
        <h2 id="ext-status" className="text-lg font-semibold">
          What OLM v1 says
        </h2>
        <p className="max-w-3xl text-sm [overflow-wrap:anywhere]">{d.status.detail}</p>
        {d.deprecations.length > 0 && (
          <Warning title="Deprecated in the catalog">
            <ul className="list-disc pl-5">
              {d.deprecations.map((x, i) => (
                <li key={i}>
                  The {x.of}: {x.message}
                </li>
              ))}
            </ul>
          </Warning>
        )}
        <details>
          <summary className="cursor-pointer text-sm text-sky-800">All conditions ({d.conditions.length})</summary>
          <div className="mt-2">
            <ConditionsTable rows={d.conditions} label={`Conditions of ${name}`} />
          </div>
        </details>
      </section>
      <ExtensionObjects details={d} />
      <ExtensionSpec details={d} />
      <ExtensionVersions details={d} />
      <ExtensionUninstall details={d} open={askedUninstall} onStarted={() => setBusy(true)} />
    </article>
  );
}
