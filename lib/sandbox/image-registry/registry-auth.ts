// The sandbox registry's token authentication, as the distribution project's token specification
// describes it, on the one repository that is protected (the others are public, as on a public
// registry that needs no token). A pull of a protected repository without a valid token is 401
// with `WWW-Authenticate: Bearer realm="<token endpoint>",service="…",scope="repository:<repo>:pull"`;
// the token endpoint takes the client's Basic credentials (the pull secret's `auth`) and answers
// `{token, access_token, expires_in, issued_at}` for the scopes it grants; the token is then sent
// as `Authorization: Bearer`. Credentials that are wrong or missing are 401 at the token endpoint,
// so a client without the secret is refused, as a private registry refuses it.
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const REGISTRY_SERVICE = 'olm-console-sandbox-registry';

/** How long a token lives: short, as registries give them (Docker Hub's live five minutes). */
const TOKEN_SECONDS = 300;

export interface RegistryCredentials {
  username: string;
  password: string;
}

interface Grant {
  repository: string;
  expires: number;
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export class RegistryAuth {
  private readonly tokens = new Map<string, Grant>();

  constructor(
    /** The repository that needs credentials. */
    readonly protectedRepository: string,
    readonly credentials: RegistryCredentials,
    private readonly now: () => number = Date.now,
  ) {}

  needsToken(repository: string): boolean {
    return repository === this.protectedRepository;
  }

  /** The challenge for a pull of `repository`, given the registry's origin (https://host:port). */
  challenge(origin: string, repository: string): string {
    return `Bearer realm="${origin}/token",service="${REGISTRY_SERVICE}",scope="repository:${repository}:pull"`;
  }

  /** Whether `authorization` holds a live token for pulling `repository`. */
  allows(authorization: string | undefined, repository: string): boolean {
    const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    if (!m) return false;
    const grant = this.tokens.get(m[1]!);
    if (!grant) return false;
    if (grant.expires <= this.now()) {
      this.tokens.delete(m[1]!);
      return false;
    }
    return grant.repository === repository;
  }

  /**
   * Whether a pull of `repository` with these Basic credentials (a pull secret's `auth`) gets a
   * token: always for a public repository, only with the right credentials for the protected one.
   */
  pullAllowed(repository: string, basicAuthorization: string | undefined): boolean {
    return !this.needsToken(repository) || this.basicOk(basicAuthorization);
  }

  private basicOk(authorization: string | undefined): boolean {
    const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization ?? '');
    if (!m) return false;
    const text = Buffer.from(m[1]!, 'base64').toString('utf8');
    const colon = text.indexOf(':');
    if (colon < 0) return false;
    return (
      sameText(text.slice(0, colon), this.credentials.username) &&
      sameText(text.slice(colon + 1), this.credentials.password)
    );
  }

  /**
   * The token endpoint's answer to `GET /token?service=…&scope=…` with these headers: a token for
   * the pull scopes asked for. Public repositories are granted to anyone (as registries give
   * anonymous tokens for public content); the protected one only with its credentials.
   */
  token(authorization: string | undefined, params: URLSearchParams): { status: number; body: Record<string, unknown> } {
    const service = params.get('service');
    if (service && service !== REGISTRY_SERVICE)
      return { status: 400, body: unauthorized(`this token service is ${REGISTRY_SERVICE}, not ${service}`) };
    const repositories: string[] = [];
    for (const scope of params.getAll('scope')) {
      const m = /^repository:([^:]+):([a-z,*]+)$/.exec(scope);
      if (!m)
        return { status: 400, body: unauthorized(`scope ${JSON.stringify(scope)} is not repository:NAME:ACTIONS`) };
      if (!m[2]!.split(',').every((a) => a === 'pull'))
        return { status: 401, body: unauthorized('this registry grants pulls only') };
      repositories.push(m[1]!);
    }
    const needsCredentials = repositories.some((r) => this.needsToken(r));
    if (needsCredentials && !this.basicOk(authorization))
      return {
        status: 401,
        body: unauthorized(
          authorization
            ? 'the credentials are not valid for this registry'
            : `repository ${this.protectedRepository} needs credentials (the sandbox's pull secret)`,
        ),
      };
    // One token per protected repository asked for; a token for public repositories only is never
    // needed, but given, as registries give one.
    const token = randomBytes(24).toString('base64url');
    const issued = this.now();
    const grant = repositories.find((r) => this.needsToken(r));
    if (grant) this.tokens.set(token, { repository: grant, expires: issued + TOKEN_SECONDS * 1000 });
    this.forgetExpired();
    return {
      status: 200,
      body: {
        token,
        access_token: token,
        expires_in: TOKEN_SECONDS,
        issued_at: new Date(issued).toISOString(),
      },
    };
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [t, g] of this.tokens) if (g.expires <= now) this.tokens.delete(t);
  }
}

export function unauthorized(message: string): Record<string, unknown> {
  return { errors: [{ code: 'UNAUTHORIZED', message, detail: null }] };
}

/** New credentials for the sandbox's protected repository. */
export function newCredentials(): RegistryCredentials {
  return { username: 'olm-console-demo', password: randomBytes(18).toString('base64url') };
}
