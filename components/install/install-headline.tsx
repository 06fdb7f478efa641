'use client';
// The install page's title: the operator by its display name, as OperatorHub, its details page and
// Installed Operators call it (the same package details query, so usually cached from the wizard),
// with the package name beneath; the package name alone while that is not known, or where the
// person may not read the catalog.
import type { Subscription } from '@/lib/olm/resources/subscription';
import { usePackageDetails } from '../details/package-details-view';

export function InstallHeadline({
  verb,
  subscription,
  namespace,
}: {
  verb: string;
  subscription: Subscription;
  namespace: string;
}) {
  const spec = subscription.spec;
  const details = usePackageDetails(
    { catalogNamespace: spec.sourceNamespace, catalog: spec.source, pkg: spec.name },
    undefined,
    undefined,
    namespace,
  );
  const display = details.data?.selected.csv?.displayName?.trim();
  return (
    <div>
      <h1 className="text-2xl font-bold [overflow-wrap:anywhere]">
        {verb} {display || spec.name} in {namespace}
      </h1>
      {display && display !== spec.name && (
        <p className="text-sm text-slate-600 [overflow-wrap:anywhere]">Package {spec.name}</p>
      )}
    </div>
  );
}
