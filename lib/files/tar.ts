// A tar archive of small text files, for downloads (an install's GitOps tree): regular files in
// folders, mode 0644, owned by root, dated `mtime`. Folders are implied by the paths, as tar and
// kustomize read them. Written by tar-stream, the library the bundle image reader reads layers
// with (ustar headers; a long path in the prefix field or a PAX header, which GNU tar and
// kustomize read). It runs on the server and, for a plan not yet applied, in the browser.
import { pack } from 'tar-stream';

export async function tarArchive(
  files: readonly { path: string; content: string }[],
  mtime = new Date(),
): Promise<Uint8Array<ArrayBuffer>> {
  for (const f of files)
    if (f.path.startsWith('/') || f.path.split('/').includes('..')) throw new Error(`not a relative path: ${f.path}`);
  const archive = pack();
  const chunks: Uint8Array[] = [];
  archive.on('data', (c: unknown) => void chunks.push(c as Uint8Array));
  const done = new Promise<void>((resolve, reject) => {
    archive.on('end', resolve);
    archive.on('error', reject);
  });
  for (const f of files)
    archive.entry(
      { name: f.path, type: 'file', mode: 0o644, uid: 0, gid: 0, uname: 'root', gname: 'root', mtime },
      // Not Buffer: the page builds the same archive in the browser (components/common/gitops-files.tsx).
      new TextEncoder().encode(f.content),
    );
  archive.finalize();
  await done;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
