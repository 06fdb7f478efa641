// What the ClusterExtension asks for (spec) beside what v1 installed (status.install.bundle).
import type { ExtensionDetails } from '@/lib/api/olm-v1-extensions';

export function ExtensionSpec({ details: d }: { details: ExtensionDetails }) {
  const rows: [string, string][] = [
    ['Installed bundle', d.installed ? `${d.installed.name} (${d.installed.version})` : 'none'],
    ['Package', d.spec.package ?? '—'],
    ['Version or range', d.spec.version || 'any (the latest v1 may reach)'],
    ['Channels', d.spec.channels.length ? d.spec.channels.join(', ') : 'any channel (v1 has no default channel)'],
    ['Catalogs', d.spec.selector ? `those matching ${JSON.stringify(d.spec.selector)}` : 'every ClusterCatalog'],
    [
      'Upgrade constraint policy',
      d.spec.policy === 'SelfCertified'
        ? 'SelfCertified: any version may be set; the catalog’s upgrade edges are not checked'
        : 'CatalogProvided: only upgrades the catalog’s edges allow',
    ],
    ['Namespace', d.spec.namespace ?? '—'],
    ['ServiceAccount', d.spec.serviceAccount ?? '—'],
    ...(d.spec.crdUpgradeSafety ? [['CRD upgrade safety', d.spec.crdUpgradeSafety] as [string, string]] : []),
  ];
  return (
    <section aria-labelledby="ext-spec" className="space-y-2">
      <h2 id="ext-spec" className="text-lg font-semibold">
        Spec and installed bundle
      </h2>
      <dl className="grid max-w-3xl grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[14rem_1fr]">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="font-medium text-slate-700">{k}</dt>
            <dd className="mb-1 [overflow-wrap:anywhere] sm:mb-0">{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
