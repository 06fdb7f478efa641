// Where a request goes, as kube-apiserver's RequestInfo reads it: group, version, resource,
// namespace, name and subresource from the path, and the verb from the method.

export interface ResourcePath {
  group: string;
  version: string;
  resource: string;
  namespace?: string;
  name?: string;
  subresource?: string;
}

/** The resource a path names, or undefined for a non-resource path (discovery, /version…). */
export function parseResourcePath(path: string): ResourcePath | undefined {
  const segs = path.split('/').filter(Boolean).map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (segs[0] === 'api' && segs.length >= 3) {
    group = '';
    version = segs[1]!;
    rest = segs.slice(2);
  } else if (segs[0] === 'apis' && segs.length >= 4) {
    group = segs[1]!;
    version = segs[2]!;
    rest = segs.slice(3);
  } else return undefined;
  if (
    rest[0] === 'namespaces' &&
    rest.length >= 3 &&
    !(rest.length === 3 && (rest[2] === 'status' || rest[2] === 'finalize') && group === '')
  ) {
    return { group, version, namespace: rest[1], resource: rest[2]!, name: rest[3], subresource: rest[4] };
  }
  return { group, version, resource: rest[0]!, name: rest[1], subresource: rest[2] };
}

/** The RBAC verb of a request on a resource path, or undefined for a method it has none for. */
export function requestVerb(method: string, rp: ResourcePath, isWatch: boolean): string | undefined {
  if (method === 'GET') return rp.name ? 'get' : isWatch ? 'watch' : 'list';
  if (method === 'POST') return 'create';
  if (method === 'PUT') return 'update';
  if (method === 'PATCH') return 'patch';
  if (method === 'DELETE') return rp.name ? 'delete' : 'deletecollection';
  return undefined;
}
