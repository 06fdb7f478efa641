// A page of a cluster the console will not ask (one an Open Cluster Management hub lists without a
// usable address, or does not report Available): which cluster, why in the hub's words, and the
// way to the fleet's Clusters page, in place of a page that would wait on it or fail in pieces.
// A plain link: the way out leaves this cluster, so the next page loads afresh (ClusterLink says
// why); the header's cluster switcher leads to the others.
export function ClusterNotAsked({ cluster, reason }: { cluster: string; reason: string }) {
  return (
    <section
      aria-labelledby="cluster-not-asked-title"
      className="max-w-3xl space-y-3 rounded-lg border border-amber-300 bg-white p-5"
    >
      <h1 id="cluster-not-asked-title" className="text-2xl font-bold text-amber-950 [overflow-wrap:anywhere]">
        The console does not ask {cluster}
      </h1>
      <p className="text-slate-800 [overflow-wrap:anywhere]">{reason.charAt(0).toUpperCase() + reason.slice(1)}.</p>
      <p className="text-sm text-slate-700">Its row on the Clusters page shows what the hub says of it.</p>
      <p className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
        <a className="font-semibold text-sky-800 underline" href="/fleet/clusters">
          All clusters
        </a>
      </p>
    </section>
  );
}
