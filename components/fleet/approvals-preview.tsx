'use client';
// The combined preview of everything a person is about to approve across the fleet, cluster by
// cluster: each InstallPlan's parts (from which version to which), and each ClusterExtension's
// version change as its own version page previews it (POST /api/fleet/approvals/preview: the
// version OLM v1 would install or its refusal, what it changes, the installer's rights). A change
// OLM v1 would refuse, or the console will not make (rights it may not widen), is left out of the
// approval and said so; everything else is approved with one button.
import { useQuery } from '@tanstack/react-query';
import type { FleetPreviewResponse, FleetVersionPreview } from '@/lib/api/fleet-approvals';
import { apiWrite } from '@/lib/client/api';
import { ErrorNotice } from '../common/notice';
import { PlanWords } from '../olm-v1/extension/version-plan-words';
import { changeText, itemKey, versionText, type ApprovalItem } from './approval-items';

const PRIMARY =
  'rounded bg-sky-700 px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600';

/** Why a previewed version change is left out, or undefined when it can be made. */
export function leftOut(p: FleetVersionPreview | undefined): string | undefined {
  if (!p) return 'its preview is not in yet';
  if (!p.ok) return `its preview failed (${p.error.reason}): ${p.error.message}`;
  if (p.plan.error) return 'OLM v1 would refuse it';
  if (!p.plan.resolved) return 'OLM v1 resolves no bundle for it';
  if (p.plan.rights?.state === 'refused') return 'the console will not widen its installer’s roles';
  return undefined;
}

export function ApprovalsPreview(props: {
  items: ApprovalItem[];
  pending: boolean;
  onApprove: (items: ApprovalItem[]) => void;
  onBack: () => void;
}) {
  const { items } = props;
  const versions = items.flatMap((i) => (i.kind === 'version' ? [i] : []));
  const preview = useQuery({
    queryKey: ['fleet', 'approvals', 'preview', versions.map(itemKey)],
    enabled: versions.length > 0,
    // Asked afresh each time the preview opens: the clusters may have moved on since.
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    queryFn: () =>
      apiWrite<FleetPreviewResponse>('/api/fleet/approvals/preview', 'POST', {
        versionChanges: versions.map((v) => ({
          cluster: v.cluster,
          name: v.change.name,
          version: v.change.to.version,
        })),
      }),
  });
  const previewOf = (i: ApprovalItem) =>
    i.kind === 'version'
      ? preview.data?.versionChanges.find((p) => p.cluster === i.cluster && p.name === i.change.name)
      : undefined;
  const ready = versions.length === 0 || !!preview.data;
  const going = items.filter((i) => i.kind === 'plan' || !leftOut(previewOf(i)));
  const clusters = [...new Set(items.map((i) => i.cluster))];
  const s = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const plans = items.length - versions.length;
  return (
    <section
      aria-labelledby="fleet-approvals-preview"
      className="space-y-3 rounded border border-amber-300 bg-amber-50 px-3 py-3"
    >
      <h2 id="fleet-approvals-preview" className="text-lg font-semibold">
        You are about to approve{' '}
        {[plans ? s(plans, 'InstallPlan') : '', versions.length ? s(versions.length, 'version change') : '']
          .filter(Boolean)
          .join(' and ')}{' '}
        on {s(clusters.length, 'cluster')}
      </h2>
      {versions.length > 0 && preview.isPending && <p role="status">Asking each cluster what OLM v1 would install…</p>}
      {preview.error && <ErrorNotice error={preview.error} what="The version changes could not be previewed" />}
      <ul className="space-y-3 text-sm">
        {clusters.map((name) => (
          <li key={name} className="space-y-1">
            <span className="font-semibold">{name}</span>
            <ul className="ml-4 list-disc space-y-2">
              {items
                .filter((i) => i.cluster === name)
                .map((i) =>
                  i.kind === 'plan' ? (
                    i.plan.changes.map((ch) => (
                      <li key={`${itemKey(i)}/${ch.toCsv}`}>
                        {changeText(ch)} <span className="text-xs text-slate-600">(InstallPlan {i.plan.name})</span>
                      </li>
                    ))
                  ) : (
                    <li key={itemKey(i)} className="space-y-1">
                      <p>
                        {versionText(i.change)}{' '}
                        <span className="text-xs text-slate-600">
                          (ClusterExtension {i.change.name}: its version set to exactly {i.change.to.version})
                        </span>
                      </p>
                      <VersionPreview item={i} preview={previewOf(i)} ready={!!preview.data} />
                    </li>
                  ),
                )}
            </ul>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          disabled={props.pending || !ready || going.length === 0}
          onClick={() => props.onApprove(going)}
          className={PRIMARY}
        >
          {props.pending ? 'Approving…' : `Approve ${going.length}`}
        </button>
        <button
          type="button"
          disabled={props.pending}
          onClick={props.onBack}
          className="rounded border border-slate-300 px-3 py-1.5 text-sm"
        >
          Back
        </button>
      </div>
    </section>
  );
}

function VersionPreview(props: {
  item: Extract<ApprovalItem, { kind: 'version' }>;
  preview?: FleetVersionPreview;
  ready: boolean;
}) {
  const p = props.preview;
  if (!props.ready) return null;
  const out = leftOut(p);
  return (
    <div className="space-y-2">
      {p?.ok && <PlanWords plan={p.plan} of={`${props.item.cluster} ${props.item.change.name}`} />}
      {out && <p className="font-medium text-red-900 [overflow-wrap:anywhere]">Left out of this approval: {out}.</p>}
    </div>
  );
}
