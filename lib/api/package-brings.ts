// `GET …/packages/<package>/brings` (OLM v0: /api/catalog/packages/<ns>/<catalog>/<package>/brings;
// OLM v1: /api/olm-v1/clustercatalogs/<name>/packages/<package>/brings): what one version of a
// package brings into the cluster, shared by the routes and the pages. Types only.
import type { BundleBrings } from '../olm/bundle/brings';

export type PackageBrings = {
  /** The version asked for (the channel head by default). */
  channel: string;
  csvName: string;
  version?: string;
} & (
  | {
      brings: BundleBrings;
      /** `catalog`: the catalog's own copy of the bundle's objects; `image`: read from its bundle image. */
      from: 'catalog' | 'image';
    }
  /** Why it is not known here, in words a person can act on. */
  | { unknown: string }
);
