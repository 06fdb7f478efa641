// The versions OLM v1 moves an installed bundle through, one reconcile at a time, when nothing pins
// it: under upgradeConstraintPolicy CatalogProvided each resolution takes the highest-versioned
// successor the channels offer (operator-controller resolve/catalog.go sorts candidates by version,
// highest first, after filtering by successors.go), so the walk repeats that pick until no bundle
// succeeds the current one. A version constraint keeps every pick inside it. docs/olm-v1/resolution.md.
import type { FbcBundle, FbcChannel } from '../fbc/types';
import { compareVersions, type SemVer } from '../semver/version';
import { bundleVersion } from './bundle-version';
import { successorsOf, type InstalledBundle } from './successors';
import { satisfies, type VersionConstraints } from './version-range';

export interface V1WalkStep {
  from: string;
  to: string;
  toVersion: string;
}

export interface V1Walk {
  steps: V1WalkStep[];
  /** The highest version the channels offer inside the constraint (the walk's goal). */
  head?: { name: string; version: string };
  reachesHead: boolean;
  error?: string;
}

type Versioned = { bundle: FbcBundle; version: SemVer };

function text(v: SemVer): string {
  const pre = v.pre.length ? `-${v.pre.join('.')}` : '';
  const build = v.build.length ? `+${v.build.join('.')}` : '';
  return `${v.major}.${v.minor}.${v.patch}${pre}${build}`;
}

export function v1UpgradeWalk(
  installed: InstalledBundle,
  channels: readonly FbcChannel[],
  bundles: readonly FbcBundle[],
  constraint?: VersionConstraints,
): V1Walk {
  const inChannels = new Set(channels.flatMap((c) => c.entries.map((e) => e.name)));
  const candidates: Versioned[] = [];
  for (const b of bundles) {
    if (!inChannels.has(b.name)) continue;
    const v = bundleVersion(b);
    if ('error' in v) continue;
    if (constraint && !satisfies(constraint, v.version)) continue;
    candidates.push({ bundle: b, version: v.version });
  }
  candidates.sort((a, b) => compareVersions(b.version, a.version));
  const top = candidates[0];
  const head = top ? { name: top.bundle.name, version: text(top.version) } : undefined;
  const steps: V1WalkStep[] = [];
  const seen = new Set<string>([installed.name]);
  let current = installed;
  for (;;) {
    const isSuccessor = successorsOf(current, channels);
    if ('error' in isSuccessor)
      return { steps, ...(head ? { head } : {}), reachesHead: false, error: isSuccessor.error };
    const next = candidates.find((c) => c.bundle.name !== current.name && isSuccessor(c.bundle));
    if (!next || seen.has(next.bundle.name)) break;
    seen.add(next.bundle.name);
    const version = text(next.version);
    steps.push({ from: current.name, to: next.bundle.name, toVersion: version });
    current = { name: next.bundle.name, version };
  }
  return { steps, ...(head ? { head } : {}), reachesHead: !!head && current.name === head.name };
}
