// The sandbox's OpenAPI v3 (`/openapi/v3`, one document per group-version): every resource's
// paths with the operations and the `fieldValidation` parameter, which is what kubectl reads to
// decide that the server validates fields itself (so `kubectl apply` needs no client-side
// schema), and each CRD's schema as kube-apiserver publishes it, which `kubectl explain` reads.
// Built-in kinds have paths but no schema here.
import type { Schema } from '../apimachinery/structural';
import type { ResourceTable, ServedResource } from './resources';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** The ObjectMeta fields a person sets or reads, for `kubectl explain <kind>.metadata`. */
const objectMeta: Schema = {
  type: 'object',
  description: 'Standard object metadata.',
  properties: Object.fromEntries([
    ...['name', 'namespace', 'generateName', 'uid', 'resourceVersion'].map((f) => [f, { type: 'string' }]),
    ['generation', { type: 'integer', format: 'int64' }],
    ['creationTimestamp', { type: 'string', format: 'date-time' }],
    ['deletionTimestamp', { type: 'string', format: 'date-time' }],
    ['labels', { type: 'object', additionalProperties: { type: 'string' } }],
    ['annotations', { type: 'object', additionalProperties: { type: 'string' } }],
    ['finalizers', { type: 'array', items: { type: 'string' } }],
    [
      'ownerReferences',
      {
        type: 'array',
        items: {
          type: 'object',
          required: ['apiVersion', 'kind', 'name', 'uid'],
          properties: Object.fromEntries(
            ['apiVersion', 'kind', 'name', 'uid']
              .map((f) => [f, { type: 'string' }])
              .concat([
                ['controller', { type: 'boolean' }],
                ['blockOwnerDeletion', { type: 'boolean' }],
              ]),
          ),
        },
      },
    ],
  ]) as Record<string, Schema>,
};

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
    const schemaName = `${group.split('.').reverse().join('.')}.${version}.${r.kind}`;
    if (schema) {
      schemas[schemaName] = published(r, group, version, schema);
      schemas[OBJECT_META] = objectMeta;
    }
    const content = schema
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
