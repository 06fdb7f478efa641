// `GET /api/catalogsources`: every CatalogSource the person may see, with its health in words,
// its packages, and the Subscriptions its ill health holds back. Types only.
import type { CatalogHealth } from '../olm/status/catalog-health';

export interface CatalogSourceRow {
  namespace: string;
  name: string;
  displayName: string;
  publisher: string;
  sourceType: string;
  /** Higher wins when two catalogs offer the same package (OLM's tie-break). */
  priority: number;
  /** Where the content comes from: an index image, an address, a ConfigMap. */
  origin?: string;
  pollInterval?: string;
  health: CatalogHealth;
  /** How the console read the content, or why it could not. */
  readVia?: 'registry' | 'packagemanifests';
  problem?: string;
  packages: string[];
  /** Subscriptions from this catalog whose CatalogSourcesUnhealthy condition is True. */
  blockedSubscriptions: { namespace: string; name: string; message?: string }[];
}

export interface CatalogSourcesResponse {
  catalogSources: CatalogSourceRow[];
}
