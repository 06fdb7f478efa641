// The real cluster's image registry (cluster/registry: go-containerregistry's in-memory registry on
// HTTPS, its certificate from the cluster's CA) and the pushes into it. It holds every bundle of
// each `--catalog` as a bundle image, for OLM v1 (operator-controller pulls them) and, with
// `--v0-bundles image`, for OLM v0 (its unpack pods pull them: scripts/cluster-unpack.ts), and the
// catalog images catalogd pulls. It stands for a registry pod, so a crash restarts it (`run`'s
// restart) and every image pushed so far is pushed again.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { signedCertificate } from './certificates';

const execFileAsync = promisify(execFile);

export interface RegistryContext {
  dataDir: string;
  paths: Record<string, string>;
  run: (name: string, bin: string, args: string[], env?: Record<string, string>, restart?: boolean) => ChildProcess;
  until: (what: string, probe: () => Promise<boolean>, timeoutMs: number, alive: () => void) => Promise<void>;
  alive: (c: ChildProcess, name: string) => () => void;
  freePort: () => Promise<number>;
  accepts: (port: number) => Promise<boolean>;
}

export interface Registry {
  /** `127.0.0.1:PORT`, the first part of every image reference in it. */
  host: string;
  /** Pushes each bundle folder to its reference; answers the digests in the same order. */
  pushBundles(refs: { dir: string; ref: string }[]): Promise<string[]>;
  /** Pushes a catalog folder as a catalog image; answers its digest. */
  pushCatalog(dir: string, ref: string): Promise<string>;
  /** The reference a bundle of a package is pushed to (a tag; the digest comes from the push). */
  bundleRef(pkg: string, bundle: string): string;
}

/** Starts the registry on a free loopback port and answers once it accepts connections. */
export async function startRegistry(ctx: RegistryContext): Promise<Registry> {
  const { dataDir, paths, run, until, alive, freePort, accepts } = ctx;
  const d = (n: string) => join(dataDir, n);
  signedCertificate(
    dataDir,
    'registry',
    'ca',
    '/CN=registry',
    'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n',
  );
  const port = await freePort();
  const registry = run(
    'olm-v1-registry',
    paths.registry!,
    ['serve', '--addr', `127.0.0.1:${port}`, '--tls-cert', d('registry.crt'), '--tls-key', d('registry.key')],
    {},
    true,
  );
  await until('the image registry', () => accepts(port), 30_000, alive(registry, 'registry'));
  const host = `127.0.0.1:${port}`;
  // Every push made, to be made again into a restarted (empty) registry.
  const bundlePushes: { dir: string; ref: string }[] = [];
  const catalogPushes: { dir: string; ref: string }[] = [];
  // Not spawnSync: while this process waits, it must keep reading the registry's log, or the
  // registry blocks writing it and the push never ends.
  const pushCatalog = async (dir: string, ref: string, again = false): Promise<string> => {
    try {
      const { stdout } = await execFileAsync(paths.registry!, ['push-catalog', '--ca', d('ca.crt'), dir, ref], {
        encoding: 'utf8',
      });
      if (!again) catalogPushes.push({ dir, ref });
      return stdout.trim();
    } catch (err) {
      throw new Error(
        `registry push-catalog ${dir} ${ref} failed: ${(err as { stderr?: string }).stderr ?? (err as Error).message}`,
      );
    }
  };
  // Every bundle of a catalog in one process, which prints "REF<TAB>DIGEST" per bundle: hundreds of
  // processes, one per bundle, cost more than the pushes themselves.
  const pushBundles = (refs: { dir: string; ref: string }[], again = false): Promise<string[]> =>
    new Promise((res, rej) => {
      if (!refs.length) return res([]);
      const child = spawn(paths.registry!, ['push-bundles', '--ca', d('ca.crt')], {
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr.on('data', (b: Buffer) => (err += b.toString()));
      child.once('error', rej);
      child.once('exit', (code) => {
        if (code !== 0) return rej(new Error(`registry push-bundles failed (${code}): ${err}`));
        if (!again) bundlePushes.push(...refs);
        const digests = new Map(
          out
            .trim()
            .split('\n')
            .map((l) => l.split('\t') as [string, string]),
        );
        res(refs.map((r) => digests.get(r.ref) ?? ''));
      });
      child.stdin.end(refs.map((r) => `${r.dir}\t${r.ref}\n`).join(''));
    });
  restoreRegistry(
    port,
    readFileSync(d('ca.crt'), 'utf8'),
    () => catalogPushes.at(-1)?.ref ?? bundlePushes.at(-1)?.ref,
    async () => {
      await pushBundles(bundlePushes, true);
      for (const c of catalogPushes) await pushCatalog(c.dir, c.ref, true);
      return `${bundlePushes.length} bundle images and ${catalogPushes.length} catalog images`;
    },
  );
  // Catalog content is hostile: a package name becomes a repository name only in the characters a
  // registry path allows, a bundle name a tag only in a tag's.
  const bundleRef = (pkg: string, bundle: string) => {
    const repo =
      pkg
        .toLowerCase()
        .replace(/[^a-z0-9._-]+/g, '-')
        .replace(/^[._-]+/, '') || 'package';
    const tag =
      bundle
        .replace(/[^\w.-]+/g, '-')
        .replace(/^[.-]+/, '')
        .slice(0, 128) || 'bundle';
    return `${host}/bundles/${repo}:${tag}`;
  };
  return { host, pushBundles, pushCatalog, bundleRef };
}

/**
 * Watches the registry for an empty restart and pushes every image again. The registry keeps
 * images in memory, so after a crash `run` starts it empty; the catalogs and catalogd's status
 * name images by digest, and those must answer again. The pushes build each image from files that
 * stay in the data folder, without times (cluster/registry), so they give the same digests.
 * `probeRef` names the image pushed last: while it answers, the registry is whole.
 */
function restoreRegistry(
  port: number,
  ca: string,
  probeRef: () => string | undefined,
  pushAll: () => Promise<string>,
): void {
  const probe = (ref: string) =>
    new Promise<'whole' | 'empty' | 'down'>((res) => {
      const [repo, tag] = [ref.slice(ref.indexOf('/') + 1, ref.lastIndexOf(':')), ref.split(':').pop()];
      const req = httpsRequest(
        { host: '127.0.0.1', port, path: `/v2/${repo}/manifests/${tag}`, method: 'HEAD', ca, timeout: 5000 },
        (r) => {
          r.resume();
          res(r.statusCode === 404 ? 'empty' : 'whole');
        },
      );
      req.on('timeout', () => req.destroy());
      req.on('error', () => res('down'));
      req.end();
    });
  let busy = false;
  // Every 2 s: a HEAD on loopback, cheap beside a crash going unnoticed until an install fails.
  setInterval(() => {
    const ref = probeRef();
    if (busy || !ref) return;
    busy = true;
    void probe(ref)
      .then(async (state) => {
        if (state !== 'empty') return;
        console.error('olm-v1-registry: started empty after a restart; pushing its images again');
        console.error(`olm-v1-registry: pushed ${await pushAll()} again`);
      })
      .catch((err: unknown) => console.error(`olm-v1-registry: pushing again failed, retrying: ${String(err)}`))
      .finally(() => (busy = false));
  }, 2000).unref();
}
