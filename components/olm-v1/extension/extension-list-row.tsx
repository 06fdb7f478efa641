// A ClusterExtension as a row of Installed Operators, in the v0 rows' columns: its package and
// installed version, the namespace it installs into, v1's state in words. OLM v1.2.0 installs a
// registry+v1 bundle for all namespaces, so an installed one manages all of them.
import { ClusterLink as Link } from '@/lib/client/cluster';
import type { ExtensionRow } from '@/lib/api/olm-v1-extensions';
import { Badge } from '../../common/badges';
import { RelativeTime } from '../../common/relative-time';
import { StackedCell, StackedRow } from '../../common/stacked-table';
import { extensionHref } from './extension-href';
import { OlmBadge } from './olm-badge';

export function ExtensionListRow({ row }: { row: ExtensionRow }) {
  return (
    <StackedRow>
      <StackedCell label="Name">
        <Link className="font-medium text-sky-800 underline" href={extensionHref(row.name)}>
          {row.name}
        </Link>{' '}
        <OlmBadge olm="v1" />
        {row.deprecated && (
          <>
            {' '}
            <Badge tone="warning">Deprecated</Badge>
          </>
        )}
        <div className="text-xs text-slate-600">
          {row.package ? `package ${row.package}` : ''}
          {row.version ? `, ${row.version}` : ''}
        </div>
      </StackedCell>
      <StackedCell label="Namespace">{row.namespace ?? '—'}</StackedCell>
      <StackedCell label="Managed namespaces">{row.version ? 'All namespaces' : '—'}</StackedCell>
      <StackedCell label="Status">
        <Badge tone={row.status.severity} title={row.status.detail}>
          {row.status.label}
        </Badge>
        {row.status.severity !== 'ok' && (
          <div className="mt-0.5 max-w-xs text-xs text-slate-600">{row.status.detail}</div>
        )}
      </StackedCell>
      <StackedCell label="Upgrade">—</StackedCell>
      <StackedCell label="Last updated" className="text-xs text-slate-600">
        <RelativeTime iso={row.lastUpdated} />
      </StackedCell>
      <StackedCell className="text-right @max-3xl:text-left">
        <Link
          className="rounded border border-red-300 px-2 py-1 text-xs text-red-800 hover:bg-red-50"
          href={extensionHref(row.name, 'uninstall')}
          aria-label={`Uninstall ${row.name} (OLM v1)`}
        >
          Uninstall
        </Link>
      </StackedCell>
    </StackedRow>
  );
}
