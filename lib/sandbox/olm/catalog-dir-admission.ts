// Who may point a sandbox CatalogSource at a folder on the sandbox's host: the annotation that
// names the folder, the right it takes, and the admission check the API server runs on a
// client's write.
import { ApiStatusError } from '../server/http-util';
import type { ServedResource } from '../server/resources';
import type { KObject } from '../store/types';

/** The annotation naming the FBC folder a sandbox CatalogSource serves. */
export const CATALOG_DIR_ANNOTATION = 'sandbox.olm-console.dev/catalog-dir';

/**
 * Naming a host folder is reading the sandbox's disk, so it is a right of its own: `create` on
 * `catalogdirs.sandbox.olm-console.dev` (cluster-scoped), which cluster-admins have and the
 * aggregated admin/edit roles do not. Setting or changing the annotation without it is a 403.
 */
export const CATALOG_DIR_RIGHT = { verb: 'create', group: 'sandbox.olm-console.dev', resource: 'catalogdirs' } as const;

export function admitCatalogDir(a: {
  resource: ServedResource;
  user: { name: string };
  object: KObject;
  old?: KObject;
  may: (attrs: typeof CATALOG_DIR_RIGHT) => boolean;
}): void {
  if (a.resource.group !== 'operators.coreos.com' || a.resource.resource !== 'catalogsources') return;
  const dir = a.object.metadata.annotations?.[CATALOG_DIR_ANNOTATION];
  if (dir === undefined || dir === a.old?.metadata.annotations?.[CATALOG_DIR_ANNOTATION]) return;
  if (a.may(CATALOG_DIR_RIGHT)) return;
  throw new ApiStatusError(
    403,
    'Forbidden',
    `catalogsources.operators.coreos.com "${a.object.metadata.name ?? ''}" is forbidden: User "${a.user.name}" cannot set annotation ${CATALOG_DIR_ANNOTATION}: naming a folder on the sandbox's host needs create on catalogdirs.sandbox.olm-console.dev (cluster-admins)`,
  );
}
