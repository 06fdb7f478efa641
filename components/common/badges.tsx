// Status badges coloured by severity, with the sentence behind them as the title.
import { ClusterLink as Link } from '@/lib/client/cluster';

const TONES: Record<string, string> = {
  ok: 'bg-emerald-100 text-emerald-900',
  info: 'bg-sky-100 text-sky-900',
  progressing: 'bg-sky-100 text-sky-900',
  warning: 'bg-amber-100 text-amber-900',
  error: 'bg-red-100 text-red-900',
  neutral: 'bg-slate-100 text-slate-700',
};

export function Badge({ tone, children, title }: { tone: string; children: React.ReactNode; title?: string }) {
  return (
    <span
      title={title}
      className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium ${TONES[tone] ?? TONES.neutral}`}
    >
      {children}
    </span>
  );
}

const UPGRADE_TONES: Record<string, string> = {
  'up-to-date': 'ok',
  'upgrade-available': 'info',
  upgrading: 'info',
  installing: 'info',
  'requires-approval': 'warning',
  failed: 'error',
  unknown: 'neutral',
};
export const upgradeTone = (kind: string) => UPGRADE_TONES[kind] ?? 'neutral';

export function installPlanHref(namespace: string, plan: string): string {
  return `/installplans/${encodeURIComponent(namespace)}/${encodeURIComponent(plan)}`;
}

/**
 * An operator's upgrade status as a badge; "N requires approval" is a link to the (first) plan
 * waiting, where it can be previewed and approved, its name the badge's words.
 */
interface UpgradeLike {
  kind: string;
  label: string;
  detail: string;
  pendingApproval: readonly string[];
}

export function UpgradeBadge({ upgrade, namespace }: { upgrade: UpgradeLike; namespace: string }) {
  const waiting = upgrade.kind === 'requires-approval' ? upgrade.pendingApproval[0] : undefined;
  if (!waiting)
    return (
      <Badge tone={upgradeTone(upgrade.kind)} title={upgrade.detail}>
        {upgrade.label}
      </Badge>
    );
  const look = `inline-block rounded px-1.5 py-0.5 text-xs font-medium underline ${TONES.warning}`;
  return (
    <Link href={installPlanHref(namespace, waiting)} title={upgrade.detail} className={look}>
      {upgrade.label}
    </Link>
  );
}
