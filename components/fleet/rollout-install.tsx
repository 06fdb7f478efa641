// One install on one cluster, in a package's rollout: what runs, from where, what waits for
// approval, the channel's head there and the steps to it, or why the steps are not known.
import type { RolloutInstall } from '@/lib/api/fleet-rollout';
import { Badge } from '../common/badges';

function PathSteps({ install }: { install: RolloutInstall }) {
  const { path, head } = install;
  if (!path)
    return (
      <p className="text-sm text-slate-700">
        <span className="font-semibold">Upgrade path not known here:</span> {install.pathUnknown}
      </p>
    );
  if (path.steps.length === 0)
    return (
      <p className="text-sm">
        {path.reachesHead
          ? `Up to date: it runs the newest version its channel offers here${
              install.versionConstraint ? ` within its version constraint ${install.versionConstraint}` : ''
            }.`
          : 'No upgrade is offered from its version here.'}
        {path.error && <span className="block text-red-800">{path.error}</span>}
      </p>
    );
  return (
    <div className="text-sm">
      <p>
        {path.steps.length} step{path.steps.length === 1 ? '' : 's'} to{' '}
        {path.reachesHead ? `the head${head?.version ? ` ${head.version}` : ''}` : `${path.end}, short of the head`}:
      </p>
      <ol className="ml-5 list-decimal">
        {path.steps.map((s) => (
          <li key={`${s.from}>${s.to}`} className="break-words">
            {s.to}
            {s.toVersion ? ` (${s.toVersion})` : ''}
            {s.via?.length ? <span className="text-slate-600"> by {s.via.join(', ')}</span> : null}
          </li>
        ))}
      </ol>
      {path.error && <p className="text-red-800">{path.error}</p>}
    </div>
  );
}

export function RolloutInstallView({ install: i }: { install: RolloutInstall }) {
  const what = i.olm === 'v1' ? `OLM v1 ClusterExtension ${i.name}` : `OLM v0 Subscription ${i.namespace}/${i.name}`;
  return (
    <article aria-label={what} className="border-t border-slate-200 py-2 first:border-t-0">
      <p>
        <span className="text-xl font-semibold">{i.version ?? 'no version yet'}</span>{' '}
        <span className="text-sm break-words text-slate-700">{what}</span>
      </p>
      <p className="flex flex-wrap gap-1 py-0.5">
        <Badge tone={i.health.severity} title={i.health.detail}>
          {i.health.label}
        </Badge>
        {i.waiting && <Badge tone="warning">Upgrade waiting for approval</Badge>}
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm">
        {i.bundle && (
          <>
            <dt className="text-slate-600">{i.olm === 'v1' ? 'Bundle' : 'CSV'}</dt>
            <dd className="break-words">{i.bundle}</dd>
          </>
        )}
        <dt className="text-slate-600">Channel</dt>
        <dd className="break-words">{i.channel ?? (i.olm === 'v1' ? 'any' : 'the default channel')}</dd>
        {i.versionConstraint && (
          <>
            <dt className="text-slate-600">Version</dt>
            <dd className="break-words">{i.versionConstraint}</dd>
          </>
        )}
        {i.catalog && (
          <>
            <dt className="text-slate-600">Catalog</dt>
            <dd className="break-words">{i.catalog}</dd>
          </>
        )}
        {i.approval && (
          <>
            <dt className="text-slate-600">Approval</dt>
            <dd>{i.approval}</dd>
          </>
        )}
        {i.waiting && (
          <>
            <dt className="text-slate-600">Waiting</dt>
            <dd className="break-words">
              InstallPlan {i.waiting.installPlan}: {i.waiting.from ?? 'nothing installed'} → {i.waiting.to.join(', ')}
            </dd>
          </>
        )}
        {i.head && (
          <>
            <dt className="text-slate-600">{i.versionConstraint ? 'Newest allowed' : 'Newest here'}</dt>
            <dd className="break-words">
              {i.head.version ?? i.head.name}
              {i.head.version ? <span className="text-slate-600"> ({i.head.name})</span> : null}
            </dd>
          </>
        )}
      </dl>
      <PathSteps install={i} />
    </article>
  );
}
