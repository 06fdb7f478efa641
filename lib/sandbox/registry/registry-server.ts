// The catalog registry of one CatalogSource, served over gRPC as `opm serve` serves it:
// api.Registry, api.ExperimentalRegistry and grpc.health.v1.Health on a loopback port.
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { Catalog } from '../../olm/fbc/catalog';
import type { PackageModel } from '../../olm/fbc/model';
import { headOf, listBundleMessages, lookupBundleMessage, packageMessage, type ChannelEntryMessage } from './messages';

const loaderOptions: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};
/** The service definitions, shared with the console's registry client (`proto/`). */
const protoDir = join(import.meta.dirname, '..', '..', '..', 'proto');

export function loadRegistryProtos(): grpc.GrpcObject {
  const def = protoLoader.loadSync([join(protoDir, 'registry.proto'), join(protoDir, 'health.proto')], loaderOptions);
  return grpc.loadPackageDefinition(def);
}

type ServiceClass = grpc.ServiceClientConstructor;

export function registryServices(protos = loadRegistryProtos()) {
  const api = protos.api as grpc.GrpcObject;
  const health = ((protos.grpc as grpc.GrpcObject).health as grpc.GrpcObject).v1 as grpc.GrpcObject;
  return {
    Registry: api.Registry as ServiceClass,
    Experimental: api.ExperimentalRegistry as ServiceClass,
    Health: health.Health as ServiceClass,
  };
}

/** google.protobuf.Struct from plain JSON, the shape proto-loader expects. */
function toValue(v: unknown): Record<string, unknown> {
  if (v === null || v === undefined) return { nullValue: 'NULL_VALUE' };
  if (typeof v === 'number') return { numberValue: v };
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (Array.isArray(v)) return { listValue: { values: v.map(toValue) } };
  return { structValue: toStruct(v as Record<string, unknown>) };
}

export function toStruct(o: Record<string, unknown>): { fields: Record<string, unknown> } {
  return { fields: Object.fromEntries(Object.entries(o).map(([k, v]) => [k, toValue(v)])) };
}

export interface RegistryServer {
  address: string;
  port: number;
  /** Swaps the catalog content at once, as a new index image would. */
  setCatalog(catalog: Catalog): void;
  /** Health answers NOT_SERVING when false (fault injection). */
  setHealthy(healthy: boolean): void;
  stop(): Promise<void>;
}

class NotFound extends Error {}

function unknown(cb: grpc.sendUnaryData<unknown>, message: string): void {
  cb({ code: grpc.status.UNKNOWN, details: message, message } as grpc.ServiceError, null);
}

export async function startRegistryServer(opts: {
  catalog: Catalog;
  port?: number;
  host?: string;
}): Promise<RegistryServer> {
  let catalog = opts.catalog;
  let healthy = true;
  const services = registryServices();
  const server = new grpc.Server();

  const pkg = (name: string): PackageModel => {
    const p = catalog.packages.get(name);
    if (!p) throw new NotFound(`package "${name}" not found`);
    return p;
  };
  const channelOf = (p: PackageModel, name: string) => {
    const ch = p.channels.get(name);
    if (!ch) throw new NotFound(`package "${p.name}", channel "${name}" not found`);
    return ch;
  };
  const unary =
    <Req>(fn: (req: Req) => unknown) =>
    (call: grpc.ServerUnaryCall<Req, unknown>, cb: grpc.sendUnaryData<unknown>) => {
      try {
        cb(null, fn(call.request));
      } catch (err) {
        if (err instanceof NotFound) unknown(cb, err.message);
        else cb({ code: grpc.status.INTERNAL, details: (err as Error).message } as grpc.ServiceError, null);
      }
    };
  // Writes wait for the client to take what was sent: a big catalog's ListBundles is tens of
  // thousands of messages, which would otherwise all sit in memory at once.
  const stream =
    <Req>(fn: (req: Req) => Iterable<unknown>) =>
    async (call: grpc.ServerWritableStream<Req, unknown>) => {
      try {
        for (const m of fn(call.request)) {
          if (call.cancelled) return;
          if (!call.write(m))
            await new Promise<void>((resolve) => {
              const done = () => {
                call.off('drain', done);
                call.off('cancelled', done);
                call.off('close', done);
                resolve();
              };
              call.on('drain', done);
              call.on('cancelled', done);
              call.on('close', done);
            });
        }
        if (!call.cancelled) call.end();
      } catch (err) {
        call.destroy(
          Object.assign(new Error((err as Error).message), {
            code: err instanceof NotFound ? grpc.status.UNKNOWN : grpc.status.INTERNAL,
          }),
        );
      }
    };
  const provides = (p: PackageModel, bundleName: string, g: { group: string; version: string; kind: string }) =>
    p.bundles
      .get(bundleName)
      ?.providedApis.some((a) => a.group === g.group && a.version === g.version && a.kind === g.kind) ?? false;
  const sortedPackages = () => [...catalog.packages.values()].sort((a, b) => a.name.localeCompare(b.name));
  const sortedChannels = (p: PackageModel) => [...p.channels.values()].sort((a, b) => a.name.localeCompare(b.name));
  const entry = (p: PackageModel, channel: string, e: { name: string }, replaces: string): ChannelEntryMessage => ({
    packageName: p.name,
    channelName: channel,
    bundleName: e.name,
    replaces,
  });
  // As opm's cache (pkg/cache/pkgs.go): an entry "replaces" a name through its replaces or any
  // of its skips, and every such entry is reported with its own replaces.
  const replacesName = (e: { replaces?: string; skips?: string[] }, name: string) =>
    e.replaces === name || (e.skips ?? []).includes(name);
  function* entriesThatReplace(name: string): Generator<ChannelEntryMessage> {
    for (const p of sortedPackages()) {
      for (const ch of sortedChannels(p)) {
        for (const e of ch.entries) {
          if (e.replaces === name) yield entry(p, ch.name, e, e.replaces);
          for (const s of e.skips ?? [])
            if (s === name && s !== e.replaces) yield entry(p, ch.name, e, e.replaces ?? '');
        }
      }
    }
  }
  /** One entry for the bundle's replaces, and one per skip (other than replaces), as opm's channelEntriesForBundle. */
  function* entriesForBundle(
    p: PackageModel,
    ch: { name: string; entries: { name: string; replaces?: string; skips?: string[] }[] },
    e: { name: string; replaces?: string; skips?: string[] },
    ignoreChannel: boolean,
  ): Generator<ChannelEntryMessage> {
    yield entry(p, ch.name, e, e.replaces ?? '');
    for (const s of e.skips ?? [])
      if (s !== e.replaces && (ignoreChannel || ch.entries.some((x) => x.name === s))) yield entry(p, ch.name, e, s);
  }
  function* entriesThatProvide(
    g: { group: string; version: string; kind: string },
    latestOnly: boolean,
  ): Generator<ChannelEntryMessage> {
    for (const p of sortedPackages()) {
      for (const ch of sortedChannels(p)) {
        for (const e of ch.entries) {
          if (latestOnly && headOf(p, ch.name)?.name !== e.name) continue;
          if (provides(p, e.name, g)) yield* entriesForBundle(p, ch, e, !latestOnly);
        }
      }
    }
  }
  const nonEmpty = <T>(items: T[], message: string): T[] => {
    if (!items.length) throw new NotFound(message);
    return items;
  };
  const gvkText = (g: { group: string; version: string; kind: string }) =>
    `group:${JSON.stringify(g.group)} version:${JSON.stringify(g.version)} kind:${JSON.stringify(g.kind)}`;

  server.addService(services.Registry.service, {
    ListPackages: stream<unknown>(() => [...catalog.packages.keys()].sort().map((name) => ({ name }))),
    GetPackage: unary<{ name: string }>((r) => packageMessage(pkg(r.name))),
    GetBundle: unary<{ pkgName: string; channelName: string; csvName: string }>((r) => {
      const p = pkg(r.pkgName);
      const ch = channelOf(p, r.channelName);
      const b = ch.entries.some((e) => e.name === r.csvName) ? p.bundles.get(r.csvName) : undefined;
      if (!b) throw new NotFound(`package "${r.pkgName}", channel "${r.channelName}", bundle "${r.csvName}" not found`);
      return lookupBundleMessage(p, b, ch.name);
    }),
    GetBundleForChannel: unary<{ pkgName: string; channelName: string }>((r) => {
      const p = pkg(r.pkgName);
      channelOf(p, r.channelName);
      const head = headOf(p, r.channelName);
      if (!head) throw new NotFound(`channel "${r.channelName}" of package "${r.pkgName}" has no single head`);
      return lookupBundleMessage(p, head, r.channelName);
    }),
    GetChannelEntriesThatReplace: stream<{ csvName: string }>((r) =>
      nonEmpty([...entriesThatReplace(r.csvName)], `no channel entries found that replace ${r.csvName}`),
    ),
    GetBundleThatReplaces: unary<{ csvName: string; pkgName: string; channelName: string }>((r) => {
      const p = catalog.packages.get(r.pkgName);
      if (!p) throw new NotFound(`package ${r.pkgName} not found`);
      const ch = channelOf(p, r.channelName);
      const e = ch.entries.find((x) => replacesName(x, r.csvName));
      const b = e ? p.bundles.get(e.name) : undefined;
      if (!b) throw new NotFound(`no entry found for package "${r.pkgName}", channel "${r.channelName}"`);
      return lookupBundleMessage(p, b, ch.name);
    }),
    GetChannelEntriesThatProvide: stream<{ group: string; version: string; kind: string }>((r) =>
      nonEmpty([...entriesThatProvide(r, false)], `no channel entries found that provide ${gvkText(r)}`),
    ),
    GetLatestChannelEntriesThatProvide: stream<{ group: string; version: string; kind: string }>((r) =>
      nonEmpty([...entriesThatProvide(r, true)], `no channel entries found that provide ${gvkText(r)}`),
    ),
    GetDefaultBundleThatProvides: unary<{ group: string; version: string; kind: string }>((r) => {
      const latest = [...entriesThatProvide(r, true)];
      if (!latest.length) throw new NotFound(`no channel entries found that provide ${gvkText(r)}`);
      for (const e of latest) {
        const p = catalog.packages.get(e.packageName)!;
        if (e.channelName === p.defaultChannel)
          return lookupBundleMessage(p, p.bundles.get(e.bundleName)!, e.channelName);
      }
      throw new NotFound(`no entry found that provides ${gvkText(r)}`);
    }),
    ListBundles: stream<unknown>(function* () {
      for (const p of [...catalog.packages.values()].sort((a, b) => a.name.localeCompare(b.name)))
        yield* listBundleMessages(p);
    }),
  });
  server.addService(services.Experimental.service, {
    ExperimentalListPackageCustomSchemas: stream<{ schema: string; packageName: string }>((r) =>
      pkg(r.packageName)
        .others.filter((o) => o.schema === r.schema)
        .map((o) => toStruct(o)),
    ),
  });
  server.addService(services.Health.service, {
    Check: (_call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) =>
      cb(null, { status: healthy ? 'SERVING' : 'NOT_SERVING' }),
    Watch: (call: grpc.ServerWritableStream<unknown, unknown>) => {
      call.write({ status: healthy ? 'SERVING' : 'NOT_SERVING' });
      call.end();
    },
  });

  const host = opts.host ?? '127.0.0.1';
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${host}:${opts.port ?? 0}`, grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    );
  });
  return {
    address: `${host}:${port}`,
    port,
    setCatalog: (c) => {
      catalog = c;
    },
    setHealthy: (h) => {
      healthy = h;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.tryShutdown(() => resolve());
        setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 2000).unref();
      }),
  };
}
