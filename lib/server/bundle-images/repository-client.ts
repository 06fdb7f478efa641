// The distribution API of one repository (`/v2/<repository>/manifests/<ref>`, `/blobs/<digest>`),
// asked as the console's own network identity, with a pull secret's credentials when one applies
// (pull-secrets.ts) and none otherwise. On a 401 it answers the registry's challenge once: a
// Bearer challenge by a token from the realm (registry-token.ts), a Basic one by sending the
// credentials to the registry itself; then it asks again.
import type { RegistryCredential } from './docker-config';
import { apiHost, type ImageReference } from './image-reference';
import type { PullSettings } from './pull-settings';
import { RegistryError, registryGet, type RegistryAnswer } from './registry-http';
import { basicAuthorization, parseBearerChallenge, pullToken } from './registry-token';

/** Credentials for this repository, and the secret (`namespace/name`) they come from. */
export interface RepositoryAuth {
  credential: RegistryCredential;
  from: string;
}

export class RepositoryClient {
  private authorization?: string;
  private readonly host: string;

  constructor(
    private readonly ref: ImageReference,
    private readonly settings: PullSettings,
    private readonly auth?: RepositoryAuth,
    /** Why no credentials are sent, for a registry that wants some. */
    private readonly noAuthWhy = 'this console has no credentials for it',
  ) {
    this.host = apiHost(ref.registry).toLowerCase();
  }

  private async answerChallenge(header: string | string[] | undefined, what: string): Promise<void> {
    const text = Array.isArray(header) ? (header[0] ?? '') : (header ?? '');
    const challenge = parseBearerChallenge(text);
    if (challenge) {
      const token = await pullToken(challenge, this.ref.repository, this.settings, this.auth, this.noAuthWhy);
      this.authorization = `Bearer ${token}`;
      return;
    }
    const scheme = text.trim().split(/\s+/)[0] || 'no challenge';
    if (/^basic$/i.test(scheme) && this.auth?.credential.username !== undefined) {
      this.authorization = basicAuthorization(this.auth.credential);
      return;
    }
    throw new RegistryError(
      this.auth
        ? `${what}: ${this.host} asks for credentials (${scheme}) that secret ${this.auth.from} cannot give`
        : `${what}: ${this.host} asks for credentials (${scheme}), and ${this.noAuthWhy}`,
    );
  }

  /** GET `/v2/<repository>/<path>`; a 200 answer, or a RegistryError naming `what`. */
  async get(path: string, what: string, maxBytes: number, accept?: string): Promise<RegistryAnswer> {
    const url = `https://${this.host}/v2/${this.ref.repository}/${path}`;
    const ask = () =>
      registryGet(url, this.settings, {
        what,
        maxBytes,
        ...(accept ? { accept } : {}),
        ...(this.authorization ? { authorization: this.authorization, authorizationHost: this.host } : {}),
      });
    let answer = await ask();
    if (answer.status === 401 && !this.authorization) {
      await this.answerChallenge(answer.headers['www-authenticate'], what);
      answer = await ask();
    }
    if (answer.status === 401 || answer.status === 403)
      throw new RegistryError(
        this.auth
          ? `${what}: ${this.host} refuses the pull with the credentials of secret ${this.auth.from} (${answer.status})`
          : `${what}: ${this.host} refuses an anonymous pull (${answer.status}); the image needs credentials, ` +
              `and ${this.noAuthWhy}`,
      );
    if (answer.status === 404) throw new RegistryError(`${what}: ${this.host} has no such manifest or blob (404)`);
    if (answer.status !== 200) throw new RegistryError(`${what}: ${this.host} answered ${answer.status}`);
    return answer;
  }
}
