'use client';
// Cluster settings: OLM's cluster-wide configuration, OLMConfig `cluster`, read as the person and
// followed live. Today that is one setting, copied CSVs (copied-csvs-setting.tsx).
import { useQuery } from '@tanstack/react-query';
import type { OlmConfigView } from '@/lib/api/olm-config';
import { apiGet } from '@/lib/client/api';
import { useLiveRefresh } from '@/lib/client/live';
import { LiveNotice } from '@/components/common/live-notice';
import { ErrorPanel } from '../common/error-panel';
import { CopiedCsvsSetting } from './copied-csvs-setting';

export const OLM_CONFIG_KEY = ['olmconfig'];

export function ClusterSettingsView() {
  const q = useQuery({
    queryKey: OLM_CONFIG_KEY,
    queryFn: ({ signal }) => apiGet<OlmConfigView>('/api/olmconfig', signal),
  });
  const live = useLiveRefresh(OLM_CONFIG_KEY, undefined, ['olmconfigs'], q.data?.state === 'present');
  return (
    <article className="space-y-5">
      <header>
        <h1 className="text-2xl font-bold">Cluster settings</h1>
        <p className="text-sm text-slate-600">
          How OLM behaves for the whole cluster, from its OLMConfig <code>cluster</code>.
          <LiveNotice state={live} className="ml-2 text-amber-800" />
        </p>
      </header>
      {q.error && (
        <ErrorPanel
          level={2}
          error={q.error}
          title="OLMConfig cluster could not be read"
          onRetry={() => void q.refetch()}
          back={[{ href: '/operators', label: 'Installed Operators' }]}
        />
      )}
      {!q.data && !q.error && <p role="status">Reading OLMConfig cluster…</p>}
      {q.data && <CopiedCsvsSetting view={q.data} onChanged={() => void q.refetch()} />}
    </article>
  );
}
