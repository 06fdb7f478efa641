// The distribution API of one repository (`/v2/<repository>/manifests/<ref>`, `/blobs/<digest>`),
// asked as the console's own network identity with no credentials: on a 401 it follows the
// registry's Bearer challenge for an anonymous token once (registry-token.ts) and asks again.
import { apiHost, type ImageReference } from './image-reference';
import type { PullSettings } from './pull-settings';
import { RegistryError, registryGet, type RegistryAnswer } from './registry-http';
import { anonymousToken, parseBearerChallenge } from './registry-token';

export class RepositoryClient {
  private token?: string;
  private readonly host: string;

  constructor(
    private readonly ref: ImageReference,
    private readonly settings: PullSettings,
  ) {
    this.host = apiHost(ref.registry).toLowerCase();
  }

  /** GET `/v2/<repository>/<path>`; a 200 answer, or a RegistryError naming `what`. */
  async get(path: string, what: string, maxBytes: number, accept?: string): Promise<RegistryAnswer> {
    const url = `https://${this.host}/v2/${this.ref.repository}/${path}`;
    const ask = () =>
      registryGet(url, this.settings, {
        what,
        maxBytes,
        ...(accept ? { accept } : {}),
        ...(this.token ? { authorization: `Bearer ${this.token}`, authorizationHost: this.host } : {}),
      });
    let answer = await ask();
    if (answer.status === 401 && !this.token) {
      const header = answer.headers['www-authenticate'];
      const challenge = parseBearerChallenge(Array.isArray(header) ? (header[0] ?? '') : (header ?? ''));
      if (!challenge)
        throw new RegistryError(
          `${what}: ${this.host} asks for credentials (${String(header ?? 'no challenge').split(' ')[0]}), ` +
            'and this console does not read pull secrets',
        );
      this.token = await anonymousToken(challenge, this.ref.repository, this.settings);
      answer = await ask();
    }
    if (answer.status === 401 || answer.status === 403)
      throw new RegistryError(
        `${what}: ${this.host} refuses an anonymous pull (${answer.status}); the image needs credentials, ` +
          'and this console does not read pull secrets',
      );
    if (answer.status === 404) throw new RegistryError(`${what}: ${this.host} has no such manifest or blob (404)`);
    if (answer.status !== 200) throw new RegistryError(`${what}: ${this.host} answered ${answer.status}`);
    return answer;
  }
}
