// CatalogSources in the sandbox: each one whose content is an FBC folder gets its own registry
// gRPC server on a loopback port, with `status.registryService` and `status.connectionState`
// written as OLM writes them (docs/olm/catalogs.md#address-and-image-sources); in `service` mode, with the pod and
// Service OLM runs for it and the in-cluster address, reachable by port-forward. Address-only sources are
// health-checked over gRPC. The loaded catalogs feed packageserver.
import { readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { describeProblems, type Catalog } from '../../olm/fbc/catalog';
import { loadCatalog } from '../../olm/fbc/load-catalog';
import { CATALOG_REGISTRY_PORT, CATALOG_SOURCE_POD_LABEL } from '../../olm/resources/catalog-source';
import { fetchCatalog } from '../registry/registry-fetch';
import { startRegistryServer, type RegistryServer } from '../registry/registry-server';
import type { ApiServer } from '../server/api-server';

import type { ForwardTarget } from '../server/port-forward';
import type { ServedResource } from '../server/resources';
import type { KObject } from '../store/types';
import { buildPackageManifest, type BuiltManifest, type CatalogSourceFacts } from './package-manifests';
import { pollDue, registryPoll } from '../../olm/catalog/registry-poll';
import { CATALOG_DIR_ANNOTATION } from './catalog-dir-admission';
import { healthCheck } from './registry-health';

export { CATALOG_DIR_ANNOTATION, CATALOG_DIR_RIGHT, admitCatalogDir } from './catalog-dir-admission';
export { healthCheck } from './registry-health';

export interface CatalogEntry {
  key: string;
  namespace: string;
  name: string;
  dir?: string;
  /** The image an image-backed source names, served from the folder --catalog-image maps it to. */
  image?: string;
  /** Files, sizes and times of the folder when last read: a poll reloads only when it changed. */
  signature?: string;
  /** status.latestImageRegistryPoll */
  latestPoll?: string;
  /** status.reason when the spec is at fault (InvalidIntervalError). */
  reason?: string;
  address?: string;
  registry?: RegistryServer;
  catalog?: Catalog;
  /** Package name → its manifest, rebuilt when the content changes. */
  manifests: Map<string, BuiltManifest>;
  healthy: boolean;
  message?: string;
  lastConnect?: string;
  /** When the content of an address-only source was last read (ms). */
  fetchedAt?: number;
  /** Until the first connection attempt ends. */
  connecting?: boolean;
}

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A CatalogSource name from a folder name: a DNS-1123 label. */
export function catalogSourceName(dir: string): string {
  const n = basename(resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  return n || 'catalog';
}

export interface SeedAs {
  name?: string;
  displayName?: string;
  publisher?: string;
  /** Pull secrets of the catalog namespace the unpack pods of its bundles pull with (`spec.secrets`). */
  secrets?: string[];
}

/** The CatalogSource the sandbox makes for a catalog folder (--catalog, the demo). */
export function catalogSourceDefinition(dir: string, as: SeedAs, namespace: string): KObject {
  return {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'CatalogSource',
    metadata: {
      name: as.name ?? catalogSourceName(dir),
      namespace,
      annotations: { [CATALOG_DIR_ANNOTATION]: resolve(dir) },
    },
    spec: {
      sourceType: 'grpc',
      displayName: as.displayName ?? basename(resolve(dir)),
      publisher: as.publisher ?? 'olm-console',
      updateStrategy: { registryPoll: { interval: '10m' } },
      ...(as.secrets?.length ? { secrets: as.secrets } : {}),
    },
  };
}

export class CatalogSources {
  readonly entries = new Map<string, CatalogEntry>();
  private readonly healthTimer: NodeJS.Timeout;
  /** Forced unhealthy by fault injection. */
  private readonly broken = new Set<string>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly api: ApiServer,
    readonly globalNamespace: string,
    /**
     * How a served catalog's address is reported: `loopback`, the registry's own 127.0.0.1 port
     * (reachable from the machine); `service`, as OLM reports it in a cluster
     * (`<name>.<namespace>.svc:50051`, reachable only through its pod, by port-forward), with the
     * catalog pod and Service OLM would create.
     */
    readonly addressMode: 'loopback' | 'service' = 'loopback',
    /**
     * Catalog images the sandbox can "pull": image reference → FBC folder (--catalog-image). A
     * CatalogSource naming one is served from the folder, and polled as OLM polls its image.
     */
    private readonly images: ReadonlyMap<string, string> = new Map(),
  ) {
    this.healthTimer = setInterval(
      () => {
        void this.checkAddresses();
        void this.pollImages();
      },
      images.size ? 1_000 : 5_000,
    );
    this.healthTimer.unref();
  }

  private get resource(): ServedResource {
    return this.api.resources.find('operators.coreos.com', 'v1alpha1', 'catalogsources')!;
  }

  /** Called whenever the set of healthy catalogs or their content changes. */
  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }

  async stop(): Promise<void> {
    clearInterval(this.healthTimer);
    await Promise.all([...this.entries.values()].map((e) => e.registry?.stop()));
    this.entries.clear();
  }

  /** Creates the CatalogSource for a folder given with --catalog, unless it exists. */
  seed(dir: string, as: SeedAs = {}, namespace = this.globalNamespace): void {
    const cs = catalogSourceDefinition(dir, as, namespace);
    const existing = this.api.storeGet(this.resource, namespace, cs.metadata.name ?? '');
    if (!existing) {
      this.api.createObject(this.resource, cs);
      return;
    }
    // Kept by a data file from a start that served the folder from elsewhere (the demo inline,
    // then published in images): the folder of this start is the one to serve.
    const folder = existing.metadata.annotations?.[CATALOG_DIR_ANNOTATION];
    const wanted = cs.metadata.annotations![CATALOG_DIR_ANNOTATION]!;
    if (folder !== undefined && folder !== wanted)
      this.api.updateObject(this.resource, {
        ...existing,
        metadata: {
          ...existing.metadata,
          annotations: { ...existing.metadata.annotations, [CATALOG_DIR_ANNOTATION]: wanted },
        },
      });
  }

  /** Brings the registry and status of one CatalogSource in line with its spec. */
  async reconcile(cs: KObject): Promise<void> {
    const namespace = cs.metadata.namespace ?? '';
    const name = cs.metadata.name ?? '';
    const key = `${namespace}/${name}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = {
        key,
        namespace,
        name,
        manifests: new Map(),
        healthy: false,
        connecting: true,
        latestPoll: (cs.status as { latestImageRegistryPoll?: string } | undefined)?.latestImageRegistryPoll,
      };
      this.entries.set(key, entry);
      this.writeStatus(entry);
    }
    const spec = (cs.spec ?? {}) as { address?: string; image?: string; sourceType?: string };
    const annotated = cs.metadata.annotations?.[CATALOG_DIR_ANNOTATION];
    const imageDir = !annotated && spec.image ? this.images.get(spec.image) : undefined;
    const dir = annotated ?? imageDir;
    entry.image = imageDir ? spec.image : undefined;
    const poll = entry.image ? registryPoll(cs) : undefined;
    entry.reason = poll?.parsingError ? 'InvalidIntervalError' : undefined;
    if (dir) {
      if (entry.dir !== dir || !entry.registry) await this.serveDir(entry, cs, dir);
      if (poll?.parsingError) entry.message = poll.parsingError;
    } else if (spec.address) {
      if (entry.address !== spec.address) entry.fetchedAt = undefined;
      entry.address = spec.address;
      await this.checkAddress(entry, cs);
    } else {
      entry.healthy = false;
      entry.message = spec.image
        ? `the sandbox cannot pull catalog images: ${spec.image} is not one it was started with (--catalog-image IMAGE=DIR); give the CatalogSource an FBC folder (annotation ${CATALOG_DIR_ANNOTATION}) or a registry address (spec.address)`
        : 'the CatalogSource names no content: set spec.address, or the annotation ' + CATALOG_DIR_ANNOTATION;
    }
    if (this.broken.has(key)) entry.healthy = false;
    entry.connecting = false;
    this.writeStatus(entry);
  }

  private async serveDir(entry: CatalogEntry, cs: KObject, dir: string): Promise<void> {
    let catalog: Catalog;
    try {
      catalog = loadCatalog(dir);
    } catch (err) {
      entry.healthy = false;
      entry.message = `cannot load catalog ${dir}: ${(err as Error).message}`;
      return;
    }
    const problems = describeProblems(catalog);
    entry.signature = folderSignature(dir);
    entry.dir = dir;
    entry.catalog = catalog;
    if (entry.registry) entry.registry.setCatalog(catalog);
    else entry.registry = await startRegistryServer({ catalog });
    entry.registry.setHealthy(!this.broken.has(entry.key));
    entry.address = entry.registry.address;
    entry.healthy = true;
    entry.lastConnect = now();
    entry.message = problems.length
      ? `${problems.length} catalog problem(s), affected packages left out: ${problems.slice(0, 3).join('; ')}`
      : undefined;
    if (this.addressMode === 'service') this.ensurePodAndService(entry, cs);
    this.rebuildManifests(entry, cs);
  }

  private rebuildManifests(entry: CatalogEntry, cs: KObject): void {
    entry.manifests.clear();
    if (!entry.catalog) return;
    const spec = (cs.spec ?? {}) as { displayName?: string; publisher?: string };
    const facts: CatalogSourceFacts = {
      name: entry.name,
      namespace: entry.namespace,
      displayName: spec.displayName,
      publisher: spec.publisher,
      labels: cs.metadata.labels,
      creationTimestamp: cs.metadata.creationTimestamp,
    };
    for (const pkg of entry.catalog.packages.values()) {
      const built = buildPackageManifest(facts, pkg);
      if (built) entry.manifests.set(pkg.name, built);
    }
    this.changed();
  }

  private async checkAddress(entry: CatalogEntry, cs?: KObject): Promise<void> {
    const ok = await healthCheck(entry.address!);
    const was = entry.healthy;
    entry.healthy = ok && !this.broken.has(entry.key);
    if (ok) entry.lastConnect = now();
    entry.message = ok ? undefined : `no healthy registry answers at ${entry.address}`;
    // Its content, read through the registry API, as packageserver reads it (again each minute).
    if (entry.healthy && (!entry.fetchedAt || Date.now() - entry.fetchedAt > 60_000)) {
      try {
        entry.catalog = await fetchCatalog(entry.address!);
        entry.fetchedAt = Date.now();
        const obj = cs ?? this.api.storeGet(this.resource, entry.namespace, entry.name);
        if (obj) this.rebuildManifests(entry, obj);
        return;
      } catch (err) {
        entry.healthy = false;
        entry.message = (err as Error).message;
      }
    }
    if (was !== entry.healthy) this.changed();
  }

  private async checkAddresses(): Promise<void> {
    for (const e of this.entries.values()) {
      if (e.dir || !e.address) continue;
      const before = e.healthy;
      await this.checkAddress(e);
      if (before !== e.healthy) this.writeStatus(e);
    }
  }

  /**
   * Image-backed sources whose poll is due: the folder is read again when it changed (a new image
   * digest, in OLM's terms) and latestImageRegistryPoll is written either way, as OLM writes it
   * when it starts the update pod.
   */
  private polling = false;
  private async pollImages(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      for (const e of this.entries.values()) {
        if (!e.image || !e.dir) continue;
        const cur = this.api.storeGet(this.resource, e.namespace, e.name);
        if (!cur || !pollDue(cur, Date.now())) continue;
        e.latestPoll = now();
        if (folderSignature(e.dir) !== e.signature) await this.serveDir(e, cur, e.dir);
        this.writeStatus(e);
      }
    } finally {
      this.polling = false;
    }
  }

  /** The catalog pod and Service OLM runs for a grpc CatalogSource, owned by it (deleted with it). */
  private ensurePodAndService(entry: CatalogEntry, cs: KObject): void {
    const pods = this.api.resources.find('', 'v1', 'pods')!;
    const services = this.api.resources.find('', 'v1', 'services')!;
    const labels = { [CATALOG_SOURCE_POD_LABEL]: entry.name, 'olm.managed': 'true' };
    const owner = [
      {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'CatalogSource',
        name: entry.name,
        uid: cs.metadata.uid ?? '',
        controller: true,
        blockOwnerDeletion: false,
      },
    ];
    if (
      !this.api
        .storeList(pods, entry.namespace)
        .some((p) => p.metadata.labels?.[CATALOG_SOURCE_POD_LABEL] === entry.name)
    ) {
      const pod = this.api.createObject(pods, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { generateName: `${entry.name}-`, namespace: entry.namespace, labels, ownerReferences: owner },
        spec: {
          containers: [
            {
              name: 'registry-server',
              image: `sandbox.olm-console.dev/catalog/${entry.name}`,
              ports: [{ name: 'grpc', containerPort: CATALOG_REGISTRY_PORT, protocol: 'TCP' }],
            },
          ],
        },
      });
      this.api.updateObject(
        pods,
        {
          ...pod,
          status: {
            phase: 'Running',
            conditions: [{ type: 'Ready', status: 'True' }],
            podIP: '127.0.0.1',
            startTime: now(),
          },
        },
        'status',
      );
    }
    if (!this.api.storeGet(services, entry.namespace, entry.name)) {
      this.api.createObject(services, {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: {
          name: entry.name,
          namespace: entry.namespace,
          labels: { 'olm.managed': 'true' },
          ownerReferences: owner,
        },
        spec: {
          selector: { [CATALOG_SOURCE_POD_LABEL]: entry.name },
          ports: [{ name: 'grpc', port: CATALOG_REGISTRY_PORT, targetPort: CATALOG_REGISTRY_PORT, protocol: 'TCP' }],
        },
      });
    }
  }

  /** pods/portforward: a catalog pod's registry port is its registry server's loopback port. */
  forwardTarget(namespace: string, pod: string, port: number): ForwardTarget | undefined {
    const obj = this.api.storeGet(this.api.resources.find('', 'v1', 'pods')!, namespace, pod);
    const name = obj?.metadata.labels?.[CATALOG_SOURCE_POD_LABEL];
    const entry = name ? this.entries.get(`${namespace}/${name}`) : undefined;
    if (!entry) return undefined;
    if (port !== CATALOG_REGISTRY_PORT)
      return { error: `the catalog pod listens on port ${CATALOG_REGISTRY_PORT} only, not ${port}` };
    if (!entry.registry)
      return { error: `error forwarding port ${port} to pod ${pod}: connection refused (the registry is not running)` };
    return { port: entry.registry.port };
  }

  private reportedAddress(entry: CatalogEntry): string {
    if (this.addressMode === 'service' && entry.dir)
      return `${entry.name}.${entry.namespace}.svc:${CATALOG_REGISTRY_PORT}`;
    return entry.address ?? '';
  }

  private writeStatus(entry: CatalogEntry): void {
    const cur = this.api.storeGet(this.resource, entry.namespace, entry.name);
    if (!cur) return;
    const prev = (cur.status ?? {}) as { registryService?: { createdAt?: string } };
    const status: Record<string, unknown> = {
      registryService: entry.dir
        ? {
            protocol: 'grpc',
            serviceName: entry.name,
            serviceNamespace: entry.namespace,
            port: String(this.addressMode === 'service' ? CATALOG_REGISTRY_PORT : (entry.registry?.port ?? '')),
            createdAt: prev.registryService?.createdAt ?? now(),
          }
        : { protocol: 'grpc', createdAt: prev.registryService?.createdAt ?? now() },
      connectionState: {
        address: this.reportedAddress(entry),
        lastObservedState: entry.connecting ? 'CONNECTING' : entry.healthy ? 'READY' : 'TRANSIENT_FAILURE',
        ...(entry.lastConnect ? { lastConnect: entry.lastConnect } : {}),
      },
      ...(entry.message ? { message: entry.message } : {}),
      ...(entry.reason
        ? { reason: entry.reason }
        : !entry.healthy && !entry.address && !entry.connecting
          ? { reason: 'SpecInvalidError' }
          : {}),
      ...(entry.latestPoll ? { latestImageRegistryPoll: entry.latestPoll } : {}),
    };
    if (JSON.stringify(cur.status) === JSON.stringify(status)) return;
    this.api.updateObject(this.resource, { ...cur, status }, 'status');
  }

  forget(namespace: string, name: string): void {
    const key = `${namespace}/${name}`;
    const e = this.entries.get(key);
    if (!e) return;
    void e.registry?.stop();
    this.entries.delete(key);
    this.changed();
  }

  /** Fault injection: a catalog that stops answering (TRANSIENT_FAILURE) or comes back. */
  setBroken(namespace: string, name: string, broken: boolean): boolean {
    const key = `${namespace}/${name}`;
    const e = this.entries.get(key);
    if (!e) return false;
    if (broken) this.broken.add(key);
    else this.broken.delete(key);
    e.registry?.setHealthy(!broken);
    e.healthy = !broken && (!!e.registry || e.healthy);
    this.writeStatus(e);
    this.changed();
    return true;
  }

  /** Healthy catalogs, for packageserver and the resolver. */
  healthy(): CatalogEntry[] {
    return [...this.entries.values()].filter((e) => e.healthy && !this.broken.has(e.key));
  }
}

/** Every file under a folder with its size and modification time, in a stable order. */
function folderSignature(dir: string): string {
  const parts: string[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d).sort();
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      try {
        const st = statSync(p);
        if (st.isDirectory()) walk(p);
        else parts.push(`${p}:${st.size}:${st.mtimeMs}`);
      } catch {
        // gone meanwhile
      }
    }
  };
  walk(dir);
  return parts.join('\n');
}
