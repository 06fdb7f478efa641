// Reading a whole catalog from a registry address (ListPackages, GetPackage, ListBundles), for
// CatalogSources that name only `spec.address`: packageserver needs their content too.
import * as grpc from '@grpc/grpc-js';
import { catalogFromRegistry, type RegistryBundleMessage, type RegistryPackageMessage } from '../../olm/fbc/from-registry';
import type { Catalog } from '../../olm/fbc/catalog';
import { registryServices } from './registry-server';

type Callable = Record<string, (req: unknown, opts: grpc.CallOptions, cb?: (err: grpc.ServiceError | null, res: unknown) => void) => unknown>;

export async function fetchCatalog(address: string, timeoutMs = 30_000): Promise<Catalog> {
  const client = new (registryServices().Registry)(address, grpc.credentials.createInsecure()) as unknown as grpc.Client & Callable;
  const deadline = () => ({ deadline: Date.now() + timeoutMs });
  const stream = <T>(method: string): Promise<T[]> =>
    new Promise((resolve, reject) => {
      const out: T[] = [];
      const call = client[method]!({}, deadline()) as grpc.ClientReadableStream<T>;
      call.on('data', (m: T) => out.push(m));
      call.on('error', (e: grpc.ServiceError) => reject(new Error(`registry ${address}: ${method}: ${e.details || e.message}`)));
      call.on('end', () => resolve(out));
    });
  const unary = <T>(method: string, req: unknown): Promise<T> =>
    new Promise((resolve, reject) => client[method]!(req, deadline(), (e, r) => (e ? reject(new Error(`registry ${address}: ${method}: ${e.details || e.message}`)) : resolve(r as T))));
  try {
    const names = await stream<{ name: string }>('ListPackages');
    const packages = await Promise.all(names.map((n) => unary<RegistryPackageMessage>('GetPackage', { name: n.name })));
    return catalogFromRegistry(packages, await stream<RegistryBundleMessage>('ListBundles'));
  } finally {
    client.close();
  }
}
