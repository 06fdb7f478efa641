// Which content addresses the console reads ClusterCatalog content from. `status.urls.base` is
// whatever whoever may write `clustercatalogs/status` put there, and the console's server would GET
// it: so a base is read only where the console was told catalogd serves, and only as catalogd names
// a catalog's content there (`<address>/catalogs/<name>`, docs/olm-v1/real-cluster.md). The console
// is told by OLM_CONSOLE_CATALOGD_URL (default: the Service address operator-controller's release
// gives catalogd) and by the kubeconfig's cluster (lib/k8s/cluster-config.ts: the sandbox and
// `npm run cluster` name their catalogd there, on a loopback port).
import type { KubeConfig } from '@kubernetes/client-node';
import { catalogdAddressOf } from '../../k8s/cluster-config';

/** catalogd's `--external-address` in operator-controller's release manifests, over HTTPS. */
export const RELEASE_CATALOGD_URL = 'https://catalogd-service.olmv1-system.svc';

export type BaseVerdict = { ok: true } | { ok: false; why: string };

/** An address as compared: scheme, host and port as the URL parser writes them, and a path without a final slash. */
function normalized(text: string): string | undefined {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'https:' || u.username || u.password || u.search || u.hash) return undefined;
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

/** The catalogd addresses the console was told of, for requests made with this KubeConfig. */
export function catalogdAddresses(
  kc: KubeConfig,
  env: Record<string, string | undefined> = process.env,
): { addresses: string[]; problems: string[] } {
  const configured = (env.OLM_CONSOLE_CATALOGD_URL ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const given = [...(configured.length ? configured : [RELEASE_CATALOGD_URL])];
  const fromKubeconfig = catalogdAddressOf(kc);
  if (fromKubeconfig) given.push(fromKubeconfig);
  const addresses: string[] = [];
  const problems: string[] = [];
  for (const g of given) {
    const n = normalized(g);
    if (n) addresses.push(n);
    else problems.push(`catalogd's address "${g}" is not an https URL without credentials, query or fragment`);
  }
  return { addresses, problems };
}

/** Whether the console reads `base` as ClusterCatalog `name`'s content, or why not. */
export function contentBaseVerdict(
  name: string,
  base: string,
  told: ReturnType<typeof catalogdAddresses>,
): BaseVerdict {
  const n = normalized(base);
  if (n && told.addresses.some((a) => n === `${a}/catalogs/${name}`)) return { ok: true };
  const expected = told.addresses.map((a) => `${a}/catalogs/${name}`);
  const where = expected.length ? `only ${expected.join(' or ')} is read` : 'no address is read';
  const problems = told.problems.map((p) => `; ${p}`).join('');
  return {
    ok: false,
    why:
      `status.urls.base ${JSON.stringify(base)} is not where catalogd serves this catalog as the console ` +
      `was told (OLM_CONSOLE_CATALOGD_URL, or the kubeconfig's cluster): ${where}${problems}`,
  };
}
