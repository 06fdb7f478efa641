// Kubernetes' protobuf encoding of built-in kinds, which kubectl's typed clients send (`kubectl
// create deployment|role|…`, `auth reconcile`) and ask for: the "k8s\0" magic, then a
// runtime.Unknown envelope holding the type (apiVersion, kind) and the object's message.
//
// The messages are Kubernetes' own generated .proto files (`proto/k8s.io/`, read by protobufjs),
// so no field is encoded by hand. What .proto files cannot say is how Go turns the decoded struct
// into JSON: Go's marshalling writes every non-pointer field, zero or not, and its JSON drops
// the zero ones tagged `omitempty`. `go-fields.json`, made from the Go types by
// scripts/k8s-proto.ts, says which fields are pointers and which are `omitempty`, so a zero
// `replicas` (a pointer) is kept while an empty `namespace` is not. A handful of apimachinery
// types have their own JSON form (Time, IntOrString, Quantity, raw JSON); they are converted here.
import { join } from 'node:path';
import protobuf from 'protobufjs';
import goFieldsFile from '../../../proto/k8s.io/go-fields.json';

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
const PROTO_ROOT = join(import.meta.dirname, '..', '..', '..', 'proto');
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const APIEXT = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1';
const PROTO_FILES = [
  'k8s.io/apimachinery/pkg/apis/meta/v1',
  'k8s.io/apimachinery/pkg/runtime',
  ...['core', 'apps', 'batch', 'autoscaling', 'networking', 'rbac', 'storage', 'scheduling']
    .concat(['authorization', 'authentication', 'policy'])
    .map((g) => `k8s.io/api/${g}/v1`),
  'k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1',
].map((p) => `${p}/generated.proto`);

const goFields = goFieldsFile as { lists: string[]; fields: Record<string, Record<string, string>> };
const LISTS = new Set(goFields.lists);

let loaded: protobuf.Root | undefined;

/** Kubernetes' messages, parsed once on first use (the files are large; most runs need none). */
function protoRoot(): protobuf.Root {
  if (loaded) return loaded;
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(PROTO_ROOT, target);
  root.loadSync(PROTO_FILES, { keepCase: true });
  root.resolveAll();
  loaded = root;
  return root;
}

export function isKubeProtobuf(body: Buffer): boolean {
  return body.length >= 4 && body.subarray(0, 4).equals(MAGIC);
}

/** The protobuf package of an API group's version, as k8s.io/api names them. */
function packageOf(group: string, version: string): string {
  if (group === '') return `k8s.io.api.core.${version}`;
  if (group === 'apiextensions.k8s.io') return APIEXT.replace(/v1$/, version);
  if (group === 'meta.k8s.io') return `k8s.io.apimachinery.pkg.apis.meta.${version}`;
  return `k8s.io.api.${group.split('.')[0]}.${version}`;
}

/** The message of a kind, or undefined when Kubernetes defines none the sandbox loads. */
export function messageOf(apiVersion: string | undefined, kind: string | undefined): protobuf.Type | undefined {
  if (!apiVersion || !kind) return undefined;
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const root = protoRoot();
  // Option kinds (DeleteOptions, Status) travel with any group's version but live in meta/v1.
  for (const name of [`${packageOf(group!, version!)}.${kind}`, `${META}.${kind}`]) {
    const t = root.lookup(name);
    if (t instanceof protobuf.Type) return t;
  }
  return undefined;
}

type Json = unknown;
type Msg = Record<string, unknown>;

const fullName = (t: protobuf.Type) => t.fullName.replace(/^\./, '');
const has = (m: Msg, k: string) => Object.prototype.hasOwnProperty.call(m, k);

function num(v: unknown): number {
  return typeof v === 'object' && v !== null ? Number(String(v)) : Number(v ?? 0);
}

function rawJson(raw: unknown): Json {
  const b = raw as Uint8Array | undefined;
  return b && b.length ? JSON.parse(Buffer.from(b).toString('utf8')) : undefined;
}

function time(m: Msg, micro: boolean): Json {
  const seconds = num(m.seconds);
  const nanos = num(m.nanos);
  if (seconds === 0 && nanos === 0) return undefined;
  const iso = new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  return micro ? `${iso}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${iso}Z`;
}

/** Go's time.Duration.String(), for metav1.Duration. */
function goDuration(ns: number): string {
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  let rest = Math.abs(ns);
  const h = Math.floor(rest / 3.6e12);
  rest -= h * 3.6e12;
  const m = Math.floor(rest / 6e10);
  rest -= m * 6e10;
  const s = String(rest / 1e9);
  return `${sign}${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
}

function parseGoDuration(s: string): number {
  const units: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9, m: 6e10, h: 3.6e12 };
  let total = 0;
  for (const [, n, u] of s.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) total += Number(n) * units[u!]!;
  return s.startsWith('-') ? -total : total;
}

function isZero(v: unknown): boolean {
  return v === '' || v === false || (typeof v === 'object' && v !== null && String(v) === '0') || v === 0;
}

function scalarJson(field: protobuf.Field, v: unknown): Json {
  if (field.type === 'bytes') return Buffer.from(v as Uint8Array).toString('base64');
  if (typeof v === 'object' && v !== null) return num(v);
  return v;
}

/** A decoded message as the JSON kube-apiserver would have read into the same Go struct. */
function toJson(type: protobuf.Type, m: Msg): Json {
  const name = fullName(type);
  switch (name) {
    case `${META}.Time`:
      return time(m, false);
    case `${META}.MicroTime`:
      return time(m, true);
    case `${META}.Duration`:
      return goDuration(num(m.duration));
    case 'k8s.io.apimachinery.pkg.util.intstr.IntOrString':
      return num(m.type) === 1 ? (m.strVal ?? '') : num(m.intVal);
    case 'k8s.io.apimachinery.pkg.api.resource.Quantity':
      return m.string ?? '';
    case 'k8s.io.apimachinery.pkg.runtime.RawExtension':
    case `${META}.FieldsV1`:
    case `${APIEXT}.JSON`:
      return rawJson(m.raw);
    case `${APIEXT}.JSONSchemaPropsOrBool`:
      return has(m, 'schema') ? toJson(type.fields.schema!.resolvedType as protobuf.Type, m.schema as Msg) : !!m.allows;
    case `${APIEXT}.JSONSchemaPropsOrArray`:
    case `${APIEXT}.JSONSchemaPropsOrStringArray`: {
      if (has(m, 'schema')) return toJson(type.fields.schema!.resolvedType as protobuf.Type, m.schema as Msg);
      const list = type.fieldsArray.find((f) => f.repeated)!;
      return fieldJson(list, m[list.name]);
    }
  }
  if (LISTS.has(name)) return (m.items as unknown[] | undefined) ?? [];
  const flags = goFields.fields[name] ?? {};
  const out: Record<string, Json> = {};
  for (const field of type.fieldsArray) {
    const v = m[field.name];
    if (field.repeated || field.map) {
      const empty = field.map ? Object.keys((v as object) ?? {}).length === 0 : !(v as unknown[])?.length;
      if (!empty) out[field.name] = fieldJson(field, v);
      continue;
    }
    if (!has(m, field.name)) continue;
    const f = flags[field.name] ?? 'o';
    if (!field.resolvedType && isZero(v) && f === 'o') continue;
    const j = fieldJson(field, v);
    // An embedded struct Go's JSON inlines: its fields are the parent's (a Volume's source).
    if (f.includes('i') && j && typeof j === 'object') Object.assign(out, j);
    else if (j !== undefined) out[field.name] = j;
  }
  return out;
}

function fieldJson(field: protobuf.Field, v: unknown): Json {
  const one = (x: unknown) =>
    field.resolvedType instanceof protobuf.Type ? toJson(field.resolvedType, x as Msg) : scalarJson(field, x);
  if (field.map) return Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, one(x)]));
  if (field.repeated) return (v as unknown[]).map(one);
  return one(v);
}

function timeObject(s: unknown): Msg | undefined {
  if (typeof s !== 'string') return undefined;
  const ms = Date.parse(s);
  if (Number.isNaN(ms)) return undefined;
  const frac = /\.(\d+)/.exec(s)?.[1] ?? '';
  return { seconds: Math.floor(ms / 1000), nanos: Number(frac.padEnd(9, '0').slice(0, 9)) };
}

/** JSON as the message object protobufjs encodes (the inverse of toJson). */
function fromJson(type: protobuf.Type, j: Json): Msg | undefined {
  const name = fullName(type);
  const raw = () => ({ raw: Buffer.from(JSON.stringify(j)) });
  const schemaType = () => type.fields.schema!.resolvedType as protobuf.Type;
  switch (name) {
    case `${META}.Time`:
    case `${META}.MicroTime`:
      return timeObject(j);
    case `${META}.Duration`:
      return { duration: typeof j === 'string' ? parseGoDuration(j) : num(j) };
    case 'k8s.io.apimachinery.pkg.util.intstr.IntOrString':
      return typeof j === 'string' ? { type: 1, strVal: j } : { type: 0, intVal: num(j) };
    case 'k8s.io.apimachinery.pkg.api.resource.Quantity':
      return { string: String(j) };
    case 'k8s.io.apimachinery.pkg.runtime.RawExtension':
    case `${META}.FieldsV1`:
    case `${APIEXT}.JSON`:
      return raw();
    case `${APIEXT}.JSONSchemaPropsOrBool`:
      return typeof j === 'boolean' ? { allows: j } : { allows: true, schema: fromJson(schemaType(), j) };
    case `${APIEXT}.JSONSchemaPropsOrArray`:
    case `${APIEXT}.JSONSchemaPropsOrStringArray`: {
      if (!Array.isArray(j)) return { schema: fromJson(schemaType(), j) };
      const list = type.fieldsArray.find((f) => f.repeated)!;
      return { [list.name]: fieldObject(list, j) };
    }
  }
  if (LISTS.has(name)) return { items: j };
  if (typeof j !== 'object' || j === null || Array.isArray(j)) return undefined;
  const out: Msg = {};
  const flags = goFields.fields[name] ?? {};
  for (const field of type.fieldsArray) {
    const inline = flags[field.name]?.includes('i') && field.resolvedType instanceof protobuf.Type;
    const v = inline ? j : (j as Record<string, unknown>)[field.name];
    if (v === undefined || v === null) continue;
    const o = fieldObject(field, v);
    if (o !== undefined) out[field.name] = o;
  }
  return out;
}

function fieldObject(field: protobuf.Field, v: unknown): unknown {
  const one = (x: unknown) => {
    if (field.resolvedType instanceof protobuf.Type) return fromJson(field.resolvedType, x);
    if (field.type === 'bytes') return typeof x === 'string' ? Buffer.from(x, 'base64') : undefined;
    return x;
  };
  if (field.map)
    return typeof v === 'object' ? Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, one(x)])) : {};
  if (field.repeated) return Array.isArray(v) ? v.map(one).filter((x) => x !== undefined) : [];
  return one(v);
}

/**
 * Decodes a protobuf body into the object's JSON form (apiVersion and kind from the envelope).
 * Throws, with a message a person can act on, for a kind Kubernetes' .proto files do not define.
 */
export function decodeKubeProtobuf(body: Buffer): Record<string, unknown> {
  const root = protoRoot();
  const unknown = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
  const envelope = unknown.decode(body.subarray(4)) as unknown as {
    typeMeta?: { apiVersion?: string; kind?: string };
    raw?: Uint8Array;
  };
  const { apiVersion, kind } = envelope.typeMeta ?? {};
  const type = messageOf(apiVersion, kind);
  if (!type)
    throw new Error(
      `the sandbox has no protobuf message for ${kind ?? 'an object without a kind'} (${apiVersion ?? 'no apiVersion'}); send it as JSON`,
    );
  const message = type.decode(envelope.raw ?? new Uint8Array()) as unknown as Msg;
  return { apiVersion, kind, ...(toJson(type, message) as Record<string, unknown>) };
}

/** An object in protobuf (magic and envelope), or undefined when its kind has no message. */
export function encodeKubeProtobuf(obj: Record<string, unknown>): Buffer | undefined {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : undefined;
  const kind = typeof obj.kind === 'string' ? obj.kind : undefined;
  const type = messageOf(apiVersion, kind);
  if (!type) return undefined;
  const raw = type.encode(type.fromObject(fromJson(type, obj) ?? {})).finish();
  const unknown = protoRoot().lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
  const envelope = unknown.encode(
    unknown.fromObject({ typeMeta: { apiVersion, kind }, raw, contentEncoding: '', contentType: '' }),
  );
  return Buffer.concat([MAGIC, envelope.finish()]);
}
