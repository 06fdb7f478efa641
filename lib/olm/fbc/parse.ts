// Text in, blobs out: one FBC file (JSON with one or more concatenated objects, or YAML with
// one or more documents) parsed into schema-tagged blobs, each with its origin. Pure; the
// directory walk that feeds it lives in load-dir.ts.
import yaml from 'js-yaml';

// opm reads YAML through sigs.k8s.io/yaml, which leaves an unquoted timestamp as the string it
// was written as (`createdAt: 2023-03-03T00:00:00` stays that text); js-yaml's default schema
// would make it a Date, and so a different string. Merge keys are kept.
const FBC_YAML_SCHEMA = yaml.CORE_SCHEMA.extend([(yaml as unknown as { types: { merge: yaml.Type } }).types.merge]);
import {
  SCHEMA_BUNDLE,
  SCHEMA_CHANNEL,
  SCHEMA_DEPRECATIONS,
  SCHEMA_PACKAGE,
  type BlobOrigin,
  type DeclarativeConfig,
  type FbcBundle,
  type FbcChannel,
  type FbcDeprecations,
  type FbcOther,
  type FbcPackage,
} from './types';

export interface FileProblem {
  file: string;
  message: string;
}

export interface ParsedBlob {
  blob: Record<string, unknown>;
  origin: BlobOrigin;
}

export function isFbcFile(name: string): boolean {
  return /\.(json|ya?ml)$/i.test(name);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Splits concatenated JSON values (`{..}{..}` or one per line), as opm's decoder reads them. */
function splitJsonValues(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (depth === 0) start = i;
      depth++;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--;
      if (depth === 0 && start >= 0) {
        out.push(text.slice(start, i + 1));
        start = -1;
      }
    }
  }
  if (depth !== 0) throw new Error('unexpected end of JSON input (unbalanced braces)');
  return out;
}

/** Parses one file's text. A document without `schema` is skipped, as opm skips it. */
export function parseFbcText(file: string, text: string): { blobs: ParsedBlob[]; problems: FileProblem[] } {
  const blobs: ParsedBlob[] = [];
  const problems: FileProblem[] = [];
  let docs: unknown[];
  try {
    if (/\.json$/i.test(file)) {
      docs = splitJsonValues(text).map((t) => JSON.parse(t) as unknown);
    } else {
      docs = [];
      yaml.loadAll(text, (d) => docs.push(d), { filename: file, schema: FBC_YAML_SCHEMA });
    }
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    problems.push({ file, message: `cannot parse ${file}: ${reason}` });
    return { blobs, problems };
  }
  docs.forEach((doc, i) => {
    if (doc === null || doc === undefined) return;
    if (!isRecord(doc)) {
      problems.push({
        file,
        message: `${file} blob ${i + 1}: expected an object, found ${Array.isArray(doc) ? 'a list' : typeof doc}`,
      });
      return;
    }
    if (typeof doc.schema !== 'string' || doc.schema === '') return;
    blobs.push({ blob: doc, origin: { file, index: i + 1 } });
  });
  return { blobs, problems };
}

export interface SortedConfig {
  config: DeclarativeConfig;
  /** Where each blob came from (keyed by the blob object itself). */
  origins: Map<object, BlobOrigin>;
}

/** Sorts blobs by schema into a DeclarativeConfig; unknown schemas are kept in `others`. */
export function sortBlobs(blobs: readonly ParsedBlob[]): SortedConfig {
  const config: DeclarativeConfig = { packages: [], channels: [], bundles: [], deprecations: [], others: [] };
  const origins = new Map<object, BlobOrigin>();
  for (const { blob, origin } of blobs) {
    origins.set(blob, origin);
    switch (blob.schema) {
      case SCHEMA_PACKAGE:
        config.packages.push(blob as unknown as FbcPackage);
        break;
      case SCHEMA_CHANNEL:
        config.channels.push(blob as unknown as FbcChannel);
        break;
      case SCHEMA_BUNDLE:
        config.bundles.push(blob as unknown as FbcBundle);
        break;
      case SCHEMA_DEPRECATIONS:
        config.deprecations.push(blob as unknown as FbcDeprecations);
        break;
      default:
        config.others.push(blob as FbcOther);
    }
  }
  return { config, origins };
}
