// catalogd's two conditions on a ClusterCatalog as it wrote them (type, status, reason, message),
// each marked when it still describes an earlier spec, and where the content is served.
import type { CatalogCondition, ClusterCatalogRow } from '@/lib/api/olm-v1-catalogs';

function Line({ type, c }: { type: string; c?: CatalogCondition }) {
  if (!c) return <li>{type}: not reported by catalogd yet</li>;
  return (
    <li>
      <span className="font-medium">
        {type} {c.status}
      </span>{' '}
      ({c.reason}){c.message ? `: ${c.message}` : ''}
      {!c.current && <span className="text-slate-600"> (about an earlier spec)</span>}
    </li>
  );
}

export function CatalogStatus({ row }: { row: ClusterCatalogRow }) {
  return (
    <ul aria-label={`Conditions of ${row.name}`} className="mt-1 space-y-0.5 text-xs text-slate-800">
      <Line type="Serving" c={row.serving} />
      <Line type="Progressing" c={row.progressing} />
      {row.baseUrl && <li className="font-mono text-slate-600">{row.baseUrl}</li>}
    </ul>
  );
}
