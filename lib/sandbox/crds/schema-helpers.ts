// Small builders for the OLM CRDs' OpenAPI v3 schemas (olm-schemas*.ts), so each kind reads as a
// list of its fields. The shapes they build are those controller-gen writes for the Go types of
// operator-framework/api; descriptions are the project's own, kept short.
import type { Schema } from '../apimachinery/structural';

type Extra = Partial<Schema>;
const withDescription = (s: Schema, description?: string): Schema => (description ? { ...s, description } : s);

export const str = (description?: string, extra: Extra = {}): Schema =>
  withDescription({ type: 'string', ...extra }, description);
export const bool = (description?: string): Schema => withDescription({ type: 'boolean' }, description);
export const int = (description?: string, extra: Extra = {}): Schema =>
  withDescription({ type: 'integer', ...extra }, description);
export const int32 = (description?: string, extra: Extra = {}): Schema =>
  int(description, { format: 'int32', ...extra });
export const int64 = (description?: string, extra: Extra = {}): Schema =>
  int(description, { format: 'int64', ...extra });
export const time = (description?: string): Schema => str(description, { format: 'date-time' });

/** An object with exactly these fields (anything else is pruned). */
export function obj(
  properties: Record<string, Schema>,
  opts: { required?: string[]; description?: string; default?: unknown; atomic?: boolean } = {},
): Schema {
  return withDescription(
    {
      type: 'object',
      properties,
      ...(opts.required ? { required: opts.required } : {}),
      ...(opts.default !== undefined ? { default: opts.default } : {}),
      ...(opts.atomic ? { 'x-kubernetes-map-type': 'atomic' as const } : {}),
    },
    opts.description,
  );
}

export function arr(
  items: Schema,
  opts: { description?: string; listType?: 'atomic' | 'set' | 'map'; mapKeys?: string[] } = {},
): Schema {
  return withDescription(
    {
      type: 'array',
      items,
      ...(opts.listType ? { 'x-kubernetes-list-type': opts.listType } : {}),
      ...(opts.mapKeys ? { 'x-kubernetes-list-map-keys': opts.mapKeys } : {}),
    },
    opts.description,
  );
}

export const stringList = (description?: string): Schema => arr(str(), { description });
export const stringMap = (description?: string): Schema =>
  withDescription({ type: 'object', additionalProperties: { type: 'string' } }, description);

/**
 * A Kubernetes type OLM embeds (a Deployment spec, an affinity, a volume source): its fields are
 * kept as written rather than spelt out here. The real CRD lists them, so a real server prunes
 * misspelt fields inside these and this one does not (docs/sandbox.md).
 */
export const kubeObject = (description?: string, extra: Extra = {}): Schema =>
  withDescription({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true, ...extra }, description);

/** A field that holds either an integer or a string (a quantity, a port). */
export const intOrString = (description?: string, extra: Extra = {}): Schema =>
  withDescription(
    { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }], ...extra },
    description,
  );

export const objectReference = (description?: string): Schema =>
  obj(
    {
      apiVersion: str(),
      fieldPath: str(),
      kind: str(),
      name: str(),
      namespace: str(),
      resourceVersion: str(),
      uid: str(),
    },
    { description, atomic: true },
  );

export const labelSelector = (description?: string): Schema =>
  obj(
    {
      matchExpressions: arr(
        obj(
          { key: str(), operator: str(), values: arr(str(), { listType: 'atomic' }) },
          { required: ['key', 'operator'] },
        ),
        { listType: 'atomic' },
      ),
      matchLabels: stringMap(),
    },
    { description, atomic: true },
  );

/** metav1.Condition, with the validation markers apimachinery puts on it. */
export function metaCondition(opts: { requireTransitionTime?: boolean } = {}): Schema {
  const required = ['lastTransitionTime', 'message', 'reason', 'status', 'type'].filter(
    (f) => f !== 'lastTransitionTime' || opts.requireTransitionTime !== false,
  );
  return obj(
    {
      lastTransitionTime: time(),
      message: str(undefined, { maxLength: 32768 }),
      observedGeneration: int64(undefined, { minimum: 0 }),
      reason: str(undefined, { maxLength: 1024, minLength: 1, pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$' }),
      status: str(undefined, { enum: ['True', 'False', 'Unknown'] }),
      type: str(undefined, {
        maxLength: 316,
        pattern:
          '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
      }),
    },
    { required },
  );
}

/** The root of a kind's schema: apiVersion, kind, metadata, then its own fields. */
export function root(description: string, fields: { spec?: Schema; status?: Schema }, required: string[]): Schema {
  return obj(
    {
      apiVersion: str('The versioned schema of this representation of an object.'),
      kind: str('The REST resource this object represents.'),
      metadata: { type: 'object' },
      ...(fields.spec ? { spec: fields.spec } : {}),
      ...(fields.status ? { status: fields.status } : {}),
    },
    { required: required.length ? required : undefined, description },
  );
}

/** A pod's toleration, env var and volume mount: small enough to spell out, as OLM's config uses them. */
export const toleration = obj({ effect: str(), key: str(), operator: str(), tolerationSeconds: int64(), value: str() });
export const envVar = obj({ name: str(), value: str(), valueFrom: kubeObject() }, { required: ['name'] });
export const volumeMount = obj(
  {
    mountPath: str(),
    mountPropagation: str(),
    name: str(),
    readOnly: bool(),
    recursiveReadOnly: str(),
    subPath: str(),
    subPathExpr: str(),
  },
  { required: ['mountPath', 'name'] },
);
export const volume = kubeObject(undefined, { properties: { name: str() }, required: ['name'] });
const quantity = intOrString(undefined, {
  pattern:
    '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$',
});
export const resources = obj({
  claims: arr(obj({ name: str(), request: str() }, { required: ['name'] }), { listType: 'map', mapKeys: ['name'] }),
  limits: { type: 'object', additionalProperties: quantity },
  requests: { type: 'object', additionalProperties: quantity },
});
export { quantity };
