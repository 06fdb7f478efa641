// How an icon from a catalog is served: third-party bytes under a declared media type. Only
// image types are served, as declared (never sniffed); SVG, which can carry script, gets a
// Content-Security-Policy that lets it draw and nothing else.
import { createHash } from 'node:crypto';

const RASTER = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
]);
const SVG = 'image/svg+xml';
export const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

export type IconVerdict =
  { ok: true; contentType: string; etag: string; headers: Record<string, string> } | { ok: false; message: string };

export function iconVerdict(data: Buffer, declared: string): IconVerdict {
  const type = declared.split(';')[0]!.trim().toLowerCase();
  if (data.length === 0) return { ok: false, message: "the package's icon is empty" };
  if (type !== SVG && !RASTER.has(type))
    return {
      ok: false,
      message: `the package's icon declares media type "${declared}", which is not an image type the console serves`,
    };
  const etag = `"${createHash('sha256').update(type).update('\0').update(data).digest('base64url').slice(0, 27)}"`;
  const headers: Record<string, string> = {
    'Content-Type': type,
    ETag: etag,
    // Icons change only with catalog content; the ETag revalidates after a day.
    'Cache-Control': 'private, max-age=86400',
    'X-Content-Type-Options': 'nosniff',
    'Content-Disposition': 'inline',
  };
  if (type === SVG) headers['Content-Security-Policy'] = SVG_CSP;
  return { ok: true, contentType: type, etag, headers };
}
