// What a person fills in to add or edit a catalog, and the CatalogSource OLM gets from it: a grpc
// source pulled from an index image, polled on an interval (OLM reads it with Go's
// time.ParseDuration), with the display name, publisher and priority OperatorHub shows. Editing
// keeps every field the form does not show (secrets, grpcPodConfig, icon…), so the console never
// drops what someone set with kubectl.
import type { CatalogSource } from '../resources/catalog-source';
import { parseGoDuration } from './registry-poll';

export interface CatalogSourceForm {
  image: string;
  displayName: string;
  publisher: string;
  /** OLM prefers a package from the higher-priority catalog; 0 when unset. */
  priority: number;
  /** A Go duration ("10m", "1h"); absent: never polled, the image is pulled once. */
  pollInterval?: string;
}

/**
 * An image reference as container runtimes read it: optional registry host[:port], path of
 * lowercase components, then a tag and/or a sha256 digest. Not every string a registry accepts,
 * but every one OLM's pod could pull.
 */
const IMAGE_REF =
  /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9.-]*[a-zA-Z0-9])?(?::\d+)?\/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[\w][\w.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/;

/** Problems with the form, per field; empty when OLM can use it. */
export function formProblems(f: CatalogSourceForm): Partial<Record<keyof CatalogSourceForm, string>> {
  const out: Partial<Record<keyof CatalogSourceForm, string>> = {};
  if (!f.image.trim()) out.image = 'the index image to pull, for example quay.io/acme/catalog:latest';
  else if (!IMAGE_REF.test(f.image.trim()))
    out.image = `${f.image} is not an image reference (registry/path:tag or @sha256:digest)`;
  if (!Number.isInteger(f.priority) || f.priority < -2147483648 || f.priority > 2147483647)
    out.priority = 'a whole number (a 32-bit integer, as OLM stores it)';
  if (f.pollInterval !== undefined && f.pollInterval.trim() !== '') {
    try {
      const ms = parseGoDuration(f.pollInterval.trim());
      if (ms <= 0) out.pollInterval = 'a positive duration, for example 10m or 1h';
    } catch (err) {
      out.pollInterval = `OLM reads it as a Go duration (10m, 1h30m): ${(err as Error).message}`;
    }
  }
  if (f.displayName.length > 256) out.displayName = 'at most 256 characters';
  if (f.publisher.length > 256) out.publisher = 'at most 256 characters';
  return out;
}

function specFields(f: CatalogSourceForm): Partial<CatalogSource['spec']> {
  const poll = f.pollInterval?.trim();
  return {
    sourceType: 'grpc',
    image: f.image.trim(),
    displayName: f.displayName.trim(),
    publisher: f.publisher.trim(),
    priority: f.priority,
    ...(poll ? { updateStrategy: { registryPoll: { interval: poll } } } : {}),
  };
}

/** The CatalogSource a new catalog is. */
export function catalogSourceFromForm(namespace: string, name: string, f: CatalogSourceForm): CatalogSource {
  return {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'CatalogSource',
    metadata: { name, namespace },
    spec: specFields(f) as CatalogSource['spec'],
  };
}

/** The form as an existing CatalogSource fills it. */
export function formFromCatalogSource(cs: CatalogSource): CatalogSourceForm {
  const poll = cs.spec.updateStrategy?.registryPoll?.interval;
  return {
    image: cs.spec.image ?? '',
    displayName: cs.spec.displayName ?? '',
    publisher: cs.spec.publisher ?? '',
    priority: typeof cs.spec.priority === 'number' ? cs.spec.priority : 0,
    ...(poll ? { pollInterval: poll } : {}),
  };
}

/**
 * The spec after an edit: the form's fields changed, every other field kept. Clearing the interval
 * removes registryPoll (and an updateStrategy left empty); an address-backed source becomes an
 * image-backed one only by its image, so `address` is dropped when an image is set (OLM prefers the
 * address otherwise and would never pull the image).
 */
export function editedSpec(cs: CatalogSource, f: CatalogSourceForm): CatalogSource['spec'] {
  const { updateStrategy, address, ...rest } = cs.spec;
  const next = { ...rest, ...specFields(f) } as CatalogSource['spec'];
  if (!f.pollInterval?.trim()) {
    const { registryPoll: _dropped, ...otherStrategy } = updateStrategy ?? {};
    void _dropped;
    if (Object.keys(otherStrategy).length) next.updateStrategy = otherStrategy;
  }
  void address;
  return next;
}

/** Each spec field the edit changes, old and new, for the plan preview. */
export function specChanges(
  before: CatalogSource['spec'],
  after: CatalogSource['spec'],
): { field: string; from?: unknown; to?: unknown }[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys
    .filter(
      (k) =>
        JSON.stringify((before as Record<string, unknown>)[k]) !==
        JSON.stringify((after as Record<string, unknown>)[k]),
    )
    .map((k) => ({
      field: `spec.${k}`,
      ...((before as Record<string, unknown>)[k] !== undefined ? { from: (before as Record<string, unknown>)[k] } : {}),
      ...((after as Record<string, unknown>)[k] !== undefined ? { to: (after as Record<string, unknown>)[k] } : {}),
    }));
}
