// Provided and required APIs of a version, and its package dependencies.
import type { SelectedVersion } from '@/lib/hub/catalog-types';
import type { ApiDescription } from '@/lib/olm/resources/csv-description';

function Apis({ title, apis }: { title: string; apis: ApiDescription[] }) {
  if (apis.length === 0) return null;
  return (
    <section aria-label={title} className="space-y-2">
      <h2 className="text-lg font-semibold">{title}</h2>
      <ul className="grid gap-2 sm:grid-cols-2">
        {apis.map((a) => (
          <li key={`${a.group}/${a.version}/${a.kind}`} className="rounded border border-slate-200 bg-white p-3">
            <p className="font-medium">{a.displayName || a.kind}</p>
            <p className="text-xs text-slate-500">
              {a.kind} · {a.group}/{a.version}
            </p>
            {a.description && <p className="mt-1 text-sm text-slate-700">{a.description}</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ApiList({ selected }: { selected: SelectedVersion }) {
  return (
    <div className="space-y-6">
      <Apis title="Provided APIs" apis={selected.csv?.providedApis ?? []} />
      <Apis title="Required APIs" apis={selected.csv?.requiredApis ?? []} />
      {selected.requiredPackages.length > 0 && (
        <section aria-label="Package dependencies" className="space-y-2">
          <h2 className="text-lg font-semibold">Package dependencies</h2>
          <p className="text-sm text-slate-600">
            OLM installs these too, from the catalogs the cluster has, if they are not installed already.
          </p>
          <ul className="list-disc pl-6 text-sm">
            {selected.requiredPackages.map((r) => (
              <li key={r.packageName}>
                <code>{r.packageName}</code> {r.versionRange}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
