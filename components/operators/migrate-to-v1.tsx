'use client';
// "Move to OLM v1", on an OLM v0 operator's Details tab: whether OLM v1 v1.2.0 can take the
// operator over as a ClusterExtension at the same version, with every reason it cannot (an
// existing object OLM v0 did not install for it is one); for one that can, what v1 would take over
// and what it would create, the planned steps with what each writes and why, and the steps the
// person may not make (SelfSubjectAccessReview) with the reason. Applied once they confirm; the
// result says what each step did, what a rollback could not restore, and links the
// ClusterExtension. The plan says where the bundle's manifests were read (the catalog, or the
// image and digest); a move from an image names that digest, so it is refused if the bundle now
// reads from another.
import { useMutation, useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useState } from 'react';
import type { MigrationResult, MigrationStepView, MigrationView } from '@/lib/api/olm-v1-migration';
import { apiWrite } from '@/lib/client/api';
import { ErrorNotice } from '../common/notice';
import { MigrationObjects } from './migrate-to-v1-objects';
import { MigrationOutcome } from './migrate-to-v1-result';

function Step({ s }: { s: MigrationStepView }) {
  return (
    <li className="space-y-1">
      <p className="font-medium">{s.title}</p>
      <p className="text-slate-700">{s.why}</p>
      {s.writes.length > 0 && (
        <ul className="list-disc pl-5 text-xs text-slate-600 [overflow-wrap:anywhere]">
          {s.writes.map((w) => (
            <li key={`${w.verb}-${w.kind}-${w.namespace ?? ''}-${w.name}`}>
              {w.verb} {w.kind} {w.namespace ? `${w.namespace}/` : ''}
              {w.name}
              {w.propagationPolicy ? ` (propagation ${w.propagationPolicy})` : ''}
            </li>
          ))}
        </ul>
      )}
      {s.denied && (
        <p className="rounded border border-red-300 bg-red-50 px-2 py-1 text-red-900">
          <span className="font-semibold">You may not:</span> {s.denied}
        </p>
      )}
    </li>
  );
}

/** Where what OLM v1 would apply was read: the catalog's own objects, or the bundle image at a digest. */
function ContentSource({ source, moving }: { source: NonNullable<MigrationView['source']>; moving?: boolean }) {
  if (source.from === 'catalog')
    return <p className="text-slate-600">The bundle’s manifests were read from the catalog.</p>;
  return (
    <p className="text-slate-600 [overflow-wrap:anywhere]">
      The bundle’s manifests were read from its image <code>{source.image}</code>, digest <code>{source.digest}</code>
      {moving ? '; the move is refused if the catalog’s bundle no longer reads from that digest.' : '.'}
    </p>
  );
}

export function MigrateToV1({
  namespace,
  csvName,
  onMoving,
}: {
  namespace: string;
  csvName: string;
  /** Told when the move starts (the page then holds still: the CSV is going away) and when it failed. */
  onMoving: (moving: boolean) => void;
}) {
  const [open, setOpen] = useState(false);
  const [understood, setUnderstood] = useState(false);
  const base = `/api/operators/${encodeURIComponent(namespace)}/${encodeURIComponent(csvName)}/migrate-to-v1`;
  const plan = useQuery({
    queryKey: ['migrate-to-v1', namespace, csvName],
    queryFn: () => apiWrite<MigrationView>(`${base}/plan`, 'POST', {}),
    enabled: open,
  });
  const apply = useMutation({
    mutationFn: () =>
      apiWrite<MigrationResult>(
        base,
        'POST',
        plan.data?.source?.from === 'image' ? { bundleDigest: plan.data.source.digest } : {},
      ),
    onMutate: () => onMoving(true),
    onSettled: (r) => onMoving(!!r?.ok),
  });
  const v = plan.data;

  return (
    <details
      className="rounded border border-slate-200 bg-white p-3"
      onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}
    >
      <summary className="cursor-pointer font-semibold">Move to OLM v1</summary>
      <div className="mt-3 space-y-3 text-sm">
        <p className="text-slate-600">
          Whether OLM v1 can take this operator over as a ClusterExtension installing the same version. Its CRDs and
          every instance would stay; OLM v0 would stop managing it.
        </p>
        {plan.error && <ErrorNotice error={plan.error} what="Whether it can move could not be worked out" />}
        {open && plan.isPending && <p role="status">Checking what OLM v1 would do…</p>}
        {v && !v.canMove && (
          <section aria-label="Why it cannot move" className="space-y-1">
            <p className="font-medium">It cannot move to OLM v1:</p>
            <ul className="list-disc space-y-1 pl-5">
              {v.reasons.map((r) => (
                <li key={r.message}>{r.message}</li>
              ))}
            </ul>
            {v.source && <ContentSource source={v.source} />}
          </section>
        )}
        {v?.canMove && !apply.data && (
          <section aria-label="Move plan" className="space-y-3">
            <p>
              It can move: ClusterExtension <strong>{v.extension}</strong> would install version {v.version}
              {v.channel ? ` from channel ${v.channel}` : ''} of ClusterCatalog {v.catalog}.
            </p>
            {v.source && <ContentSource source={v.source} moving />}
            {v.objects && <MigrationObjects objects={v.objects} />}
            <ol className="list-decimal space-y-3 pl-5" aria-label="Move steps">
              {v.steps!.map((s) => (
                <Step key={s.id} s={s} />
              ))}
            </ol>
            {v.blocked ? (
              <p className="rounded border border-amber-300 bg-amber-50 px-2 py-1 text-amber-950">
                You cannot apply this move: you may not make every write it needs (see the steps above).
              </p>
            ) : (
              <div className="space-y-2">
                <label className="flex items-start gap-2">
                  <input
                    type="checkbox"
                    className="mt-1"
                    checked={understood}
                    disabled={apply.isPending}
                    onChange={(e) => setUnderstood(e.target.checked)}
                  />
                  <span>
                    I understand OLM v0 stops managing {csvName}, and its Deployment rolls out once under OLM v1.
                  </span>
                </label>
                <button
                  type="button"
                  disabled={!understood || apply.isPending}
                  onClick={() => apply.mutate()}
                  className="rounded bg-sky-700 px-3 py-1.5 font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
                >
                  {apply.isPending ? 'Moving…' : 'Move to OLM v1'}
                </button>
                {apply.isPending && (
                  <p role="status">
                    Applying the steps in order, then waiting for OLM v1 to report the extension Installed (up to two
                    minutes)…
                  </p>
                )}
              </div>
            )}
          </section>
        )}
        {apply.error && <ErrorNotice error={apply.error} what="The move was refused; nothing was changed" />}
        {apply.data && <MigrationOutcome result={apply.data} />}
        {apply.data?.ok && (
          <p>
            <Link
              className="text-sky-700 underline"
              href={`/clusterextensions/${encodeURIComponent(apply.data.extension)}`}
            >
              Open ClusterExtension {apply.data.extension}
            </Link>
          </p>
        )}
      </div>
    </details>
  );
}
