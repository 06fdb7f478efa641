// `GET /api/olm-v1/clustercatalogs` and its writes: OLM v1's ClusterCatalogs as an administrator
// reads them (catalogd's conditions in its own words, the image and the digest it resolved to,
// where the content is served and how many packages it holds), and what the person may change.
// Types only.
import type { Allowed } from './catalog-sources';

export type { Allowed };

/** One of catalogd's conditions, as it wrote it; absent when catalogd has not written it. */
export interface CatalogCondition {
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  /** lastTransitionTime. */
  since?: string;
  /** Whether it describes the current spec (observedGeneration = metadata.generation). */
  current: boolean;
}

/** The catalog's content, read from catalogd's content API, or why it was not. */
export type CatalogContentSummary =
  { read: true; packages: number; brokenPackages: number; problems: string[] } | { read: false; why: string };

export interface ClusterCatalogRow {
  name: string;
  /** metadata.generation: the spec a change was made against (`seen`). */
  generation: number;
  /** spec.source.image.ref. */
  imageRef: string;
  /** status.resolvedSource.image.ref: the digest the tag resolved to. */
  resolvedRef?: string;
  lastUnpacked?: string;
  /** status.urls.base. */
  baseUrl?: string;
  priority: number;
  availabilityMode: 'Available' | 'Unavailable';
  pollIntervalMinutes?: number;
  serving?: CatalogCondition;
  progressing?: CatalogCondition;
  /** One word for the list: Serving, Unpacking, Retrying, Blocked, Disabled, Not serving, Deleting. */
  state: string;
  /** Whether the state is what the person would want (Serving, or Disabled on purpose). */
  healthy: boolean;
  deleting: boolean;
  content: CatalogContentSummary;
  canEdit: Allowed;
  canDelete: Allowed;
}

export type ClusterCatalogsResponse =
  | { served: true; catalogs: ClusterCatalogRow[]; canCreate: Allowed }
  /** The cluster does not serve olm.operatorframework.io/v1: no OLM v1 here. */
  | { served: false; message: string };

/** A ClusterExtension that would lose something if the catalog went away. */
export interface CatalogDependent {
  name: string;
  packageName: string;
  installedBundle?: string;
  /** Why it depends on the catalog, in words. */
  why: string;
}

export interface CatalogDependentsResponse {
  catalog: string;
  dependents: CatalogDependent[];
  /** What could not be read, so the list may be short (ClusterExtensions refused, content unread). */
  problems: string[];
}

/** `PATCH /api/olm-v1/clustercatalogs/<name>`: the fields an administrator changes; null unsets the poll. */
export interface ClusterCatalogChange {
  seen: number;
  availabilityMode?: 'Available' | 'Unavailable';
  priority?: number;
  pollIntervalMinutes?: number | null;
}

/** `POST /api/olm-v1/clustercatalogs`. */
export interface ClusterCatalogCreate {
  name: string;
  imageRef: string;
  priority?: number;
  pollIntervalMinutes?: number;
}
