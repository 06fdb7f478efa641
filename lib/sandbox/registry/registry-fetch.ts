// Reading a whole catalog from a registry address (ListPackages, GetPackage, ListBundles), for
// CatalogSources that name only `spec.address`: packageserver needs their content too.
import * as grpc from '@grpc/grpc-js';
import {
  catalogFromRegistry,
  type RegistryBundleMessage,
  type RegistryPackageMessage,
} from '../../olm/fbc/from-registry';
import type { Catalog } from '../../olm/fbc/catalog';
import { PROPERTY_BUNDLE_OBJECT, PROPERTY_CSV_METADATA } from '../../olm/fbc/types';
import { registryServices } from './registry-server';

type Callable = Record<
  string,
  (req: unknown, opts: grpc.CallOptions, cb?: (err: grpc.ServiceError | null, res: unknown) => void) => unknown
>;

export async function fetchCatalog(address: string, timeoutMs = 30_000): Promise<Catalog> {
  const client = new (registryServices().Registry)(
    address,
    grpc.credentials.createInsecure(),
  ) as unknown as grpc.Client & Callable;
  const deadline = () => ({ deadline: Date.now() + timeoutMs });
  const stream = <T>(method: string): Promise<T[]> =>
    new Promise((resolve, reject) => {
      const out: T[] = [];
      const call = client[method]!({}, deadline()) as grpc.ClientReadableStream<T>;
      call.on('data', (m: T) => out.push(m));
      call.on('error', (e: grpc.ServiceError) =>
        reject(new Error(`registry ${address}: ${method}: ${e.details || e.message}`)),
      );
      call.on('end', () => resolve(out));
    });
  const unary = <T>(method: string, req: unknown): Promise<T> =>
    new Promise((resolve, reject) =>
      client[method]!(req, deadline(), (e, r) =>
        e ? reject(new Error(`registry ${address}: ${method}: ${e.details || e.message}`)) : resolve(r as T),
      ),
    );
  try {
    const names = await stream<{ name: string }>('ListPackages');
    const packages = await Promise.all(
      names.map((n) =>
        unary<RegistryPackageMessage & { channels: { csvName?: string }[] }>('GetPackage', { name: n.name }),
      ),
    );
    const bundles = await stream<RegistryBundleMessage>('ListBundles');
    // ListBundles carries no olm.bundle.object, where older catalogs keep their only CSV; like
    // packageserver, ask for each channel head (GetBundleForChannel gives its objects) and put
    // them back, so PackageManifests describe those heads too.
    const byName = new Map<string, RegistryBundleMessage[]>();
    for (const b of bundles)
      byName.set(`${b.packageName}/${b.csvName}`, [...(byName.get(`${b.packageName}/${b.csvName}`) ?? []), b]);
    const asked = new Set<string>();
    for (const p of packages) {
      for (const ch of p.channels) {
        const key = `${p.name}/${ch.csvName ?? ''}`;
        const messages = byName.get(key);
        if (!messages || asked.has(key) || messages[0]!.properties.some((q) => q.type === PROPERTY_CSV_METADATA))
          continue;
        asked.add(key);
        const full = await unary<{ object?: string[] }>('GetBundleForChannel', {
          pkgName: p.name,
          channelName: ch.name,
        });
        const objects = (full.object ?? []).map((o) => ({
          type: PROPERTY_BUNDLE_OBJECT,
          value: JSON.stringify({ data: Buffer.from(o).toString('base64') }),
        }));
        for (const m of messages) m.properties = [...m.properties, ...objects];
      }
    }
    return catalogFromRegistry(packages, bundles);
  } finally {
    client.close();
  }
}
