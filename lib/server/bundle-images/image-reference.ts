// An image reference as a catalog names a bundle (`quay.io/org/bundle@sha256:…`,
// `registry:5000/repo:tag`, `name` on Docker Hub) split into where to ask and what for, by the
// grammar of the distribution project's reference package: the first path component is a
// registry when it has a dot or a port or is `localhost`; otherwise Docker Hub, with `library/`
// for a single name. Only sha256 digests are taken: they are what catalogs write, and the reader
// checks every manifest and blob against one (digest.ts).
export interface ImageReference {
  /** host[:port] as written; Docker Hub is `docker.io`. */
  registry: string;
  repository: string;
  tag?: string;
  digest?: string;
}

const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;
const LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?';
const HOST = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*|\\[[0-9a-fA-F:.]+\\])(?::\\d{1,5})?$`);

export const DOCKER_HUB = 'docker.io';

/** The reference, or why it is not one. */
export function parseImageReference(ref: string): ImageReference | { error: string } {
  const bad = (why: string) => ({ error: `image ${JSON.stringify(ref.slice(0, 300))} ${why}` });
  if (ref.length > 1024) return bad('is longer than 1024 characters');
  let rest = ref;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) return bad('has a digest that is not sha256:<64 hex digits>');
  }
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > lastSlash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) return bad('has an invalid tag');
  }
  const parts = rest.split('/');
  let registry = DOCKER_HUB;
  if (parts.length > 1 && (/[.:]/.test(parts[0]!) || parts[0] === 'localhost')) registry = parts.shift()!;
  if (!HOST.test(registry)) return bad('names an invalid registry host');
  if (registry === DOCKER_HUB && parts.length === 1) parts.unshift('library');
  if (!parts.length || parts.some((p) => !COMPONENT.test(p))) return bad('has an invalid repository name');
  const repository = parts.join('/');
  if (repository.length > 255) return bad('has a repository name longer than 255 characters');
  if (!tag && !digest) tag = 'latest';
  return { registry, repository, ...(tag ? { tag } : {}), ...(digest ? { digest } : {}) };
}

/** The host the distribution API is served on: Docker Hub's differs from its name. */
export const apiHost = (registry: string) => (registry === DOCKER_HUB ? 'registry-1.docker.io' : registry);

export const referenceText = (r: ImageReference) =>
  `${r.registry}/${r.repository}${r.tag ? `:${r.tag}` : ''}${r.digest ? `@${r.digest}` : ''}`;
