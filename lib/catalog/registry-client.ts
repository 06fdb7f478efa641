// A client of the operator-registry gRPC API (docs/olm/registry-api.md), as the console uses it
// to read a catalog's whole graph in one ListBundles stream. Every call has a deadline and a
// deliberate message size limit; errors say which catalog address failed and why.
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

/**
 * The largest single message the console takes from a registry, in bytes. grpc-js refuses
 * anything over 4 MB unless told otherwise, and ListBundles sends each (bundle, channel) pair as
 * one message: a bundle without an image (catalogs that inline their bundles, as `opm` serves
 * them and `npm run cluster` writes them) carries its CSV twice (`csvJson` and `object`) and every
 * other manifest, so one bundle with a 5 MB description made its whole catalog unreadable
 * (issue 19). The largest bundle in ../shared/catalogs, inlined, is 1.2 MB (okderators'
 * gitops-operator); 16 MiB is thirteen times that: a CSV at etcd's 1.5 MiB object limit twice
 * and a dozen megabytes of CRDs besides. The limit bounds what one message costs while it is
 * decoded (its buffer and its strings, two to three times its size, one message at a time per
 * read); what the index keeps of it is capped separately (bundle-caps.ts). A bundle over it still
 * fails the stream it is in (gRPC cannot skip a message), and the error says so.
 */
export const MAX_REGISTRY_MESSAGE_BYTES = 16 * 1024 * 1024;

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
    const def = protoLoader.loadSync([join(protoDir, 'registry.proto'), join(protoDir, 'health.proto')], {
      keepCase: true,
      longs: String,
      enums: String,
      defaults: true,
      oneofs: true,
    });
    const root = grpc.loadPackageDefinition(def);
    const api = root.api as grpc.GrpcObject;
    const health = ((root.grpc as grpc.GrpcObject).health as grpc.GrpcObject).v1 as grpc.GrpcObject;
    services = {
      Registry: api.Registry as Ctor,
      Experimental: api.ExperimentalRegistry as Ctor,
      Health: health.Health as Ctor,
    };
  }
  return services;
}

type Callable = Record<
  string,
  (req: unknown, opts: grpc.CallOptions, cb?: (err: grpc.ServiceError | null, res: unknown) => void) => unknown
>;

export class RegistryClient {
  private readonly registry: grpc.Client;
  private readonly experimental: grpc.Client;
  private readonly health: grpc.Client;

  constructor(
    readonly address: string,
    private readonly timeoutMs = 30_000,
    private readonly maxMessageBytes = MAX_REGISTRY_MESSAGE_BYTES,
  ) {
    const s = load();
    const creds = grpc.credentials.createInsecure();
    // Connections of its own, closed with it: grpc-js otherwise pools them by address across
    // clients, and a port-forward's local address is one person's. A pooled connection through a
    // forward ended at its owner's sign-out could carry a new call, and one left open after it could
    // carry someone else's if their forward was later given the same local port.
    const options: grpc.ChannelOptions = {
      'grpc.max_receive_message_length': maxMessageBytes,
      'grpc.use_local_subchannel_pool': 1,
    };
    this.registry = new s.Registry(address, creds, options);
    this.experimental = new s.Experimental(address, creds, options);
    this.health = new s.Health(address, creds, options);
  }

  close(): void {
    this.registry.close();
    this.experimental.close();
    this.health.close();
  }

  private wrap(method: string, err: grpc.ServiceError): RegistryError {
    const why = err.details || err.message;
    if (err.code === grpc.status.RESOURCE_EXHAUSTED && /larger than/i.test(why)) {
      const mib = Math.round((this.maxMessageBytes / (1024 * 1024)) * 10) / 10;
      return new RegistryError(
        this.address,
        err.code,
        `catalog registry at ${this.address}: ${method} failed: a bundle's message is larger than the ${mib} MiB the console accepts from a registry (${why})`,
      );
    }
    return new RegistryError(this.address, err.code, `catalog registry at ${this.address}: ${method} failed: ${why}`);
  }

  private unary<T>(client: grpc.Client, method: string, req: unknown): Promise<T> {
    return new Promise((resolve, reject) => {
      (client as unknown as Callable)[method]!(req, { deadline: Date.now() + this.timeoutMs }, (err, res) =>
        err ? reject(this.wrap(method, err)) : resolve(res as T),
      );
    });
  }

  /** `each` turns every message into what is kept, as it arrives (by default, the message). */
  private stream<T>(client: grpc.Client, method: string, req: unknown, each: (m: T) => T = (m) => m): Promise<T[]> {
    return new Promise((resolve, reject) => {
      const out: T[] = [];
      const call = (client as unknown as Callable)[method]!(req, {
        deadline: Date.now() + this.timeoutMs,
      }) as grpc.ClientReadableStream<T>;
      call.on('data', (m: T) => out.push(each(m)));
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
  /**
   * Every (bundle, channel) pair. `each` turns each message into what is kept as it arrives, so a
   * big catalog's manifests need not all be held until the stream ends.
   */
  listBundles(each?: (b: RegistryBundle) => RegistryBundle): Promise<RegistryBundle[]> {
    return this.stream(this.registry, 'ListBundles', {}, each);
  }
  listPackageCustomSchemas(packageName: string, schema: string): Promise<unknown[]> {
    return this.stream(this.experimental, 'ExperimentalListPackageCustomSchemas', { packageName, schema });
  }
  /** `SERVING` when the catalog is healthy. */
  healthCheck(): Promise<string> {
    return this.unary<{ status: string }>(this.health, 'Check', { service: '' }).then((r) => r.status);
  }
}
