// What is deprecated about an installed operator, from its Subscription's conditions as OLM sets
// them (docs/olm/subscriptions.md#deprecation-conditions): `PackageDeprecated`, `ChannelDeprecated` and
// `BundleDeprecated`, status True, no reason, messages `olm.package/<pkg>: <msg>`,
// `olm.channel/<channel>: <msg>`, `olm.bundle/<csv>: <msg>`; `Deprecated` rolls them up. For
// the "Deprecated" badge of the Installed Operators list: each catalog message in words.
import type { Subscription } from '../resources/subscription';

export type DeprecationScope = 'package' | 'channel' | 'bundle';

export interface DeprecationNote {
  /** Undefined when only the roll-up said something, in words that do not name a scope. */
  scope?: DeprecationScope;
  /** The package, channel or bundle the catalog deprecates. */
  name?: string;
  /** The catalog's message. */
  message: string;
}

export interface Deprecation {
  notes: DeprecationNote[];
  /** Every note in one sentence each, for a badge's description. */
  text: string;
}

const TYPES: [string, DeprecationScope][] = [
  ['PackageDeprecated', 'package'],
  ['ChannelDeprecated', 'channel'],
  ['BundleDeprecated', 'bundle'],
];

const PREFIX = /^olm\.(package|channel|bundle)\/([^:]*):\s*([\s\S]*)$/;

function sentence(n: DeprecationNote): string {
  const what = n.scope
    ? `${n.scope[0]!.toUpperCase()}${n.scope.slice(1)}${n.name ? ` ${n.name}` : ''} is deprecated`
    : 'Deprecated';
  return n.message ? `${what}: ${n.message}${/[.!?…]$/.test(n.message) ? '' : '.'}` : `${what}.`;
}

/** The Subscription's deprecations, most general first; undefined when nothing is deprecated. */
export function subscriptionDeprecation(sub: Pick<Subscription, 'status'>): Deprecation | undefined {
  const conditions = sub.status?.conditions ?? [];
  const isTrue = (type: string) => conditions.find((c) => c.type === type && c.status === 'True');
  const notes: DeprecationNote[] = [];
  for (const [type, scope] of TYPES) {
    const c = isTrue(type);
    if (!c) continue;
    const m = PREFIX.exec(c.message ?? '');
    notes.push(
      m && m[1] === scope
        ? { scope, name: m[2] || undefined, message: m[3]!.trim() }
        : { scope, message: (c.message ?? '').trim() },
    );
  }
  const rollUp = isTrue('Deprecated');
  if (notes.length === 0 && rollUp) notes.push({ message: (rollUp.message ?? '').trim() });
  if (notes.length === 0) return undefined;
  return { notes, text: notes.map(sentence).join(' ') };
}
