// `GET /api/catalogsources`: every CatalogSource the person may see, with its health in words,
// its packages, and the Subscriptions its ill health holds back. Types only.
import type { CatalogSourceForm } from '../olm/catalog/catalog-source-form';
import type { DisabledCatalog } from '../olm/catalog/disabled-catalogs';
import type { CatalogSource } from '../olm/resources/catalog-source';
import type { CatalogHealth } from '../olm/status/catalog-health';

export type { CatalogSourceForm };

/** A SelfSubjectAccessReview's answer. */
export interface Allowed {
  allowed: boolean;
  reason?: string;
}

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
  /** status.latestImageRegistryPoll: when OLM last pulled the image for new content. */
  lastPoll?: string;
  health: CatalogHealth;
  /** How the console read the content, or why it could not. */
  readVia?: 'registry' | 'packagemanifests';
  problem?: string;
  packages: string[];
  /**
   * Those of `packages` whose CSV says operators.operatorframework.io/operator-type: non-standalone
   * (installed as another operator's part), which OperatorHub leaves out: why its count is lower.
   */
  nonStandalone: string[];
  /** Subscriptions from this catalog whose CatalogSourcesUnhealthy condition is True. */
  blockedSubscriptions: { namespace: string; name: string; message?: string }[];
  resourceVersion?: string;
  /** metadata.generation: what an edit or a delete names as `seen` (status writes do not move it). */
  generation?: number;
  /** The form's fields as the source has them, when it is image-backed (the form edits only those). */
  form?: CatalogSourceForm;
  /** `update` and `delete` catalogsources in its namespace, by SelfSubjectAccessReview; why editing is not offered. */
  canEdit: Allowed;
  canDelete: Allowed;
  /** Disable (delete, keeping its definition to enable it again): catalogs of a global namespace that OpenShift's marketplace operator does not manage. */
  canDisable: Allowed;
}

export interface CatalogSourcesResponse {
  catalogSources: CatalogSourceRow[];
  /** Namespaces whose catalogs serve every namespace (OLM's global catalog namespace), as present on this cluster. */
  globalNamespaces: string[];
  /** `create` catalogsources in the first global namespace. */
  canCreate: Allowed;
  /** Catalogs disabled through the console, recorded in each global namespace's ConfigMap. */
  disabled: DisabledCatalog[];
  /** Records that could not be read or are stale. */
  disabledProblems: string[];
}

/** `seen`: the metadata.generation the person saw, as a string. */
export type CatalogSourceChange =
  | { action: 'create'; namespace: string; name: string; source: CatalogSourceForm }
  | { action: 'update'; namespace: string; name: string; source: CatalogSourceForm; seen: string }
  | { action: 'delete'; namespace: string; name: string; seen: string }
  | { action: 'disable'; namespace: string; name: string; seen: string }
  | { action: 'enable'; namespace: string; name: string };

export interface CatalogSourcePlan {
  action: CatalogSourceChange['action'];
  namespace: string;
  name: string;
  /** create: the object to create; update: the object as it will be. */
  object?: CatalogSource;
  /** update: each spec field that changes. */
  changes?: { field: string; from?: unknown; to?: unknown }[];
  /** Subscriptions that install from this catalog. */
  subscriptions: { namespace: string; name: string; package: string; approval: string }[];
  /** Why the Subscriptions could not all be counted. */
  subscriptionsProblem?: string;
  warnings: string[];
  allowed: Allowed;
  /** delete: the resourceVersion read, the delete's precondition. */
  readAt?: string;
}

export interface CatalogSourceApplied {
  plan: CatalogSourcePlan;
  resourceVersion?: string;
}
