'use client';
// One rollout wave by wave: each decision group (the canary first), each cluster's state and what
// it runs from status feedback (with an OperatorPolicy, its compliance there in its own words, or
// why it is not known; whether OCM timed it out, which its set's status never says, and whether
// that holds the rollout), and, after an upgrade, which clusters have the new generation and which
// keep what the one before installed; OCM's conditions; what the policy does; what the person may not
// see; Stop, shown only as the hub allows it (disabled with the hub's reason otherwise); and what
// OCM v1.0.0 and OLM cannot do (no pause, no wave rollback), said rather than offered.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import type { ClusterRow } from '@/lib/olm/rollout/status';
import type { RolloutDetail } from '@/lib/api/fleet-rollouts';
import { apiGet, apiWrite } from '@/lib/client/api';
import { ErrorPanel } from '../common/error-panel';
import { complianceWords } from './compliance-words';
import { timeoutWords, waveTitle } from './timeout-words';

const STATE_TEXT: Record<ClusterRow['state'], string> = {
  waiting: 'waiting for an earlier wave',
  outdated: 'runs an earlier version of this rollout',
  applying: 'applying',
  healthy: 'healthy',
  unhealthy: 'not healthy',
  failed: 'could not be applied',
};

/** A cluster of a later generation that its wave has not reached keeps what the generation before installed. */
function stateText(c: ClusterRow, generation: number): string {
  if (c.state === 'waiting' && generation > 1)
    return `keeps what generation ${generation - 1} installed, until an earlier wave is healthy`;
  return STATE_TEXT[c.state];
}

/** What the cluster runs, from its status feedback: v0 installed CSV or v1 bundle version. */
function runs(f: Record<string, string>): string {
  if (f.installedCSV) return `${f.installedCSV}${f.state ? ` (${f.state})` : ''}`;
  if (f.bundleVersion) return `${f.bundleName ?? ''} ${f.bundleVersion}`.trim();
  return 'nothing reported yet';
}

/** A cluster's line: its state, and what it runs or (with an OperatorPolicy) the policy's compliance there. */
function ClusterLine({ c, generation }: { c: ClusterRow; generation: number }) {
  const p = c.compliance;
  return (
    <li>
      <span className="font-semibold">{c.cluster}</span>: {stateText(c, generation)}
      {p || c.state === 'waiting' ? null : <>; runs {runs(c.feedback)}</>}
      {c.message ? <span className="text-slate-700"> ({c.message})</span> : null}
      {c.timedOut ? <p className="pl-4 text-sm break-words text-amber-900">{timeoutWords(c.timedOut)}</p> : null}
      {p ? <p className="pl-4 text-sm break-words">{complianceWords(p)}</p> : null}
    </li>
  );
}

type PolicyView = NonNullable<RolloutDetail['view']['operatorPolicy']>;

/** The rollout's OperatorPolicy: where it is, its terms, and what config-policy-controller does with them. */
function PolicyTerms({ p }: { p: PolicyView }) {
  return (
    <section aria-labelledby="rollout-policy" className="text-sm">
      <h2 id="rollout-policy" className="font-semibold">
        OperatorPolicy {p.namespace}/{p.name} on each cluster
      </h2>
      <p>
        upgradeApproval {p.upgradeApproval}; versions {p.versions.length ? p.versions.join(', ') : 'none (any)'}
        {p.startingCSV ? `; startingCSV ${p.startingCSV}` : ''}.
      </p>
      <ul className="list-disc pl-5">
        {p.behaviour.map((b) => (
          <li key={b}>{b}</li>
        ))}
      </ul>
    </section>
  );
}

export function RolloutsDetail({ namespace, name }: { namespace: string; name: string }) {
  const path = `/api/fleet/rollouts/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`;
  const qc = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const q = useQuery({
    queryKey: ['fleet', 'rollouts', namespace, name],
    queryFn: ({ signal }) => apiGet<RolloutDetail>(path, signal),
    refetchInterval: 10_000,
  });
  const stop = useMutation({
    mutationFn: () => apiWrite<{ stopped: string }>(path, 'DELETE'),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['fleet', 'rollouts'] }),
  });
  const d = q.data;
  return (
    <section aria-labelledby="rollout-title" className="space-y-4">
      <p className="text-sm">
        <Link href="/fleet/rollouts" className="text-sky-700 underline">
          Rollouts
        </Link>
      </p>
      <h1 id="rollout-title" className="text-2xl font-bold break-words">
        {namespace}/{name}
        {d?.package ? `: ${d.package} (OLM ${d.olm})` : ''}
      </h1>
      {q.error && !stop.isSuccess ? (
        <ErrorPanel error={q.error} title="The rollout could not be read" onRetry={() => void q.refetch()} />
      ) : null}
      {stop.isSuccess ? (
        <p role="status">
          Stopped: the rollout&apos;s ManifestWorkReplicaSets are deleted; each cluster keeps what it runs, no longer
          managed by them.
        </p>
      ) : null}
      {!d && !q.error ? <p role="status">Reading the hub…</p> : null}
      {d && !stop.isSuccess ? (
        <>
          <p>
            Generation {d.generation} (ManifestWorkReplicaSet {d.set})
            {d.generation > 1
              ? ': an upgrade; a cluster with its ManifestWork runs the new version, the others keep what they ran.'
              : '.'}
          </p>
          <p className="text-sm text-slate-700">
            Hub: {d.conditions.map((c) => `${c.type} ${c.status}${c.reason ? ` (${c.reason})` : ''}`).join('; ')}
          </p>
          {d.notes.map((n) => (
            <p key={n} className="text-sm text-slate-700">
              You may not see everything here: {n}
            </p>
          ))}
          {d.view.waves.map((w) => (
            <section
              key={w.index}
              aria-labelledby={`wave-${w.index}`}
              className="rounded border border-slate-300 bg-white px-3 py-2"
            >
              <h2 id={`wave-${w.index}`} className="text-lg">
                {waveTitle(w)}
              </h2>
              <ul>
                {w.clusters.map((c) => (
                  <ClusterLine key={c.cluster} c={c} generation={d.generation} />
                ))}
              </ul>
            </section>
          ))}
          {d.view.operatorPolicy ? <PolicyTerms p={d.view.operatorPolicy} /> : null}
          {d.view.leaving.length ? (
            <p className="text-sm">
              No longer picked by the Placement (its work is being removed): {d.view.leaving.join(', ')}
            </p>
          ) : null}
          <div className="space-y-2">
            {!confirming ? (
              <button
                type="button"
                className="rounded border border-red-700 px-3 py-1 text-red-800 disabled:opacity-50"
                disabled={!d.actions.stop.allowed}
                title={d.actions.stop.allowed ? undefined : d.actions.stop.reason}
                onClick={() => setConfirming(true)}
              >
                Stop this rollout
              </button>
            ) : (
              <p>
                Delete the rollout&apos;s ManifestWorkReplicaSets? Every cluster&apos;s ManifestWork goes; what each
                runs stays.{' '}
                <button type="button" className="underline" onClick={() => stop.mutate()} disabled={stop.isPending}>
                  Stop it
                </button>{' '}
                <button type="button" className="underline" onClick={() => setConfirming(false)}>
                  Keep it
                </button>
              </p>
            )}
            {!d.actions.stop.allowed ? (
              <p className="text-sm text-slate-700">
                You may not stop it: {d.actions.stop.reason ?? `the hub does not let you ${d.actions.stop.what}`}
              </p>
            ) : null}
            {stop.error ? <ErrorPanel error={stop.error} title="The rollout could not be stopped" level={2} /> : null}
          </div>
          <section aria-labelledby="rollout-limits" className="text-sm text-slate-700">
            <h2 id="rollout-limits" className="font-semibold">
              Not offered, and why
            </h2>
            <ul className="list-disc pl-5">
              {d.limits.map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
          </section>
        </>
      ) : null}
    </section>
  );
}
