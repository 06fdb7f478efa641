// The catalog package a route names (`/api/catalog/packages/<ns>/<catalog>/<package>`), found
// as the person asking: a package they may not see is as absent as one that does not exist.
import { z } from 'zod';
import { GLOBAL_CATALOG_NAMESPACES, type PackageLookup } from '../catalog/catalog-index';
import type { KubeClient } from '../k8s/client';
import { ApiError, dnsLabel, dnsSubdomain } from './api-error';
import { requestClient } from './context';
import { catalogIndexOf } from './fleet/catalog-indexes';

/** Package names are DNS-like in practice; anything that could not name one is refused early. */
export const packageName = z
  .string()
  .min(1, 'must not be empty')
  .max(253, 'must be at most 253 characters')
  .regex(/^[a-zA-Z0-9]([-a-zA-Z0-9._]*[a-zA-Z0-9])?$/, 'must be letters, digits, "-", "." and "_"');

export const PackageParams = z.object({ namespace: dnsLabel, catalog: dnsSubdomain, package: packageName });
export type PackageParams = z.infer<typeof PackageParams>;

export function parseParams<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw parsed.error;
  return parsed.data;
}

export async function findPackage(
  req: Request,
  params: PackageParams,
  viewerNamespace?: string,
): Promise<{ client: KubeClient; lookup: PackageLookup }> {
  const { client } = requestClient(req);
  const viewers = [...(viewerNamespace ? [viewerNamespace] : []), ...GLOBAL_CATALOG_NAMESPACES];
  const lookup = await catalogIndexOf(client).lookupPackage(
    client,
    { namespace: params.namespace, catalog: params.catalog, package: params.package },
    viewers,
  );
  if (!lookup) {
    throw new ApiError(
      404,
      'NotFound',
      `package ${params.package} is not in catalog ${params.namespace}/${params.catalog}, or you may not see that catalog${viewerNamespace ? '' : ' (if you can see it only in your own namespace, add ?namespace=<yours>)'}`,
    );
  }
  return { client, lookup };
}
