// Image references as OLM v1 pulls them (containers/image docker/reference): only the canonical,
// fully qualified form is accepted (`quay.io/org/catalog:tag`, not `org/catalog:tag`, which
// Docker would expand to docker.io/...), and a tag reference resolves to `<repository>@<digest>`
// with the tag dropped (internal/shared/util/image/pull.go). docs/olm-v1/catalogs.md#images.

export interface ImageRef {
  repository: string;
  tag?: string;
  digest?: string;
}

/** The parts of a reference, or why containers/image's ParseNamed refuses it. */
export function parseImageRef(ref: string): ImageRef | { error: string } {
  const at = ref.indexOf('@');
  const named = at >= 0 ? ref.slice(0, at) : ref;
  const digest = at >= 0 ? ref.slice(at + 1) : undefined;
  const slash = named.lastIndexOf('/');
  const colon = named.lastIndexOf(':');
  const tag = colon > slash ? named.slice(colon + 1) : undefined;
  const repository = colon > slash ? named.slice(0, colon) : named;
  if (!repository || repository !== repository.toLowerCase())
    return { error: 'invalid reference format: repository name must be lowercase' };
  const first = repository.split('/')[0]!;
  const hasDomain = repository.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  // docker.io/x means docker.io/library/x to Docker, so it is not canonical either.
  const dockerShort = first === 'docker.io' && repository.split('/').length === 2;
  if (!hasDomain || dockerShort) return { error: 'repository name must be canonical' };
  return { repository, ...(tag !== undefined ? { tag } : {}), ...(digest !== undefined ? { digest } : {}) };
}
