// Kubernetes conditions as a table: type, status, reason, message, last transition.
export interface ConditionLike {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  phase?: string;
}

export function ConditionsTable({ rows, label, first = 'Type' }: { rows: ConditionLike[]; label: string; first?: 'Type' | 'Phase' }) {
  if (rows.length === 0) return <p className="text-sm text-slate-600">None reported.</p>;
  return (
    <table aria-label={label} className="w-full border-collapse text-sm">
      <thead>
        <tr className="border-b border-slate-300 text-left text-slate-600">
          <th className="py-1.5 pr-3">{first}</th>
          {first === 'Type' && <th className="py-1.5 pr-3">Status</th>}
          <th className="py-1.5 pr-3">Reason</th>
          <th className="py-1.5 pr-3">Message</th>
          <th className="py-1.5">Last transition</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((c, i) => (
          <tr key={i} className="border-b border-slate-100 align-top">
            <td className="py-1.5 pr-3 font-medium">{first === 'Type' ? c.type : c.phase}</td>
            {first === 'Type' && <td className="py-1.5 pr-3">{c.status}</td>}
            <td className="py-1.5 pr-3">{c.reason}</td>
            <td className="py-1.5 pr-3">{c.message}</td>
            <td className="py-1.5 text-xs text-slate-600">{c.lastTransitionTime ? new Date(c.lastTransitionTime).toLocaleString() : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
