// kubectl sends some built-in objects (the authorization reviews of `kubectl auth can-i`) as
// Kubernetes protobuf: the "k8s\0" magic, then a runtime.Unknown envelope around the message.
// The sandbox reads the few messages it needs into their JSON form and answers in JSON, which
// clients accept.

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

export function isKubeProtobuf(body: Buffer): boolean {
  return body.length >= 4 && body.subarray(0, 4).equals(MAGIC);
}

/** Field number → the length-delimited values of that field (other wire types skipped). */
function fields(buf: Buffer): Map<number, Buffer[]> {
  const out = new Map<number, Buffer[]>();
  let i = 0;
  const varint = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (i >= buf.length) throw new Error('truncated protobuf varint');
      const b = buf[i++]!;
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
    }
  };
  while (i < buf.length) {
    const tag = varint();
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    if (wire === 0) varint();
    else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else if (wire === 2) {
      const len = varint();
      const v = buf.subarray(i, i + len);
      i += len;
      out.set(field, [...(out.get(field) ?? []), v]);
    } else throw new Error(`unsupported protobuf wire type ${wire}`);
  }
  return out;
}

function str(m: Map<number, Buffer[]>, n: number): string | undefined {
  const v = m.get(n)?.[0];
  return v ? v.toString('utf8') : undefined;
}

function sub(m: Map<number, Buffer[]>, n: number): Map<number, Buffer[]> | undefined {
  const v = m.get(n)?.[0];
  return v ? fields(v) : undefined;
}

function map(m: Map<number, Buffer[]>, n: number, bytes = false): Record<string, string> | undefined {
  const entries = m.get(n);
  if (!entries?.length) return undefined;
  const out: Record<string, string> = {};
  for (const e of entries) {
    const kv = fields(e);
    const v = kv.get(2)?.[0] ?? Buffer.alloc(0);
    out[str(kv, 1) ?? ''] = bytes ? v.toString('base64') : v.toString('utf8');
  }
  return out;
}

/** ObjectMeta: the fields a client sets on create (name, generateName, namespace, labels, annotations, finalizers). */
function objectMeta(m: Map<number, Buffer[]> | undefined): Record<string, unknown> {
  if (!m) return {};
  const meta: Record<string, unknown> = {};
  const set = (k: string, v: unknown) => {
    if (v !== undefined) meta[k] = v;
  };
  set('name', str(m, 1));
  set('generateName', str(m, 2));
  set('namespace', str(m, 3));
  set('labels', map(m, 11));
  set('annotations', map(m, 12));
  const finalizers = (m.get(14) ?? []).map((b) => b.toString('utf8'));
  if (finalizers.length) meta.finalizers = finalizers;
  return meta;
}

/** Decodes the objects the sandbox accepts in protobuf; anything else is an error. */
export function decodeKubeProtobuf(body: Buffer): Record<string, unknown> {
  const envelope = fields(body.subarray(4));
  const typeMeta = sub(envelope, 1);
  const apiVersion = typeMeta ? str(typeMeta, 1) : undefined;
  const kind = typeMeta ? str(typeMeta, 2) : undefined;
  const raw = envelope.get(2)?.[0] ?? Buffer.alloc(0);
  const msg = fields(raw);
  const spec = sub(msg, 2);
  switch (kind) {
    case 'SelfSubjectAccessReview':
    case 'SubjectAccessReview': {
      const ra = spec ? sub(spec, 1) : undefined;
      const nra = spec ? sub(spec, 2) : undefined;
      const resourceAttributes = ra
        ? {
            namespace: str(ra, 1) ?? '',
            verb: str(ra, 2) ?? '',
            group: str(ra, 3) ?? '',
            version: str(ra, 4) ?? '',
            resource: str(ra, 5) ?? '',
            subresource: str(ra, 6) ?? '',
            name: str(ra, 7) ?? '',
          }
        : undefined;
      const nonResourceAttributes = nra ? { path: str(nra, 1) ?? '', verb: str(nra, 2) ?? '' } : undefined;
      const extra =
        kind === 'SubjectAccessReview' && spec
          ? { user: str(spec, 3) ?? '', groups: (spec.get(4) ?? []).map((b) => b.toString('utf8')) }
          : {};
      return {
        apiVersion,
        kind,
        spec: {
          ...(resourceAttributes ? { resourceAttributes } : {}),
          ...(nonResourceAttributes ? { nonResourceAttributes } : {}),
          ...extra,
        },
      };
    }
    case 'SelfSubjectRulesReview':
      return { apiVersion, kind, spec: { namespace: spec ? (str(spec, 1) ?? '') : '' } };
    case 'SelfSubjectReview':
      return { apiVersion, kind };
    case 'Namespace':
    case 'ServiceAccount':
      return { apiVersion, kind, metadata: objectMeta(sub(msg, 1)) };
    case 'ConfigMap': {
      const data = map(msg, 2);
      const binaryData = map(msg, 3, true);
      return {
        apiVersion,
        kind,
        metadata: objectMeta(sub(msg, 1)),
        ...(data ? { data } : {}),
        ...(binaryData ? { binaryData } : {}),
      };
    }
    case 'Secret': {
      const data = map(msg, 2, true);
      const type = str(msg, 3);
      return {
        apiVersion,
        kind,
        metadata: objectMeta(sub(msg, 1)),
        ...(data ? { data } : {}),
        ...(type ? { type } : {}),
      };
    }
    case 'DeleteOptions': {
      const policy = str(msg, 6);
      return { apiVersion, kind, ...(policy ? { propagationPolicy: policy } : {}) };
    }
    default:
      throw new Error(
        `the sandbox reads protobuf only for reviews, namespaces, service accounts, config maps and secrets, not ${kind ?? 'this object'}; send JSON (kubectl apply -f does)`,
      );
  }
}
