// A ClusterExtension version change's preview in words (`POST …/version/plan`): the version OLM v1
// would install or its refusal, what the change does against the installed bundle, and whether
// the installer's ServiceAccount may install it (held, widened first, unknown, or refused). Shown
// by the extension's version page and by the fleet's combined approval preview, so both say the same.
import { dump } from 'js-yaml';
import type { PolicyRuleLike, VersionPlan } from '@/lib/api/olm-v1-extensions';
import { UpgradeChanges } from '../../common/upgrade-changes';

/** `of` names the extension (and cluster) where one page previews several changes. */
export function PlanWords({ plan, of }: { plan: VersionPlan; of?: string }) {
  if (plan.error)
    return (
      <p className="text-sm text-red-900 [overflow-wrap:anywhere]">
        OLM v1 would refuse this and keep what is installed: {plan.error}
      </p>
    );
  if (!plan.resolved) return null;
  const what = { same: 'stays on', upgrade: 'upgrades to', downgrade: 'rolls back to' }[plan.change ?? 'upgrade'];
  return (
    <>
      <p className="text-sm">
        On its next pass OLM v1 {what} <strong>{plan.resolved.version}</strong> ({plan.resolved.bundle}, from catalog{' '}
        {plan.resolved.catalog}).
      </p>
      {plan.changes && plan.change !== 'same' && (
        <UpgradeChanges
          level={3}
          {...(of ? { of } : {})}
          kind={plan.change === 'downgrade' ? 'rollback' : 'upgrade'}
          installed={plan.changes.installed}
          target={plan.changes.target}
          changes={plan.changes.changes}
        />
      )}
      {plan.rights && <RightsWords rights={plan.rights} bundle={plan.resolved.bundle} />}
    </>
  );
}

/** Whether the installer may install the new bundle, and what the change grants it first. */
function RightsWords({ rights, bundle }: { rights: NonNullable<VersionPlan['rights']>; bundle: string }) {
  if (rights.state === 'held')
    return <p className="text-sm text-slate-700">Its ServiceAccount already holds every right {bundle} needs.</p>;
  if (rights.state === 'unknown')
    return (
      <p className="text-sm text-amber-900 [overflow-wrap:anywhere]">
        Whether its ServiceAccount may install {bundle} is not known: {rights.why}. Without those rights OLM v1 retries
        on a Forbidden and keeps what is installed.
      </p>
    );
  if (rights.state === 'refused')
    return (
      <div className="space-y-1 text-sm">
        <p className="text-red-900 [overflow-wrap:anywhere]">The console will not make this change: {rights.why}.</p>
        <AddedRules rules={rights.added} title="The rules it needs" />
      </div>
    );
  return (
    <div className="space-y-1 text-sm">
      <p>
        {bundle} needs rights its ServiceAccount lacks: the change first adds them to {rights.roles.join(' and ')} (the
        rights it holds stay, for the objects of the version installed now).
      </p>
      <AddedRules rules={rights.added} title="The rules added" />
    </div>
  );
}

function AddedRules({ rules, title }: { rules: PolicyRuleLike[]; title: string }) {
  return (
    <details>
      <summary className="cursor-pointer text-sky-800">
        {title} ({rules.length})
      </summary>
      <pre className="mt-1 overflow-x-auto rounded bg-slate-900 p-2 text-xs whitespace-pre-wrap text-slate-100 [overflow-wrap:anywhere]">
        {dump(rules, { lineWidth: 100, noRefs: true })}
      </pre>
    </details>
  );
}
