// What the unpack-failure check does to a cluster's image registry: read, delete and push back one
// image's manifest by digest, as a person with push rights does with the OCI distribution API.
// The real cluster's registry is go-containerregistry's (DELETE answers 202, PUT 201); the
// sandbox's registry answers the same two. Both serve HTTPS with their cluster's CA.
import { request } from 'node:https';
import { RegistryClient } from '../../lib/catalog/registry-client';
import type { Target } from '../target';
import { CATALOG_NS, must } from './olm-read';

export interface Manifest {
  status: number;
  body: Buffer;
  type: string;
}

const ACCEPT = 'application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json';

/** One request for the manifest of `image` (a reference by digest) on its registry. */
export function manifestRequest(
  t: Target,
  image: string,
  method: 'GET' | 'PUT' | 'DELETE',
  put?: { body: Buffer; type: string },
): Promise<Manifest> {
  const slash = image.indexOf('/');
  const [hostname, port] = image.slice(0, slash).split(':') as [string, string];
  const [repo, digest] = image.slice(slash + 1).split('@') as [string, string];
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname,
        port,
        method,
        path: `/v2/${repo}/manifests/${digest}`,
        ca: t.ca,
        headers: put ? { 'Content-Type': put.type } : { Accept: ACCEPT },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            type: String(res.headers['content-type'] ?? ''),
          }),
        );
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`${t.name}: ${method} ${image} timed out`)));
    req.on('error', reject);
    req.end(put?.body);
  });
}

/**
 * The image the catalog `catalog` (a CatalogSource in the catalog namespace) gives for the head of
 * a package's channel: what OLM resolves and unpacks, asked of the registry the CatalogSource's
 * status says it connects to.
 */
export async function headImage(t: Target, catalog: string, pkg: string, channel: string): Promise<string> {
  const cs = await must(
    t,
    'GET',
    `/apis/operators.coreos.com/v1alpha1/namespaces/${CATALOG_NS}/catalogsources/${catalog}`,
  );
  const address = (cs.status as { connectionState?: { address?: string } } | undefined)?.connectionState?.address;
  if (!address) throw new Error(`${t.name}: the CatalogSource ${catalog} has no address in its status`);
  const client = new RegistryClient(address);
  try {
    const bundle = await client.getBundleForChannel(pkg, channel);
    if (!bundle.bundlePath) throw new Error(`${t.name}: ${catalog} gives ${pkg}'s head no image`);
    return bundle.bundlePath;
  } finally {
    client.close();
  }
}
