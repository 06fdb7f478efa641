// OperatorHub when no catalog is readable for the person: rather than "0 of 0 operators", the
// possible reasons (the list cannot tell "none" from "not yours to read"), and a way to look in
// the namespace they work in, where packageserver also shows the global catalogs to anyone who
// may list PackageManifests there. A plain GET form: it needs no script.
export function NoCatalogs({ namespace }: { namespace?: string }) {
  const where = namespace ? `in namespace ${namespace}` : "in the cluster's global catalog namespaces";
  return (
    <div role="note" className="space-y-3 rounded border border-slate-300 bg-white p-4 text-sm text-slate-800">
      <p>
        No catalog is readable for you {where}: there is none, or you may not list CatalogSources and PackageManifests
        there. If your rights are in a namespace of your own, look at the catalogs offered there.
      </p>
      <form action="/operatorhub" method="get" className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col">
          <span className="font-medium text-slate-700">Namespace</span>
          <input
            name="namespace"
            required
            defaultValue={namespace}
            autoComplete="off"
            className="w-56 rounded border border-slate-400 px-2 py-1.5"
          />
        </label>
        <button type="submit" className="rounded bg-sky-700 px-4 py-1.5 font-semibold text-white">
          Show its catalogs
        </button>
      </form>
    </div>
  );
}
