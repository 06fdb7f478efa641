// The registry credentials a pull secret holds, read as the kubelet reads an imagePullSecret:
// a `kubernetes.io/dockerconfigjson` Secret's `.dockerconfigjson` (`{"auths": {KEY: ENTRY}}`) or a
// `kubernetes.io/dockercfg` Secret's `.dockercfg` (`{KEY: ENTRY}`, the older form). KEY names a
// registry (`quay.io`, `https://index.docker.io/v1/`, `registry:5000/team`); ENTRY gives `auth`
// (base64 of `user:password`, which wins over the separate fields, as in the kubelet) or
// `username` and `password`, or an `identitytoken` (an OAuth2 refresh token for the registry's
// token service, as `docker login` stores it). A secret is someone else's input: a field of the
// wrong type, a malformed `auth`, or an entry with nothing usable refuses the whole secret with the
// reason, rather than pulling with half of it.

export interface RegistryCredential {
  /** Lower-case host[:port]; Docker Hub is `docker.io`. */
  host: string;
  /** Repository path the key was limited to (`team/app`), or '' for the whole registry. */
  path: string;
  username?: string;
  password?: string;
  identityToken?: string;
}

export const DOCKER_CONFIG_JSON = 'kubernetes.io/dockerconfigjson';
export const DOCKER_CFG = 'kubernetes.io/dockercfg';

/** The names Docker Hub's credentials are stored under; the API host is registry-1.docker.io. */
const DOCKER_HUB_KEYS = new Set(['index.docker.io', 'registry-1.docker.io', 'docker.io']);

/** `https://index.docker.io/v1/` → `docker.io`; `Quay.io/Team/` → host `quay.io`, path `Team`. */
function keyOf(key: string): { host: string; path: string } | undefined {
  const bare = key.trim().replace(/^https?:\/\//i, '');
  const [host = '', ...rest] = bare.split('/');
  if (!/^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/.test(host)) return undefined;
  const lower = host.toLowerCase();
  const path = rest.filter((p) => p !== '').join('/');
  if (DOCKER_HUB_KEYS.has(lower)) return { host: 'docker.io', path: path === 'v1' || path === 'v2' ? '' : path };
  return { host: lower, path };
}

function entryOf(key: string, v: unknown): Omit<RegistryCredential, 'host' | 'path'> | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return `the entry for ${key} is not an object`;
  const e = v as Record<string, unknown>;
  for (const f of ['auth', 'username', 'password', 'identitytoken', 'email'])
    if (e[f] !== undefined && typeof e[f] !== 'string') return `the entry for ${key} has a ${f} that is not a string`;
  const out: Omit<RegistryCredential, 'host' | 'path'> = {};
  if (typeof e.auth === 'string' && e.auth !== '') {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(e.auth)) return `the entry for ${key} has an auth that is not base64`;
    const text = Buffer.from(e.auth, 'base64').toString('utf8');
    const colon = text.indexOf(':');
    if (colon <= 0) return `the entry for ${key} has an auth that is not base64 of user:password`;
    out.username = text.slice(0, colon);
    out.password = text.slice(colon + 1);
  } else if (typeof e.username === 'string' && e.username !== '') {
    out.username = e.username;
    out.password = typeof e.password === 'string' ? e.password : '';
  }
  if (typeof e.identitytoken === 'string' && e.identitytoken !== '') out.identityToken = e.identitytoken;
  if (out.username === undefined && out.identityToken === undefined)
    return `the entry for ${key} has no auth, username or identitytoken`;
  for (const s of [out.username, out.password, out.identityToken])
    if (s !== undefined && /[\0-\x1f\x7f]/.test(s)) return `the entry for ${key} holds control characters`;
  return out;
}

/**
 * The credentials of a Secret's `type` and `data` (base64 values, as the API gives them), or why
 * they cannot be used.
 */
export function parseDockerConfig(
  type: string | undefined,
  data: Record<string, string> | undefined,
): RegistryCredential[] | { error: string } {
  const field = type === DOCKER_CONFIG_JSON ? '.dockerconfigjson' : type === DOCKER_CFG ? '.dockercfg' : undefined;
  if (!field) return { error: `it is of type ${type ?? '(none)'}, not ${DOCKER_CONFIG_JSON} or ${DOCKER_CFG}` };
  const raw = data?.[field];
  if (typeof raw !== 'string') return { error: `it has no ${field}` };
  let doc: unknown;
  try {
    doc = JSON.parse(Buffer.from(raw, 'base64').toString('utf8'));
  } catch {
    return { error: `its ${field} is not JSON` };
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return { error: `its ${field} is not an object` };
  let auths: unknown = doc;
  if (field === '.dockerconfigjson') {
    auths = (doc as { auths?: unknown }).auths;
    if (typeof auths !== 'object' || auths === null || Array.isArray(auths))
      return { error: `its ${field} has no auths object` };
  }
  const creds: RegistryCredential[] = [];
  for (const [key, v] of Object.entries(auths as Record<string, unknown>)) {
    const where = keyOf(key);
    if (!where) return { error: `its ${field} names ${JSON.stringify(key.slice(0, 200))}, which is not a registry` };
    const entry = entryOf(where.path ? `${where.host}/${where.path}` : where.host, v);
    if (typeof entry === 'string') return { error: `its ${field}: ${entry}` };
    creds.push({ ...where, ...entry });
  }
  return creds;
}

/**
 * The credential for `repository` on `registry` among `creds`: the key limited to the longest
 * path that is a prefix of the repository (at a `/`), else the registry's own. Undefined when none.
 */
export function credentialFor(
  registry: string,
  repository: string,
  creds: readonly RegistryCredential[],
): RegistryCredential | undefined {
  const host = registry.toLowerCase();
  const fits = creds.filter(
    (c) => c.host === host && (c.path === '' || repository === c.path || repository.startsWith(`${c.path}/`)),
  );
  return fits.sort((a, b) => b.path.length - a.path.length)[0];
}
