// "What this upgrade changes": an upgrade's two bundles (where each was read, what could not be)
// and what changes between them (lib/olm/bundle/brings-change.ts), for the InstallPlan page before
// Approve and the OLM v1 version-change preview. A stored CRD version dropped is the one change
// that stops an upgrade half way, so it leads, as a warning; notable rules are marked. A change
// that is not known says why: never an empty "nothing changes".
import type { BringsChange, ChangeAnswer, SideAnswer } from '@/lib/api/upgrade-changes';
import { Badge } from './badges';

const SOURCE_WORDS: Record<string, string> = {
  cluster: 'read from the cluster',
  plan: "from the plan's steps",
  'unpack-configmap': 'from the ConfigMap OLM unpacked the bundle image into',
  catalog: 'as the catalog gives it',
  image: 'from its bundle image',
};

type SubHeading = 'h3' | 'h4';

const LIST = 'list-disc space-y-1 pl-5 [overflow-wrap:anywhere]';

function Side({ label, side }: { label: string; side: SideAnswer }) {
  // The reason is the change's own (below): said once.
  if ('unknown' in side) return <li>{label}: not known.</li>;
  return (
    <li>
      {label}: <strong>{side.bundle}</strong>, {SOURCE_WORDS[side.source] ?? side.source}
      {side.fallback ? ` (${side.fallback})` : ''}.
      {side.gaps.length > 0 && (
        <ul className={LIST}>
          {side.gaps.map((g) => (
            <li key={g}>{g}.</li>
          ))}
        </ul>
      )}
    </li>
  );
}

function Rules({ title, rules, sub: Sub }: { title: string; rules: BringsChange['rulesAdded']; sub: SubHeading }) {
  if (!rules.length) return null;
  return (
    <div>
      <Sub className="font-semibold">{title}</Sub>
      <ul className={LIST}>
        {rules.map((r, i) => (
          <li key={i}>
            ServiceAccount {r.serviceAccount} may {r.rule.words}
            {r.rule.notable.map((n) => (
              <span key={n.code} className="ml-1">
                <Badge tone="warning" title={n.words}>
                  {n.words}
                </Badge>
              </span>
            ))}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Listed({ title, items, sub: Sub }: { title: string; items: string[]; sub: SubHeading }) {
  if (!items.length) return null;
  return (
    <div>
      <Sub className="font-semibold">{title}</Sub>
      <ul className={LIST}>
        {items.map((i) => (
          <li key={i}>{i}</li>
        ))}
      </ul>
    </div>
  );
}

const crdWords = (c: BringsChange['crds'][number]): string => {
  if (c.change === 'added') return `${c.name}: new (versions ${c.versionsAdded.join(', ') || 'none named'})`;
  if (c.change === 'removed') return `${c.name}: no longer in the bundle (it stays in the cluster as it is)`;
  const parts = [
    c.versionsAdded.length ? `versions added: ${c.versionsAdded.join(', ')}` : '',
    c.versionsRemoved.length ? `versions removed: ${c.versionsRemoved.join(', ')}` : '',
    c.storage ? `stored as ${c.storage.to ?? '?'} instead of ${c.storage.from ?? '?'}` : '',
  ].filter(Boolean);
  return `${c.name}: ${parts.join('; ') || 'changed'}`;
};

function Changes({ c, sub }: { c: BringsChange; sub: SubHeading }) {
  if (c.unchanged)
    return <p>Nothing compared here changes: the same rules, CRD versions, webhooks, API services and images.</p>;
  const dropped = c.crds.flatMap((d) => d.storedDropped.map((s) => ({ crd: d.name, ...s })));
  return (
    <div className="space-y-2">
      {c.dropsStoredVersion && (
        <div className="rounded border-2 border-red-400 bg-red-50 px-3 py-2 text-red-900">
          <p className="font-semibold">Warning: this upgrade drops a CRD version that may still hold stored objects.</p>
          <ul className={LIST}>
            {dropped.map((d) => (
              <li key={`${d.crd}/${d.version}`}>
                {d.crd} version {d.version}{' '}
                {d.why === 'storedVersions'
                  ? 'is listed in the installed CRD’s stored versions'
                  : 'is the installed bundle’s storage version'}
              </li>
            ))}
          </ul>
          <p>
            The API server refuses a CRD that leaves out a stored version, so the upgrade stops until the objects are
            migrated and the version is taken out of the CRD’s status.storedVersions.
          </p>
        </div>
      )}
      <Rules title="Rules added" sub={sub} rules={c.rulesAdded} />
      <Rules title="Rules dropped" sub={sub} rules={c.rulesDropped} />
      <Listed title="CRDs" sub={sub} items={c.crds.map(crdWords)} />
      <Listed
        sub={sub}
        title="Webhooks"
        items={[
          ...c.webhooks.added.map((w) => `${w.name} (${w.type}): new. ${w.words.join(' ')}`),
          ...c.webhooks.removed.map((w) => `${w.name} (${w.type}): removed`),
          ...c.webhooks.changed.map((w) => `${w.name} (${w.type}): ${w.fields.join(', ')} changed`),
        ]}
      />
      <Listed
        sub={sub}
        title="API services"
        items={[
          ...c.apiServices.added.map((a) => `${a.name}: new`),
          ...c.apiServices.removed.map((a) => `${a.name}: removed`),
        ]}
      />
      <Listed
        sub={sub}
        title="Images"
        items={[...c.images.added.map((i) => `${i}: new`), ...c.images.removed.map((i) => `${i}: no longer used`)]}
      />
    </div>
  );
}

export function UpgradeChanges(props: {
  /** The heading's level: h2 on a page, h3 inside a section. */
  level: 2 | 3;
  installed?: SideAnswer;
  target?: SideAnswer;
  changes: ChangeAnswer;
  /** Set when one page shows several operators' upgrades. */
  of?: string;
  /** `rollback` for a change to an older version. */
  kind?: 'upgrade' | 'rollback';
}) {
  const H = props.level === 2 ? 'h2' : 'h3';
  const title = `What this ${props.kind ?? 'upgrade'} changes${props.of ? ` for ${props.of}` : ''}`;
  const id = `upgrade-changes-${props.of ?? 'one'}`.replace(/[^a-zA-Z0-9_-]/g, '-');
  const c = props.changes;
  return (
    <section aria-labelledby={id} className="space-y-2 rounded border border-slate-300 px-3 py-2 text-sm">
      <H id={id} className={props.level === 2 ? 'text-lg font-semibold' : 'font-semibold'}>
        {title}
      </H>
      {(props.installed || props.target) && (
        <ul className={LIST}>
          {props.installed && <Side label="Installed" side={props.installed} />}
          {props.target && <Side label="New" side={props.target} />}
        </ul>
      )}
      {'unknown' in c ? (
        <p className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900 [overflow-wrap:anywhere]">
          What this {props.kind ?? 'upgrade'} changes is not known: {c.unknown}.
        </p>
      ) : (
        <Changes c={c} sub={props.level === 2 ? 'h3' : 'h4'} />
      )}
    </section>
  );
}
