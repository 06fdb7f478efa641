// A CRD version's OpenAPI v3 schema (`spec.versions[].schema.openAPIV3Schema`, the structural
// schema Kubernetes requires of apiextensions.k8s.io/v1 CRDs) and the CSV's spec descriptors,
// turned into the field model of the form: types, required, enums, defaults, bounds, patterns,
// nested objects, lists and maps, labelled and ordered by the descriptors. What the schema leaves
// open (x-kubernetes-preserve-unknown-fields, no properties) gets the fields its descriptors name,
// as consoles do for CRDs without a schema; what is left becomes a YAML-edited "raw" field.
import { descriptorIndex, IMAGE_PULL_POLICIES, type DescriptorInfo } from './descriptors';
import { REFERENCE_WIDGETS, type Field, type FormModel, type ReferenceWidget, type StringWidget } from './types';

function isReference(hint: string | undefined): hint is ReferenceWidget {
  return (REFERENCE_WIDGETS as readonly string[]).includes(hint ?? '');
}

type Schema = Record<string, unknown>;

const MAX_DEPTH = 24;

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** `storageClassDevices` → `Storage class devices`: a label for a field no descriptor names. */
export function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean);
  if (!words.length) return key;
  // Acronyms (TLS, URL) keep their capitals; other words after the first are lower case.
  return words
    .map((w, i) => (i === 0 ? w[0]!.toUpperCase() + w.slice(1) : /^[A-Z0-9]+$/.test(w) ? w : w.toLowerCase()))
    .join(' ');
}

interface Ctx {
  index: Map<string, DescriptorInfo>;
  used: Set<string>;
}

function join(parent: string, key: string): string {
  return parent ? `${parent}.${key}` : key;
}

function base(key: string, path: string, required: boolean, schema: Schema, ctx: Ctx) {
  const d = ctx.index.get(path);
  if (d) ctx.used.add(path);
  const description = d?.description ?? (typeof schema.description === 'string' ? schema.description : undefined);
  return {
    key,
    label: d?.displayName ?? humanize(key),
    ...(description ? { description } : {}),
    required,
    advanced: !!d?.advanced,
    described: !!d,
    ...(d?.dependsOn ? { dependsOn: { path: d.dependsOn.path.split('.'), value: d.dependsOn.value } } : {}),
  };
}

function order(fields: Field[], path: string, ctx: Ctx): Field[] {
  // A field's rank is its own descriptor's, else the first of those below it.
  const rank = (f: Field) => {
    const p = join(path, f.key);
    let best = Infinity;
    for (const [k, d] of ctx.index)
      if (k === p || k.startsWith(`${p}.`) || k.startsWith(`${p}[`)) best = Math.min(best, d.order);
    return best;
  };
  // Described fields first, in the CSV's order; then required ones; then the schema's order.
  return fields
    .map((f, i) => ({ f, i, r: rank(f) }))
    .sort((a, b) => (a.r === b.r ? 0 : a.r - b.r) || Number(b.f.required) - Number(a.f.required) || a.i - b.i)
    .map((x) => x.f);
}

/** The fields descriptors name below an open object at `path`, made from their x-descriptors. */
function fromDescriptors(path: string, ctx: Ctx, depth: number): Field[] {
  const prefix = path ? `${path}.` : '';
  const heads = new Map<string, boolean>();
  for (const [p, d] of ctx.index) {
    if (!p.startsWith(prefix) || d.hidden) continue;
    const rest = p.slice(prefix.length);
    // A list below an open object: its items' shape is unknown, so no field is made for it.
    const head = rest.split('.')[0]!;
    if (!head || head.includes('[')) continue;
    heads.set(head, heads.get(head) || rest !== head);
  }
  const fields: Field[] = [];
  for (const [head, nested] of heads) {
    const p = join(path, head);
    const d = ctx.index.get(p);
    const f =
      nested && d?.hint !== 'resources'
        ? build({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, head, p, false, ctx, depth + 1)
        : build(schemaForHint(d), head, p, false, ctx, depth + 1);
    // Without a widget nothing says what the value is (a number, a list…): a string would refuse
    // the operator's own example.
    if (f) fields.push(f.type === 'string' && !d?.hint ? { ...f, untyped: true } : f);
  }
  return order(fields, path, ctx);
}

function schemaForHint(d: DescriptorInfo | undefined): Schema {
  switch (d?.hint) {
    case 'number':
    case 'podCount':
      return { type: 'integer', ...(d.hint === 'podCount' ? { minimum: 0 } : {}) };
    case 'switch':
    case 'checkbox':
      return { type: 'boolean' };
    case 'resources':
      return { type: 'object' };
    case 'select':
      return { type: 'string', enum: d.options };
    case 'imagePullPolicy':
      return { type: 'string', enum: IMAGE_PULL_POLICIES };
    default:
      return { type: 'string' };
  }
}

function build(
  schema: Schema,
  key: string,
  path: string,
  required: boolean,
  ctx: Ctx,
  depth: number,
): Field | undefined {
  const d = ctx.index.get(path);
  if (d?.hidden) {
    ctx.used.add(path);
    return undefined;
  }
  const b = base(key, path, required, schema, ctx);
  if (depth > MAX_DEPTH) return { ...b, type: 'raw', reason: 'nested too deeply' };
  if (d?.hint === 'resources') return { ...b, type: 'object', fields: [], resources: true };
  const dflt = 'default' in schema ? { default: schema.default } : {};
  if (schema['x-kubernetes-int-or-string'] === true) {
    return {
      ...b,
      type: 'string',
      widget: 'text',
      intOrString: true,
      ...(typeof schema.pattern === 'string' ? { pattern: schema.pattern } : {}),
      ...dflt,
    };
  }
  const type = typeof schema.type === 'string' ? schema.type : isSchema(schema.properties) ? 'object' : undefined;
  switch (type) {
    case 'string': {
      const enumValues = Array.isArray(schema.enum)
        ? schema.enum.filter((v): v is string => typeof v === 'string')
        : d?.hint === 'select' && d.options.length
          ? d.options
          : d?.hint === 'imagePullPolicy'
            ? IMAGE_PULL_POLICIES
            : undefined;
      const hint = d?.hint;
      const widget: StringWidget = enumValues
        ? 'select'
        : hint === 'password' || hint === 'namespace' || isReference(hint)
          ? hint
          : schema.format === 'password'
            ? 'password'
            : 'text';
      return {
        ...b,
        type: 'string',
        widget,
        ...(enumValues ? { enum: enumValues } : {}),
        ...dflt,
        ...(typeof schema.pattern === 'string' ? { pattern: schema.pattern } : {}),
        ...(num(schema.minLength) !== undefined ? { minLength: num(schema.minLength) } : {}),
        ...(num(schema.maxLength) !== undefined ? { maxLength: num(schema.maxLength) } : {}),
        ...(typeof schema.format === 'string' ? { format: schema.format } : {}),
      };
    }
    case 'integer':
    case 'number':
      return {
        ...b,
        type,
        ...dflt,
        ...(num(schema.minimum) !== undefined
          ? { minimum: num(schema.minimum) }
          : d?.hint === 'podCount'
            ? { minimum: 0 }
            : {}),
        ...(num(schema.maximum) !== undefined ? { maximum: num(schema.maximum) } : {}),
        ...(schema.exclusiveMinimum === true ? { exclusiveMinimum: true } : {}),
        ...(schema.exclusiveMaximum === true ? { exclusiveMaximum: true } : {}),
      };
    case 'boolean':
      return { ...b, type: 'boolean', widget: d?.hint === 'checkbox' ? 'checkbox' : 'switch', ...dflt };
    case 'array': {
      if (!isSchema(schema.items)) return { ...b, type: 'raw', reason: 'a list whose items have no schema' };
      const items = build(schema.items, key, `${path}[*]`, false, ctx, depth + 1);
      if (!items) return undefined;
      return {
        ...b,
        type: 'array',
        items,
        ...(num(schema.minItems) !== undefined ? { minItems: num(schema.minItems) } : {}),
        ...(num(schema.maxItems) !== undefined ? { maxItems: num(schema.maxItems) } : {}),
      };
    }
    case 'object':
      return objectField(schema, b, path, ctx, depth);
    default:
      if (schema['x-kubernetes-preserve-unknown-fields'] === true) return objectField(schema, b, path, ctx, depth);
      return {
        ...b,
        type: 'raw',
        reason: Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf) ? 'anyOf/oneOf without a type' : 'no type',
      };
  }
}

function objectField(schema: Schema, b: ReturnType<typeof base>, path: string, ctx: Ctx, depth: number): Field {
  if (isSchema(schema.properties) && Object.keys(schema.properties).length) {
    const req = new Set(
      Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [],
    );
    const fields = Object.entries(schema.properties).flatMap(([k, s]) => {
      const f = isSchema(s) ? build(s, k, join(path, k), req.has(k), ctx, depth + 1) : undefined;
      return f ? [f] : [];
    });
    return { ...b, type: 'object', fields: order(fields, path, ctx) };
  }
  if (isSchema(schema.additionalProperties)) {
    const values = build(schema.additionalProperties, '', `${path}.*`, false, ctx, depth + 1);
    if (values && values.type !== 'raw') return { ...b, type: 'map', values };
  }
  const named = fromDescriptors(path, ctx, depth);
  if (named.length) return { ...b, type: 'object', fields: named };
  return { ...b, type: 'raw', reason: 'free-form object' };
}

/** The form of one CRD version: its root schema (may be absent or open) and the CSV's spec descriptors. */
export function buildFormModel(rootSchema: unknown, specDescriptors?: readonly unknown[]): FormModel {
  const ctx: Ctx = { index: descriptorIndex(specDescriptors), used: new Set() };
  const root = isSchema(rootSchema) ? rootSchema : {};
  const props = isSchema(root.properties) ? root.properties : undefined;
  const specSchema =
    props && isSchema(props.spec) ? props.spec : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const built = objectField(
    specSchema,
    { key: 'spec', label: 'Spec', required: false, advanced: false, described: false },
    '',
    ctx,
    0,
  );
  const unmatchedDescriptors = [...ctx.index.entries()]
    .filter(([p, d]) => !ctx.used.has(p) && !d.hidden)
    .map(([p]) => p);
  const specRequired = Array.isArray(root.required) && root.required.includes('spec');
  if (built.type === 'object') return { spec: built, specRequired, unmatchedDescriptors };
  // Nothing to make fields of: the spec is edited in YAML, and the form says why.
  return {
    spec: {
      key: 'spec',
      label: 'Spec',
      required: false,
      advanced: false,
      described: false,
      type: 'object',
      fields: [],
    },
    freeForm: built.type === 'raw' ? built.reason : 'not an object',
    specRequired,
    unmatchedDescriptors,
  };
}

/** Every field of the model, depth first, with its schema path (for counting and tests). */
export function* walkFields(fields: readonly Field[], path = ''): Generator<{ field: Field; path: string }> {
  for (const f of fields) {
    const p = f.key ? join(path, f.key) : path;
    yield { field: f, path: p };
    if (f.type === 'object') yield* walkFields(f.fields, p);
    if (f.type === 'array') yield* walkFields([{ ...f.items, key: '' }], `${p}[*]`);
    if (f.type === 'map') yield* walkFields([{ ...f.values, key: '' }], `${p}.*`);
  }
}
