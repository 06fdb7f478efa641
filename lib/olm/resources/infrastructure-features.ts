// What infrastructure an operator says it supports, from its CSV's annotations: the
// `features.operators.openshift.io/<feature>: "true"|"false"` form (OpenShift 4.10 and later, as
// OpenShift's operator metadata documentation lists it) and the older
// `operators.openshift.io/infrastructure-features` JSON list, which it deprecates. The newer,
// explicit form wins where both speak of one feature. Names are what the hub shows.

import { Keys } from './common';

const FEATURE_ANNOTATIONS: Record<string, string> = {
  disconnected: 'Disconnected',
  'fips-compliant': 'FIPS mode',
  'proxy-aware': 'Proxy-aware',
  cnf: 'Cloud-native network function',
  cni: 'Container network plugin',
  csi: 'Container storage driver',
  'tls-profiles': 'TLS profiles',
  'token-auth-aws': 'Short-lived tokens (AWS STS)',
  'token-auth-azure': 'Short-lived tokens (Azure Workload Identity)',
  'token-auth-gcp': 'Short-lived tokens (GCP Workload Identity)',
};

/** The older list's values, as catalogs write them, to the same names. */
const LEGACY_VALUES: Record<string, string> = {
  disconnected: 'Disconnected',
  fips: 'FIPS mode',
  'proxy-aware': 'Proxy-aware',
  cnf: 'Cloud-native network function',
  cni: 'Container network plugin',
  csi: 'Container storage driver',
};

const PREFIX = 'features.operators.openshift.io/';
const LEGACY = Keys.infrastructureFeatures;

function legacyList(text: string | undefined): string[] {
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function infrastructureFeatures(annotations: Record<string, unknown> | undefined): string[] {
  const ann = annotations ?? {};
  const out = new Set<string>();
  for (const v of legacyList(typeof ann[LEGACY] === 'string' ? (ann[LEGACY] as string) : undefined)) {
    const name = LEGACY_VALUES[v.trim().toLowerCase()];
    if (name) out.add(name);
  }
  for (const [key, name] of Object.entries(FEATURE_ANNOTATIONS)) {
    const v = ann[`${PREFIX}${key}`];
    if (typeof v !== 'string') continue;
    if (v.trim().toLowerCase() === 'true') out.add(name);
    else if (v.trim().toLowerCase() === 'false') out.delete(name);
  }
  // In the order of the documentation's table, not of the annotations.
  const order = Object.values(FEATURE_ANNOTATIONS);
  return [...out].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}
