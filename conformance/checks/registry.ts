// The registry gRPC API (api.Registry) as the sandbox serves it and as `opm serve` serves the
// same FBC folder: every method, message by message. Lists are sorted the same way on both
// sides (the API does not promise an order); for the per-bundle methods a spread sample is
// asked, so a big catalog stays a matter of seconds.
import { RegistryClient, RegistryError } from '../../lib/catalog/registry-client';
import type { Check } from '../run-checks';
import type { Target } from '../target';

const SAMPLE = Number(process.env.CONFORMANCE_REGISTRY_SAMPLE ?? 40);

function spread<T>(items: T[], n = SAMPLE): T[] {
  if (items.length <= n) return items;
  const step = items.length / n;
  return Array.from({ length: n }, (_, i) => items[Math.floor(i * step)]!);
}

/** What a call answered: the message, or the gRPC error's code and text. */
async function answer<T>(p: Promise<T>): Promise<T | { error: { code: number; message: string } }> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof RegistryError)
      return { error: { code: err.code, message: err.message.replace(/^catalog registry at [^:]+:\d+: /, '') } };
    throw err;
  }
}

/** JSON carried as text (csvJson, objects, property values) compared as what it means, not by key order. */
function semantic(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(semantic);
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if ((k === 'csvJson' || k === 'value') && typeof x === 'string' && x.trim().startsWith('{')) out[k] = JSON.parse(x);
    else if (k === 'object' && Array.isArray(x)) out[k] = x.map((o) => (typeof o === 'string' ? JSON.parse(o) : o));
    else out[k] = semantic(x);
  }
  return out;
}

const byKey = <T>(items: T[], key: (t: T) => string) =>
  Object.fromEntries(items.map((i) => [key(i), i]).sort(([a], [b]) => String(a).localeCompare(String(b))));

interface Bundle {
  csvName: string;
  packageName: string;
  channelName: string;
  replaces?: string;
  providedApis?: { group: string; version: string; kind: string }[];
}

/** The bundles of a catalog as one side lists them (the sandbox's, used to choose what to ask both). */
async function bundlesOf(t: Target, catalog: string): Promise<Bundle[]> {
  const c = new RegistryClient(t.registries[catalog]!);
  try {
    return (await c.listBundles()) as unknown as Bundle[];
  } finally {
    c.close();
  }
}

export function registryChecks(catalogs: string[], plan: () => Target): Check[] {
  const checks: Check[] = [];
  for (const cat of catalogs) {
    const withClient = async <T>(t: Target, f: (c: RegistryClient) => Promise<T>): Promise<T> => {
      const address = t.registries[cat];
      if (!address) throw new Error(`${t.name} serves no registry for ${cat}`);
      const c = new RegistryClient(address, 120_000);
      try {
        return semantic(await f(c)) as T;
      } finally {
        c.close();
      }
    };
    let sample: Bundle[] | undefined;
    const chosen = async () => (sample ??= await bundlesOf(plan(), cat));
    checks.push(
      { id: `registry/${cat}/Health`, run: (t) => withClient(t, (c) => c.healthCheck()) },
      { id: `registry/${cat}/ListPackages`, run: (t) => withClient(t, async (c) => (await c.listPackages()).sort()) },
      {
        id: `registry/${cat}/GetPackage (every package)`,
        run: (t) =>
          withClient(t, async (c) => {
            const out: Record<string, unknown> = {};
            for (const name of (await c.listPackages()).sort()) out[name] = await answer(c.getPackage(name));
            out['(missing)'] = await answer(c.getPackage('no-such-package'));
            return out;
          }),
      },
      {
        id: `registry/${cat}/ListBundles`,
        run: (t) =>
          withClient(t, async (c) =>
            byKey(await c.listBundles(), (b) => `${b.packageName}/${b.channelName}/${b.csvName}`),
          ),
      },
      {
        id: `registry/${cat}/GetBundleForChannel (every channel)`,
        run: (t) =>
          withClient(t, async (c) => {
            const out: Record<string, unknown> = {};
            for (const name of (await c.listPackages()).sort()) {
              const pkg = await c.getPackage(name);
              for (const ch of pkg.channels ?? [])
                out[`${name}/${ch.name}`] = await answer(c.getBundleForChannel(name, ch.name));
            }
            return out;
          }),
      },
      {
        id: `registry/${cat}/GetBundle (sample)`,
        run: async (t) => {
          const bundles = spread(await chosen());
          return withClient(t, async (c) => {
            const out: Record<string, unknown> = {};
            for (const b of bundles)
              out[`${b.packageName}/${b.channelName}/${b.csvName}`] = await answer(
                c.getBundle(b.packageName, b.channelName, b.csvName),
              );
            out['(missing)'] = await answer(c.getBundle('no-such-package', 'stable', 'x.v1'));
            return out;
          });
        },
      },
      {
        id: `registry/${cat}/GetChannelEntriesThatReplace and GetBundleThatReplaces (sample)`,
        run: async (t) => {
          // opm answers GetBundleThatReplaces from a Go map: when several bundles of a channel
          // replace the same one its choice is random, so only names replaced once are asked.
          const all = await chosen();
          const count = new Map<string, number>();
          for (const b of all)
            if (b.replaces)
              count.set(
                `${b.packageName}/${b.channelName}/${b.replaces}`,
                (count.get(`${b.packageName}/${b.channelName}/${b.replaces}`) ?? 0) + 1,
              );
          const bundles = spread(
            all.filter(
              (b) =>
                b.replaces &&
                count.get(`${b.packageName}/${b.channelName}/${b.replaces}`) === 1 &&
                !all.some(
                  (o) =>
                    o.packageName === b.packageName &&
                    o.channelName === b.channelName &&
                    o.csvName !== b.csvName &&
                    (o as { skips?: string[] }).skips?.includes(b.replaces!),
                ),
            ),
          );
          return withClient(t, async (c) => {
            const out: Record<string, unknown> = {};
            for (const b of bundles) {
              const entries = await answer(c.getChannelEntriesThatReplace(b.replaces!));
              out[`entries replacing ${b.replaces}`] = Array.isArray(entries)
                ? [...entries].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)))
                : entries;
              out[`${b.packageName}/${b.channelName}: bundle replacing ${b.replaces}`] = await answer(
                c.getBundleThatReplaces(b.replaces!, b.packageName, b.channelName),
              );
            }
            return out;
          });
        },
      },
      {
        id: `registry/${cat}/GVK providers (sample)`,
        run: async (t) => {
          const gvks = new Map<string, { group: string; version: string; kind: string }>();
          for (const b of await chosen())
            for (const g of b.providedApis ?? [])
              gvks.set(`${g.group}/${g.version}/${g.kind}`, { group: g.group, version: g.version, kind: g.kind });
          return withClient(t, async (c) => {
            const out: Record<string, unknown> = {};
            const sort = (x: unknown) =>
              Array.isArray(x) ? [...x].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))) : x;
            for (const [key, gvk] of spread(
              [...gvks.entries()].sort(([a], [b]) => a.localeCompare(b)),
              15,
            )) {
              out[`${key} entries`] = sort(await answer(c.getChannelEntriesThatProvide(gvk)));
              out[`${key} latest`] = sort(await answer(c.getLatestChannelEntriesThatProvide(gvk)));
              out[`${key} default`] = await answer(c.getDefaultBundleThatProvides(gvk));
            }
            return out;
          });
        },
      },
    );
  }
  return checks;
}
