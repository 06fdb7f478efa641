// The sandbox's OpenAPI v3 (`/openapi/v3`, one document per group-version): every resource's
// paths with the operations and the `fieldValidation` parameter, which is what kubectl reads to
// decide that the server validates fields itself (so `kubectl apply` needs no client-side
// schema), each CRD's schema as kube-apiserver publishes it, and the built-in kinds' schemas
// kube-apiserver 1.34 publishes (`proto/k8s.io/openapi-schemas.json`), which `kubectl explain` reads.
import builtinFile from '../../../proto/k8s.io/openapi-schemas.json';
import type { Schema } from '../apimachinery/structural';
import type { ResourceTable, ServedResource } from './resources';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const REF = '#/components/schemas/';

/** kube-apiserver 1.34's own schemas for the built-in kinds (see scripts/k8s-proto.ts). */
const BUILTIN = (builtinFile as { schemas: Record<string, unknown> }).schemas;

/** group/version/kind → the name of its published schema. */
const BUILTIN_BY_GVK = new Map<string, string>();
for (const [name, schema] of Object.entries(BUILTIN))
  for (const gvk of ((schema as Record<string, unknown>)['x-kubernetes-group-version-kind'] ?? []) as {
    group: string;
    version: string;
    kind: string;
  }[])
    if (!BUILTIN_BY_GVK.has(`${gvk.group}/${gvk.version}/${gvk.kind}`))
      BUILTIN_BY_GVK.set(`${gvk.group}/${gvk.version}/${gvk.kind}`, name);

/** A published schema and every schema it refers to, as one document carries them. */
function withReferences(name: string, into: Record<string, unknown>): void {
  if (into[name] || !BUILTIN[name]) return;
  into[name] = BUILTIN[name];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string' && x.startsWith(REF)) withReferences(x.slice(REF.length), into);
      else walk(x);
    }
  };
  walk(BUILTIN[name]);
}

export function openApiRoot(resources: ResourceTable) {
  const paths: Record<string, { serverRelativeURL: string }> = {
    'api/v1': { serverRelativeURL: '/openapi/v3/api/v1?hash=sandbox' },
  };
  for (const g of resources.groups())
    for (const v of g.versions)
      paths[`apis/${g.name}/${v}`] = { serverRelativeURL: `/openapi/v3/apis/${g.name}/${v}?hash=sandbox` };
  return { paths };
}

/**
 * A CRD's schema as kube-apiserver publishes it: named by reversed group, version and kind,
 * tagged with its GVK (how `kubectl explain` finds it), metadata a reference to ObjectMeta.
 */
function published(r: ServedResource, group: string, version: string, schema: Schema) {
  const metadata = {
    allOf: [{ $ref: `#/components/schemas/${OBJECT_META}` }],
    default: {},
    description: 'Standard object metadata.',
  };
  return {
    ...schema,
    properties: { ...schema.properties, metadata },
    'x-kubernetes-group-version-kind': [{ group, kind: r.kind, version }],
  };
}

export function openApiGroupVersion(resources: ResourceTable, gvPath: string, gitVersion: string) {
  const segs = gvPath.split('/');
  const [group, version] = segs[0] === 'api' ? ['', segs[1] ?? ''] : [segs[1] ?? '', segs[2] ?? ''];
  const list = resources.byGroup(group).filter((r) => r.versions.includes(version));
  if (list.length === 0) return undefined;
  const params = ['fieldValidation', 'fieldManager', 'dryRun', 'pretty'].map((name) => ({
    name,
    in: 'query',
    schema: { type: 'string', uniqueItems: true },
  }));
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const r of list) {
    const gvk = { 'x-kubernetes-group-version-kind': { group, version, kind: r.kind } };
    const base = `/${group ? `apis/${group}` : 'api'}/${version}${r.namespaced ? '/namespaces/{namespace}' : ''}/${r.resource}`;
    const schema = r.schemas?.[version];
    const builtinName = r.crd ? undefined : BUILTIN_BY_GVK.get(`${group}/${version}/${r.kind}`);
    const schemaName = builtinName ?? `${group.split('.').reverse().join('.')}.${version}.${r.kind}`;
    if (schema) {
      schemas[schemaName] = published(r, group, version, schema);
      withReferences(OBJECT_META, schemas);
    } else if (builtinName) withReferences(builtinName, schemas);
    const content =
      schema || builtinName
        ? { content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName}` } } } }
        : {};
    const op = (action: string) => ({
      ...gvk,
      'x-kubernetes-action': action,
      parameters: params,
      responses: {
        '200': { description: 'OK', ...(action === 'list' || action === 'deletecollection' ? {} : content) },
      },
    });
    paths[base] = r.createOnly
      ? { post: op('post') }
      : { get: op('list'), post: op('post'), delete: op('deletecollection') };
    if (!r.createOnly)
      paths[`${base}/{name}`] = { get: op('get'), put: op('put'), patch: op('patch'), delete: op('delete') };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: gitVersion }, paths, components: { schemas } };
}
