// Status badges coloured by severity, with the sentence behind them as the title.
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
    <span title={title} className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium ${TONES[tone] ?? TONES.neutral}`}>
      {children}
    </span>
  );
}

const UPGRADE_TONES: Record<string, string> = { 'up-to-date': 'ok', 'upgrade-available': 'info', upgrading: 'info', installing: 'info', 'requires-approval': 'warning', failed: 'error', unknown: 'neutral' };
export const upgradeTone = (kind: string) => UPGRADE_TONES[kind] ?? 'neutral';
