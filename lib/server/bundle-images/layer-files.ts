// A bundle image's files from its layers, read with tar-stream: only regular files under
// manifests/ and metadata/ are kept (everything else is drained unread), each layer applied over
// the ones before it as the OCI image layer spec says (a later file replaces an earlier one;
// `.wh.<name>` removes <name> and what is under it from the layers below; `.wh..wh..opq` empties
// its folder of the layers below). Catalog content is hostile, so: an entry whose path climbs out
// of the image's root (`..`) is refused; a link or device where a bundle file would be is refused
// rather than followed or skipped (skipping would read a different bundle than OLM's unpacker
// refuses); gzip is expanded with a ceiling on its output (a small layer of zeros expanding to
// gigabytes stops at the limit), and the entries of all layers are counted against a limit.
import { promisify } from 'node:util';
import { gunzip, type InputType, type ZlibOptions } from 'node:zlib';
import { extract } from 'tar-stream';
import type { PullLimits } from './pull-settings';

const gunzipAsync = promisify<InputType, ZlibOptions, Buffer>(gunzip);

export class LayerRefused extends Error {}

const KEPT = ['manifests/', 'metadata/'];
const WHITEOUT = '.wh.';
const OPAQUE = '.wh..wh..opq';

/** The path as a relative, slash-separated path, or undefined when it climbs out of the root. */
function cleanPath(name: string): string | undefined {
  const parts: string[] = [];
  for (const p of name.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') return undefined;
    parts.push(p);
  }
  return parts.join('/');
}

const kept = (path: string) => KEPT.some((k) => path.startsWith(k) || `${path}/` === k);

interface LayerContent {
  files: Map<string, Buffer>;
  /** Paths removed from the layers below. */
  removed: string[];
  /** Folders emptied of the layers below. */
  emptied: string[];
}

/** Budget shared by every layer of one image. */
export interface ExpansionBudget {
  bytes: number;
  entries: number;
}

export async function expandLayer(
  blob: Buffer,
  gzipped: boolean,
  digest: string,
  budget: ExpansionBudget,
  limits: PullLimits,
): Promise<Buffer> {
  if (!gzipped) {
    if (blob.length > budget.bytes)
      throw new LayerRefused(`layer ${digest} expands past the limit of ${limits.expandedBytes} bytes`);
    budget.bytes -= blob.length;
    return blob;
  }
  let tar: Buffer;
  try {
    tar = await gunzipAsync(blob, { maxOutputLength: Math.max(1, budget.bytes) });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError)
      throw new LayerRefused(`layer ${digest} expands past the limit of ${limits.expandedBytes} bytes`);
    throw new LayerRefused(`layer ${digest} is not valid gzip: ${(err as Error).message}`);
  }
  budget.bytes -= tar.length;
  return tar;
}

/** What one layer's tar holds for the bundle. */
export function readLayerTar(
  tar: Buffer,
  digest: string,
  budget: ExpansionBudget,
  limits: PullLimits,
): Promise<LayerContent> {
  const out: LayerContent = { files: new Map(), removed: [], emptied: [] };
  return new Promise((resolve, reject) => {
    const x = extract();
    // Rejected here, then the extraction stopped without an error: an error given to destroy
    // would also reach the entry stream in hand, which has no one listening.
    const fail = (why: string) => {
      reject(new LayerRefused(`layer ${digest}: ${why}`));
      x.destroy();
    };
    x.on('entry', (header, stream, next) => {
      stream.on('error', () => undefined);
      if (--budget.entries < 0) {
        stream.resume();
        return fail(`the image has more than ${limits.entries} entries`);
      }
      const path = cleanPath(header.name);
      if (path === undefined) {
        stream.resume();
        return fail(`entry ${JSON.stringify(header.name.slice(0, 200))} leaves the image's root`);
      }
      const base = path.slice(path.lastIndexOf('/') + 1);
      const dir = path.slice(0, path.lastIndexOf('/') + 1);
      if (base === OPAQUE) out.emptied.push(dir);
      else if (base.startsWith(WHITEOUT)) out.removed.push(dir + base.slice(WHITEOUT.length));
      else if (kept(path) && header.type !== 'directory') {
        if (header.type !== 'file' && header.type !== 'contiguous-file') {
          stream.resume();
          return fail(`${path} is a ${header.type ?? 'special entry'}; only regular files are read from a bundle`);
        }
        const chunks: Buffer[] = [];
        stream.on('data', (c: unknown) => void chunks.push(c as Buffer));
        stream.on('end', () => {
          out.files.set(path, Buffer.concat(chunks));
          next();
        });
        return;
      }
      stream.on('end', () => next());
      stream.resume();
    });
    x.on('finish', () => resolve(out));
    x.on('error', (err) =>
      reject(
        err instanceof LayerRefused ? err : new LayerRefused(`layer ${digest} is not a tar archive: ${err.message}`),
      ),
    );
    x.end(tar);
  });
}

/** Applies one layer's content over the files of the layers below it. */
export function applyLayer(files: Map<string, Buffer>, layer: LayerContent): void {
  const under = (p: string, d: string) => p === d || p.startsWith(d.endsWith('/') ? d : `${d}/`);
  for (const d of layer.emptied) for (const p of [...files.keys()]) if (d === '' || under(p, d)) files.delete(p);
  for (const r of layer.removed) for (const p of [...files.keys()]) if (under(p, r)) files.delete(p);
  for (const [p, b] of layer.files) files.set(p, b);
}
