// The Subscriptions that install from a catalog, as a catalog change's plan lists them.
import { ClusterLink as Link } from '@/lib/client/cluster';
import type { CatalogSourcePlan } from '@/lib/api/catalog-sources';

export function PlanSubscriptions({ plan }: { plan: CatalogSourcePlan }) {
  if (plan.action === 'create') return null;
  return (
    <div className="text-sm">
      {plan.subscriptions.length > 0 && (
        <>
          <p className="font-medium">Subscriptions that install from it ({plan.subscriptions.length})</p>
          <ul aria-label="Subscriptions from this catalog" className="list-disc pl-5">
            {plan.subscriptions.map((s) => (
              <li key={`${s.namespace}/${s.name}`}>
                <Link
                  className="text-sky-700 underline"
                  href={`/installs/${encodeURIComponent(s.namespace)}/${encodeURIComponent(s.name)}`}
                >
                  {s.namespace}/{s.name}
                </Link>{' '}
                ({s.package}, {s.approval} approval)
              </li>
            ))}
          </ul>
        </>
      )}
      {plan.subscriptionsProblem && <p className="text-amber-800">{plan.subscriptionsProblem}.</p>}
    </div>
  );
}
