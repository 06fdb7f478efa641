// A POSIX ustar archive of small text files, for downloads (an install's GitOps tree): regular
// files in folders, mode 0644, owned by root, dated `mtime`. Folders are implied by the paths, as
// tar and kustomize read them. Names over 100 bytes use ustar's 155-byte prefix field.
const BLOCK = 512;

function field(buf: Uint8Array, offset: number, length: number, text: string): void {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > length) throw new Error(`tar header field too long: ${text}`);
  buf.set(bytes, offset);
}

function octal(n: number, length: number): string {
  return n.toString(8).padStart(length - 1, '0') + '\0';
}

function splitName(path: string): { name: string; prefix: string } {
  const enc = (s: string) => new TextEncoder().encode(s).length;
  if (enc(path) <= 100) return { name: path, prefix: '' };
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (enc(prefix) <= 155 && enc(name) <= 100) return { name, prefix };
  }
  throw new Error(`path too long for a tar archive: ${path}`);
}

export function tarArchive(
  files: readonly { path: string; content: string }[],
  mtime = new Date(),
): Uint8Array<ArrayBuffer> {
  const parts: Uint8Array[] = [];
  for (const f of files) {
    if (f.path.startsWith('/') || f.path.split('/').includes('..')) throw new Error(`not a relative path: ${f.path}`);
    const data = new TextEncoder().encode(f.content);
    const header = new Uint8Array(BLOCK);
    const { name, prefix } = splitName(f.path);
    field(header, 0, 100, name);
    field(header, 100, 8, octal(0o644, 8));
    field(header, 108, 8, octal(0, 8));
    field(header, 116, 8, octal(0, 8));
    field(header, 124, 12, octal(data.length, 12));
    field(header, 136, 12, octal(Math.floor(mtime.getTime() / 1000), 12));
    header.fill(0x20, 148, 156); // the checksum counts its own field as spaces
    field(header, 156, 1, '0');
    field(header, 257, 6, 'ustar\0');
    field(header, 263, 2, '00');
    field(header, 265, 32, 'root');
    field(header, 297, 32, 'root');
    field(header, 345, 155, prefix);
    const sum = header.reduce((a, b) => a + b, 0);
    field(header, 148, 8, sum.toString(8).padStart(6, '0') + '\0 ');
    parts.push(header, data);
    const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(new Uint8Array(pad));
  }
  parts.push(new Uint8Array(BLOCK * 2));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
