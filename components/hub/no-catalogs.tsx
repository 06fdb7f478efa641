'use client';
// OperatorHub when no catalog is readable for the person: rather than "0 of 0 operators", the
// possible reasons (the list cannot tell "none" from "not yours to read"), and the namespaces
// they work in (the one namespace chooser), where packageserver also shows the global catalogs
// to anyone who may list PackageManifests there. A namespace admin who may not list namespaces
// names hers once; it is checked with her rights and offered from then on.
import { useClusterRouter } from '@/lib/client/cluster';
import { NamespaceChooser } from '../common/namespace-chooser';

export function NoCatalogs({ namespace }: { namespace?: string }) {
  const router = useClusterRouter();
  const where = namespace ? `in namespace ${namespace}` : "in the cluster's global catalog namespaces";
  return (
    <div role="note" className="space-y-3 rounded border border-slate-300 bg-white p-4 text-sm text-slate-800">
      <p>
        No catalog is readable for you {where}: there is none, or you may not list CatalogSources and PackageManifests
        there. If your rights are in a namespace of your own, look at the catalogs offered there.
      </p>
      <NamespaceChooser
        value={namespace ?? ''}
        placeholder="Choose a namespace…"
        submitLabel="Show its catalogs"
        onChange={(ns) => router.push(`/operatorhub?namespace=${encodeURIComponent(ns)}`)}
      />
    </div>
  );
}
