// zstd layers (`application/vnd.oci.image.layer.v1.tar+zstd`) expanded with fzstd, a pure
// JavaScript decoder (Node.js 20's zlib has none), under the same ceilings as gzip. fzstd allocates
// each frame's window as its header declares (up to 2 GB) and moves the whole window for every
// block it writes, and it follows frames one after another by recursion, so the layer is walked
// first, by the zstd format (RFC 8878): every frame's header read and its blocks stepped over.
// A frame whose window passes WINDOW_LIMIT, that names a dictionary, or has a reserved bit or
// block type, and a layer of more than FRAME_LIMIT frames, is refused before anything is
// decoded. Each frame is then decoded on its own, and the bytes it gives are counted as fzstd
// hands each block over (a block is at most 128 KiB): past the budget, decoding stops there, so
// a small layer of one byte repeated stops at the limit instead of filling memory first.
import { Decompress } from 'fzstd';
import { LayerRefused, type ExpansionBudget } from './layer-files';
import type { PullLimits } from './pull-settings';

/** zstd's own default for a compression level of 19 and below is at most 8 MiB (windowLog 23). */
export const WINDOW_LIMIT = 8 * 1024 * 1024;
/** zstd writes one frame per stream; a layer of thousands is not one a tool made. */
export const FRAME_LIMIT = 1024;

const ZSTD_MAGIC = 0xfd2fb528;
const isSkippable = (magic: number) => magic >>> 4 === 0x184d2a5;

interface Frame {
  start: number;
  end: number;
}

/** Little-endian unsigned integer of `n` bytes (n ≤ 4), or of 8 bytes as a number. */
function readLe(b: Buffer, at: number, n: number): number {
  let v = 0;
  for (let i = n - 1; i >= 0; i--) v = v * 256 + b[at + i]!;
  return v;
}

/** The zstd frames of the layer (skippable frames left out), or why it is refused. */
export function zstdFrames(blob: Buffer): Frame[] | string {
  const frames: Frame[] = [];
  let at = 0;
  const short = 'it ends inside a frame';
  while (at < blob.length) {
    if (blob.length - at < 8) return short;
    const magic = blob.readUInt32LE(at);
    if (isSkippable(magic)) {
      at += 8 + blob.readUInt32LE(at + 4);
      if (at > blob.length) return short;
      continue;
    }
    if (magic !== ZSTD_MAGIC) return `no zstd frame starts at byte ${at}`;
    if (frames.length >= FRAME_LIMIT) return `it has more than ${FRAME_LIMIT} frames`;
    const start = at;
    const fhd = blob[at + 4]!;
    const fcsFlag = fhd >> 6;
    const single = (fhd >> 5) & 1;
    const checksum = (fhd >> 2) & 1;
    const dictFlag = fhd & 3;
    if (fhd & 8) return 'a frame header sets a reserved bit';
    if (dictFlag) return 'a frame needs a dictionary, which no image layer can carry';
    at += 5;
    let window = 0;
    if (!single) {
      if (at >= blob.length) return short;
      const wd = blob[at++]!;
      const base = 2 ** (10 + (wd >> 3));
      window = base + (base / 8) * (wd & 7);
    }
    const fcsBytes = [single ? 1 : 0, 2, 4, 8][fcsFlag]!;
    if (at + fcsBytes > blob.length) return short;
    if (single) window = readLe(blob, at, fcsBytes) + (fcsBytes === 2 ? 256 : 0);
    at += fcsBytes;
    if (window > WINDOW_LIMIT)
      return `a frame's window is ${window} bytes, more than the ${WINDOW_LIMIT} this console decodes`;
    for (let last = false; !last;) {
      if (at + 3 > blob.length) return short;
      const header = blob[at]! | (blob[at + 1]! << 8) | (blob[at + 2]! << 16);
      at += 3;
      last = (header & 1) === 1;
      const type = (header >> 1) & 3;
      const size = header >>> 3;
      if (type === 3) return 'a block is of the reserved type';
      at += type === 1 ? 1 : size;
      if (at > blob.length) return short;
    }
    at += checksum ? 4 : 0;
    if (at > blob.length) return short;
    frames.push({ start, end: at });
  }
  return frames;
}

class OverBudget extends Error {}

/** The layer's tar, expanded within the image's budget. */
export function expandZstd(blob: Buffer, digest: string, budget: ExpansionBudget, limits: PullLimits): Buffer {
  const frames = zstdFrames(blob);
  if (typeof frames === 'string') throw new LayerRefused(`layer ${digest} is not a zstd stream read here: ${frames}`);
  const out: Uint8Array[] = [];
  let total = 0;
  try {
    for (const f of frames) {
      const d = new Decompress((chunk) => {
        total += chunk.length;
        if (total > budget.bytes) throw new OverBudget();
        if (chunk.length) out.push(chunk);
      });
      d.push(blob.subarray(f.start, f.end), true);
    }
  } catch (err) {
    if (err instanceof OverBudget)
      throw new LayerRefused(`layer ${digest} expands past the limit of ${limits.expandedBytes} bytes`);
    throw new LayerRefused(`layer ${digest} is not valid zstd: ${(err as Error).message}`);
  }
  budget.bytes -= total;
  return Buffer.concat(out, total);
}
