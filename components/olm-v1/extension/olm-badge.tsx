// Which OLM manages an installed operator: v0 (a Subscription and its CSV) or v1 (a ClusterExtension).
export function OlmBadge({ olm }: { olm: 'v0' | 'v1' }) {
  return (
    <span
      className={`ml-1 inline-block rounded border px-1 text-[0.7rem] font-semibold ${
        olm === 'v1' ? 'border-violet-300 bg-violet-50 text-violet-900' : 'border-slate-300 bg-slate-50 text-slate-700'
      }`}
    >
      OLM {olm}
    </span>
  );
}
