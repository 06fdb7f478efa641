'use client';
// "What this operator may do": one version's rules in plain words (cluster-wide and namespaced,
// notable ones marked in words, not colour alone), the CRDs and versions it brings, its webhooks,
// API services, images and other objects (lib/olm/bundle/brings.ts), or why that is not known.
// Shown on the OLM v0 and v1 package pages (open) and in their install wizards (folded, with a
// summary that counts what stands out). Long names wrap anywhere so that a phone never scrolls sideways.
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { apiGet } from '@/lib/client/api';
import type { PackageBrings } from '@/lib/api/package-brings';
import type { BringsPermission, BringsWebhook, BundleBrings } from '@/lib/olm/bundle/brings';
import { ErrorNotice } from '../common/notice';

type Olm = 'v0' | 'v1';

const SCOPE_WORDS: Record<Olm, { clusterWide: string; namespaced: string }> = {
  v0: {
    clusterWide: 'OLM grants these through a ClusterRole bound to the service account: they hold across the cluster.',
    namespaced:
      'OLM grants these through Roles in the namespaces the operator is installed for; installed for all ' +
      'namespaces, through a ClusterRole, so in every namespace.',
  },
  v1: {
    clusterWide:
      'OLM v1 grants these through a ClusterRole bound to the service account: they hold across the cluster.',
    namespaced: 'OLM v1 installs for all namespaces, so it grants these through a ClusterRole too: in every namespace.',
  },
};

const WEBHOOK_KINDS: Record<string, string> = {
  ValidatingAdmissionWebhook: 'Validating admission webhook',
  MutatingAdmissionWebhook: 'Mutating admission webhook',
  ConversionWebhook: 'Conversion webhook',
};

function Heading({ level, id, children }: { level: 2 | 3 | 4; id?: string; children: ReactNode }) {
  const cls = level === 2 ? 'text-lg font-semibold' : level === 3 ? 'text-base font-semibold' : 'text-sm font-semibold';
  if (level === 2)
    return (
      <h2 id={id} className={cls}>
        {children}
      </h2>
    );
  if (level === 3)
    return (
      <h3 id={id} className={cls}>
        {children}
      </h3>
    );
  return (
    <h4 id={id} className={cls}>
      {children}
    </h4>
  );
}

const RULE = 'rounded border px-2 py-1 [overflow-wrap:anywhere]';
const NOTABLE = 'border-amber-400 bg-amber-50';
const PLAIN = 'border-slate-200 bg-white';

const sub = (level: 2 | 3) => (level + 1) as 3 | 4;

function Rules({
  title,
  explain,
  permissions,
  level,
}: {
  title: string;
  explain: string;
  permissions: BringsPermission[];
  level: 3 | 4;
}) {
  const rules = permissions.reduce((n, p) => n + p.rules.length, 0);
  return (
    <div className="space-y-2">
      <Heading level={level}>
        {title} ({rules})
      </Heading>
      {rules === 0 ? (
        <p className="text-sm text-slate-600">None.</p>
      ) : (
        <>
          <p className="text-xs text-slate-600">{explain}</p>
          {permissions
            .filter((p) => p.rules.length)
            .map((p) => (
              <div key={p.serviceAccount} className="space-y-1">
                <p className="text-sm">
                  Service account <code className="[overflow-wrap:anywhere]">{p.serviceAccount}</code> may:
                </p>
                <ul className="space-y-1 text-sm">
                  {p.rules.map((r, i) => (
                    <li key={i} className={`${RULE} ${r.notable.length ? NOTABLE : PLAIN}`}>
                      {r.words}
                      {r.notable.length > 0 && (
                        <p className="mt-0.5 text-xs text-amber-950">
                          <span className="mr-1 rounded bg-amber-200 px-1 font-semibold">Notable</span>
                          {r.notable.map((n) => n.words).join('; ')}
                        </p>
                      )}
                    </li>
                  ))}
                </ul>
              </div>
            ))}
        </>
      )}
    </div>
  );
}

function Webhook({ w }: { w: BringsWebhook }) {
  const facts = [
    w.failurePolicy
      ? `failure policy ${w.failurePolicy}`
      : w.type !== 'ConversionWebhook'
        ? 'failure policy Fail (the default)'
        : '',
    w.sideEffects ? `side effects ${w.sideEffects}` : '',
    w.deployment ? `served by deployment ${w.deployment}` : '',
  ].filter(Boolean);
  return (
    <li className="rounded border border-slate-200 bg-white px-2 py-1 text-sm [overflow-wrap:anywhere]">
      <p>
        {WEBHOOK_KINDS[w.type] ?? w.type} <code>{w.name}</code>
      </p>
      <ul className="list-disc pl-5">
        {w.words.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ul>
      {facts.length > 0 && <p className="text-xs text-slate-600">{facts.join(' · ')}</p>}
    </li>
  );
}

function notableCount(b: BundleBrings): number {
  return [...b.clusterWide, ...b.namespaced].reduce((n, p) => n + p.rules.filter((r) => r.notable.length).length, 0);
}

/** One line for a folded view: how many rules, how many notable, CRDs, webhooks, images. */
export function bringsSummary(b: BundleBrings): string {
  const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  const cluster = b.clusterWide.reduce((n, p) => n + p.rules.length, 0);
  const local = b.namespaced.reduce((n, p) => n + p.rules.length, 0);
  const parts = [
    `${count(cluster, 'cluster-wide rule')}`,
    `${count(local, 'namespaced rule')}`,
    `${notableCount(b)} notable`,
    count(b.crds.length, 'CRD'),
    ...(b.webhooks.length ? [count(b.webhooks.length, 'webhook')] : []),
    ...(b.apiServices.length ? [count(b.apiServices.length, 'API service')] : []),
    count(b.images.length, 'image'),
  ];
  return parts.join(', ');
}

function BringsBody({ b, olm, level, where }: { b: BundleBrings; olm: Olm; level: 3 | 4; where?: string }) {
  return (
    <div className="space-y-5">
      {b.cut.length > 0 && (
        <p role="note" className="text-sm text-amber-900">
          The bundle gives more than is shown here: {b.cut.join('; ')}.
        </p>
      )}
      <Rules
        title="Cluster-wide rules"
        explain={SCOPE_WORDS[olm].clusterWide}
        permissions={b.clusterWide}
        level={level}
      />
      <Rules
        title="Namespaced rules"
        explain={where ?? SCOPE_WORDS[olm].namespaced}
        permissions={b.namespaced}
        level={level}
      />
      <div className="space-y-2">
        <Heading level={level}>CRDs it brings ({b.crds.length})</Heading>
        {b.crds.length === 0 ? (
          <p className="text-sm text-slate-600">None.</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {b.crds.map((c) => (
              <li key={c.name} className="rounded border border-slate-200 bg-white px-2 py-1 [overflow-wrap:anywhere]">
                <code>{c.name}</code>
                {c.kind &&
                  ` (${c.kind}${c.scope ? `, ${c.scope === 'Cluster' ? 'cluster-scoped' : 'namespaced'}` : ''})`}
                <ul className="text-xs text-slate-700">
                  {c.versions.map((v) => (
                    <li key={v.name}>
                      {v.name}
                      {c.from === 'object'
                        ? `: ${v.served ? 'served' : 'not served'}${v.storage ? ', stored' : ''}`
                        : ''}
                      {v.deprecated && (
                        <span className="ml-1 text-amber-900">
                          deprecated{v.deprecationWarning ? `: ${v.deprecationWarning}` : ''}
                        </span>
                      )}
                    </li>
                  ))}
                </ul>
                {c.from === 'csv' && (
                  <p className="text-xs text-slate-600">
                    Named by the CSV only: which versions are served and stored is not known.
                  </p>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
      {b.webhooks.length > 0 && (
        <div className="space-y-2">
          <Heading level={level}>Webhooks ({b.webhooks.length})</Heading>
          <ul className="space-y-1">
            {b.webhooks.map((w) => (
              <Webhook key={`${w.type}/${w.name}`} w={w} />
            ))}
          </ul>
        </div>
      )}
      {b.apiServices.length > 0 && (
        <div className="space-y-2">
          <Heading level={level}>API services ({b.apiServices.length})</Heading>
          <ul className="space-y-1 text-sm">
            {b.apiServices.map((a) => (
              <li key={a.name} className="[overflow-wrap:anywhere]">
                <code>{a.name}</code> serves {a.kind}
                {a.deployment ? `, from deployment ${a.deployment}` : ''}: every request for it goes to the operator.
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="space-y-2">
        <Heading level={level}>Images ({b.images.length})</Heading>
        <ul className="space-y-1 text-sm">
          {b.images.map((i) => (
            <li key={i.image}>
              <code className="break-all">{i.image}</code>
              <span className="block text-xs text-slate-600">{i.uses.join('; ')}</span>
            </li>
          ))}
        </ul>
      </div>
      {b.others.length > 0 && (
        <div className="space-y-1">
          <Heading level={level}>Other objects ({b.others.length})</Heading>
          <p className="text-sm [overflow-wrap:anywhere]">{b.others.map((o) => `${o.kind} ${o.name}`).join(', ')}</p>
        </div>
      )}
    </div>
  );
}

/**
 * Where OLM v0 grants namespaced rules for an install: Roles in the operator's namespace and copies
 * in each target namespace; for all namespaces, a ClusterRole (docs/olm/copied-csvs.md).
 */
export function v0NamespacedWhere(mode: string | undefined, installNs: string, watched: readonly string[]): string {
  if (mode === 'AllNamespaces')
    return 'Installed for all namespaces, OLM grants these through a ClusterRole: they hold in every namespace.';
  const namespaces = [...new Set([installNs, ...(mode === 'OwnNamespace' ? [] : watched)])].filter(Boolean);
  return `OLM grants these through Roles in ${joinNames(namespaces)}, the namespaces this install is for.`;
}

const joinNames = (names: readonly string[]) =>
  names.length <= 1 ? (names[0] ?? 'its namespace') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/** The brings route of a package's API base, for one version; absent query values are left out. */
export function bringsUrl(base: string, query: Record<string, string | undefined>): string {
  const q = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => !!e[1]));
  return `${base}/brings${q.size ? `?${q}` : ''}`;
}

/** The brings route's answer for one version, as the package page and the wizards show it. */
export function OperatorBrings({
  url,
  olm,
  level = 2,
  folded = false,
  namespacedWhere,
}: {
  /** The brings route with its query (channel, version, namespace). */
  url: string;
  olm: Olm;
  level?: 2 | 3;
  /** In a wizard: a summary line that opens to the whole. */
  folded?: boolean;
  /** In the v0 wizard: where the namespaced rules hold for the install mode chosen. */
  namespacedWhere?: string;
}) {
  const answer = useQuery({
    queryKey: ['package-brings', url],
    queryFn: ({ signal }) => apiGet<PackageBrings>(url, signal),
    placeholderData: (prev) => prev,
  });
  const id = `brings-${olm}-${level}`;
  const a = answer.data;
  const title = 'What this operator may do';
  let body: ReactNode;
  if (answer.error) body = <ErrorNotice error={answer.error} what="What this version brings could not be read" />;
  else if (!a) body = <p role="status">Reading what this version brings…</p>;
  else if ('unknown' in a)
    body = (
      <p role="note" className="rounded border border-slate-300 bg-white px-3 py-2 text-sm [overflow-wrap:anywhere]">
        Not known here: {a.unknown}.
      </p>
    );
  else {
    const from = a.from === 'image' ? 'Read from the bundle image of' : 'Read from the catalog’s copy of';
    const inner = <BringsBody b={a.brings} olm={olm} level={sub(level)} where={namespacedWhere} />;
    body = (
      <>
        <p className="text-xs text-slate-600 [overflow-wrap:anywhere]">
          {from} {a.csvName}. Nothing here is granted until the install.
        </p>
        {folded ? (
          <details className="rounded border border-slate-200 bg-slate-50 p-2">
            <summary className="cursor-pointer text-sm font-medium">{bringsSummary(a.brings)}</summary>
            <div className="mt-3">{inner}</div>
          </details>
        ) : (
          inner
        )}
      </>
    );
  }
  return (
    <section aria-labelledby={id} className="min-w-0 space-y-2">
      <Heading level={level} id={id}>
        {title}
      </Heading>
      {body}
    </section>
  );
}
