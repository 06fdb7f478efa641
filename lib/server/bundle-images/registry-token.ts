// The registry token flow (the distribution project's token authentication): a registry that
// wants a token answers 401 with `WWW-Authenticate: Bearer realm="…",service="…",scope="…"`; the
// client asks the realm for a token for that service and scope and sends it as `Authorization:
// Bearer`. Public registries (quay.io, registry.redhat.io's public content, Docker Hub) want this
// even for anonymous pulls. With a pull secret's credentials the realm is asked with them: a user
// and password as `Authorization: Basic` on the GET, an identity token (a refresh token, as
// `docker login` stores it) by the OAuth2 refresh-token grant, a form POST, as containers/image
// does. The credentials go to the realm's host only; the realm is dialled with the same checks
// as the registry.
import type { PullSettings } from './pull-settings';
import type { RegistryCredential } from './docker-config';
import { RegistryError, registryGet } from './registry-http';

export interface BearerChallenge {
  realm: string;
  service?: string;
  scope?: string;
}

/** The parameters of a `Bearer` challenge, or undefined for any other scheme. */
export function parseBearerChallenge(header: string): BearerChallenge | undefined {
  const m = /^\s*Bearer\s+(.*)$/i.exec(header);
  if (!m) return undefined;
  const params: Record<string, string> = {};
  const re = /([A-Za-z_]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))\s*(?:,|$)/g;
  for (let p = re.exec(m[1]!); p; p = re.exec(m[1]!)) {
    params[p[1]!.toLowerCase()] = p[2] !== undefined ? p[2].replace(/\\(.)/g, '$1') : p[3]!;
    if (re.lastIndex >= m[1]!.length) break;
  }
  if (!params.realm) return undefined;
  return {
    realm: params.realm,
    ...(params.service ? { service: params.service } : {}),
    ...(params.scope ? { scope: params.scope } : {}),
  };
}

const MAX_TOKEN_ANSWER = 64 * 1024;

export const basicAuthorization = (c: RegistryCredential) =>
  `Basic ${Buffer.from(`${c.username ?? ''}:${c.password ?? ''}`).toString('base64')}`;

/**
 * A pull token for `repository` from the challenge's realm: anonymous without `auth`, else with
 * its credentials; `noAuthWhy` says, when a token is refused anonymously, why none were sent.
 */
export async function pullToken(
  challenge: BearerChallenge,
  repository: string,
  settings: PullSettings,
  auth: { credential: RegistryCredential; from: string } | undefined,
  noAuthWhy: string,
): Promise<string> {
  const url = new URL(challenge.realm);
  const scope = challenge.scope ?? `repository:${repository}:pull`;
  const what = `a pull token for ${repository} from ${url.host}`;
  const c = auth?.credential;
  let answer;
  if (c?.identityToken) {
    const form = new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: c.identityToken,
      client_id: 'olm-console',
      scope,
      ...(challenge.service ? { service: challenge.service } : {}),
    });
    answer = await registryGet(url.href, settings, { maxBytes: MAX_TOKEN_ANSWER, what, form: form.toString() });
  } else {
    if (challenge.service) url.searchParams.set('service', challenge.service);
    url.searchParams.set('scope', scope);
    answer = await registryGet(url.href, settings, {
      maxBytes: MAX_TOKEN_ANSWER,
      what,
      ...(c ? { authorization: basicAuthorization(c), authorizationHost: url.host.toLowerCase() } : {}),
    });
  }
  if (answer.status === 401 || answer.status === 403)
    throw new RegistryError(
      auth
        ? `${url.host} refuses a pull token for ${repository} with the credentials of secret ${auth.from} ` +
            `(${answer.status})`
        : `${url.host} gives no anonymous pull token for ${repository} (${answer.status}): the image needs ` +
            `credentials, and ${noAuthWhy}`,
    );
  if (answer.status !== 200) throw new RegistryError(`${what}: the token service answered ${answer.status}`);
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    throw new RegistryError(`${what}: the token service's answer is not JSON`);
  }
  const b = body as { token?: unknown; access_token?: unknown };
  const token = typeof b.token === 'string' && b.token ? b.token : b.access_token;
  if (typeof token !== 'string' || !token || /[\s\0-\x1f]/.test(token))
    throw new RegistryError(`${what}: the token service's answer holds no token`);
  return token;
}
