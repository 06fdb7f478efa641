// A client of the operator-registry gRPC API (../shared/registry-api.md), as the console uses it
// to read a catalog's whole graph in one ListBundles stream. Every call has a deadline; errors
// say which catalog address failed and why.
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { BundleMessage, ChannelEntryMessage, GvkMessage, PackageMessage } from '../olm/registry-api';

// Resolved from the working directory, not this file: inside the Next.js server bundle a module
// has no directory of its own. The console runs from the project root (npm start, npm test).
const protoDir = process.env.OLM_CONSOLE_PROTO_DIR ?? join(process.cwd(), 'proto');

export type RegistryGvk = GvkMessage;
export type RegistryBundle = BundleMessage;
export type RegistryPackage = PackageMessage;
export type RegistryChannelEntry = ChannelEntryMessage;

export class RegistryError extends Error {
  constructor(
    readonly address: string,
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'RegistryError';
  }
}

type Ctor = grpc.ServiceClientConstructor;
let services: { Registry: Ctor; Experimental: Ctor; Health: Ctor } | undefined;

function load() {
  if (!services) {
    const def = protoLoader.loadSync([join(protoDir, 'registry.proto'), join(protoDir, 'health.proto')], { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
    const root = grpc.loadPackageDefinition(def);
    const api = root.api as grpc.GrpcObject;
    const health = ((root.grpc as grpc.GrpcObject).health as grpc.GrpcObject).v1 as grpc.GrpcObject;
    services = { Registry: api.Registry as Ctor, Experimental: api.ExperimentalRegistry as Ctor, Health: health.Health as Ctor };
  }
  return services;
}

type Callable = Record<string, (req: unknown, opts: grpc.CallOptions, cb?: (err: grpc.ServiceError | null, res: unknown) => void) => unknown>;

export class RegistryClient {
  private readonly registry: grpc.Client;
  private readonly experimental: grpc.Client;
  private readonly health: grpc.Client;

  constructor(
    readonly address: string,
    private readonly timeoutMs = 30_000,
  ) {
    const s = load();
    const creds = grpc.credentials.createInsecure();
    this.registry = new s.Registry(address, creds);
    this.experimental = new s.Experimental(address, creds);
    this.health = new s.Health(address, creds);
  }

  close(): void {
    this.registry.close();
    this.experimental.close();
    this.health.close();
  }

  private wrap(method: string, err: grpc.ServiceError): RegistryError {
    return new RegistryError(this.address, err.code, `catalog registry at ${this.address}: ${method} failed: ${err.details || err.message}`);
  }

  private unary<T>(client: grpc.Client, method: string, req: unknown): Promise<T> {
    return new Promise((resolve, reject) => {
      (client as unknown as Callable)[method]!(req, { deadline: Date.now() + this.timeoutMs }, (err, res) => (err ? reject(this.wrap(method, err)) : resolve(res as T)));
    });
  }

  private stream<T>(client: grpc.Client, method: string, req: unknown): Promise<T[]> {
    return new Promise((resolve, reject) => {
      const out: T[] = [];
      const call = (client as unknown as Callable)[method]!(req, { deadline: Date.now() + this.timeoutMs }) as grpc.ClientReadableStream<T>;
      call.on('data', (m: T) => out.push(m));
      call.on('error', (err: grpc.ServiceError) => reject(this.wrap(method, err)));
      call.on('end', () => resolve(out));
    });
  }

  listPackages(): Promise<string[]> {
    return this.stream<{ name: string }>(this.registry, 'ListPackages', {}).then((l) => l.map((p) => p.name));
  }
  getPackage(name: string): Promise<RegistryPackage> {
    return this.unary(this.registry, 'GetPackage', { name });
  }
  getBundle(pkgName: string, channelName: string, csvName: string): Promise<RegistryBundle> {
    return this.unary(this.registry, 'GetBundle', { pkgName, channelName, csvName });
  }
  getBundleForChannel(pkgName: string, channelName: string): Promise<RegistryBundle> {
    return this.unary(this.registry, 'GetBundleForChannel', { pkgName, channelName });
  }
  getChannelEntriesThatReplace(csvName: string): Promise<RegistryChannelEntry[]> {
    return this.stream(this.registry, 'GetChannelEntriesThatReplace', { csvName });
  }
  getBundleThatReplaces(csvName: string, pkgName: string, channelName: string): Promise<RegistryBundle> {
    return this.unary(this.registry, 'GetBundleThatReplaces', { csvName, pkgName, channelName });
  }
  getChannelEntriesThatProvide(gvk: Omit<RegistryGvk, 'plural'>): Promise<RegistryChannelEntry[]> {
    return this.stream(this.registry, 'GetChannelEntriesThatProvide', gvk);
  }
  getLatestChannelEntriesThatProvide(gvk: Omit<RegistryGvk, 'plural'>): Promise<RegistryChannelEntry[]> {
    return this.stream(this.registry, 'GetLatestChannelEntriesThatProvide', gvk);
  }
  getDefaultBundleThatProvides(gvk: Omit<RegistryGvk, 'plural'>): Promise<RegistryBundle> {
    return this.unary(this.registry, 'GetDefaultBundleThatProvides', gvk);
  }
  listBundles(): Promise<RegistryBundle[]> {
    return this.stream(this.registry, 'ListBundles', {});
  }
  listPackageCustomSchemas(packageName: string, schema: string): Promise<unknown[]> {
    return this.stream(this.experimental, 'ExperimentalListPackageCustomSchemas', { packageName, schema });
  }
  /** `SERVING` when the catalog is healthy. */
  healthCheck(): Promise<string> {
    return this.unary<{ status: string }>(this.health, 'Check', { service: '' }).then((r) => r.status);
  }
}
