// The facts column of a version: provider, capability, repository, image, dates, maintainers,
// links, install modes, suggested namespace.
import type { SelectedVersion } from '@/lib/hub/catalog-types';
import { installsForAllNamespaces } from '@/lib/olm/v1/install-modes';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-sm text-slate-800 [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

/** `olmV1`: the page installs with OLM v1, which targets all namespaces only. */
export function VersionFacts({ selected, olmV1 = false }: { selected: SelectedVersion; olmV1?: boolean }) {
  const csv = selected.csv;
  if (!csv) return <p className="text-sm text-slate-600">{selected.note}</p>;
  const suggested = csv.suggestedNamespace || csv.suggestedNamespaceTemplate?.name;
  return (
    <dl className="space-y-3">
      <Row label="Version">{selected.version ?? selected.csvName}</Row>
      <Row label="Provider">
        {csv.provider.url ? (
          <a
            className="text-sky-700 underline"
            href={csv.provider.url}
            target="_blank"
            rel="noopener noreferrer nofollow"
          >
            {csv.provider.name || csv.provider.url}
          </a>
        ) : (
          csv.provider.name || '—'
        )}
      </Row>
      <Row label="Capability level">{csv.capability ?? '—'}</Row>
      {csv.categories.length > 0 && <Row label="Categories">{csv.categories.join(', ')}</Row>}
      {csv.repository && (
        <Row label="Repository">
          <a
            className="text-sky-700 underline"
            href={csv.repository}
            target="_blank"
            rel="noopener noreferrer nofollow"
          >
            {csv.repository}
          </a>
        </Row>
      )}
      {csv.containerImage && (
        <Row label="Container image">
          <code className="text-xs">{csv.containerImage}</code>
        </Row>
      )}
      {csv.createdAt && <Row label="Created at">{csv.createdAt}</Row>}
      {csv.support && <Row label="Support">{csv.support}</Row>}
      <Row label="Install modes">
        {/* Said in words: a faint struck-through name was both unreadable and unexplained. */}
        <ul>
          {csv.installModes.map((m) => (
            <li key={m.type}>
              <span aria-hidden="true" className={m.supported ? 'text-emerald-700' : 'text-slate-600'}>
                {m.supported ? '✓ ' : '✗ '}
              </span>
              {m.type}
              {m.supported ? (
                <span className="sr-only"> (supported)</span>
              ) : (
                <span className="text-slate-600"> (not supported)</span>
              )}
            </li>
          ))}
        </ul>
        {olmV1 && (
          <p className="mt-1 text-slate-700">
            {installsForAllNamespaces(csv.installModes)
              ? 'OLM v1 installs it for all namespaces, the only mode it offers.'
              : 'OLM v1 cannot install this version: it installs for all namespaces only, which this version does not support.'}
          </p>
        )}
      </Row>
      {suggested && <Row label="Suggested namespace">{suggested}</Row>}
      {csv.infrastructureFeatures.length > 0 && (
        <Row label="Infrastructure features">{csv.infrastructureFeatures.join(', ')}</Row>
      )}
      {csv.validSubscription.length > 0 && <Row label="Valid subscription">{csv.validSubscription.join(', ')}</Row>}
      {(csv.arch.length > 0 || csv.os.length > 0) && <Row label="Runs on">{[...csv.os, ...csv.arch].join(', ')}</Row>}
      {csv.maintainers.length > 0 && (
        <Row label="Maintainers">
          <ul>
            {csv.maintainers.map((m) => (
              <li key={`${m.name}-${m.email ?? ''}`}>{m.email ? `${m.name} <${m.email}>` : m.name}</li>
            ))}
          </ul>
        </Row>
      )}
      {csv.links.length > 0 && (
        <Row label="Links">
          <ul>
            {csv.links.map((l) => (
              <li key={l.url}>
                <a className="text-sky-700 underline" href={l.url} target="_blank" rel="noopener noreferrer nofollow">
                  {l.name}
                </a>
              </li>
            ))}
          </ul>
        </Row>
      )}
    </dl>
  );
}
