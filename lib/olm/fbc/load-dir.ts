// The I/O edge of lib/olm: walk a catalog directory the way opm does and hand each file's text
// to the pure parser. `.indexignore` files hold gitignore rules, relative to their own folder.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isFbcFile, parseFbcText, type FileProblem, type ParsedBlob } from './parse';

const INDEX_IGNORE = '.indexignore';

interface Rules {
  base: string;
  matcher: Ignore;
}

function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}

function ignored(rules: readonly Rules[], path: string, isDir: boolean): boolean {
  for (const r of rules) {
    const rel = toPosix(relative(r.base, path));
    if (rel && r.matcher.ignores(isDir ? `${rel}/` : rel)) return true;
  }
  return false;
}

export interface LoadedDir {
  blobs: ParsedBlob[];
  problems: FileProblem[];
  /** Files read, relative to the catalog root. */
  files: string[];
  bytes: number;
}

/** Reads every JSON/YAML file under `root` that no `.indexignore` excludes. */
export function readFbcDir(root: string): LoadedDir {
  const st = statSync(root, { throwIfNoEntry: false });
  if (!st) throw new Error(`catalog directory ${root} does not exist`);
  if (!st.isDirectory()) throw new Error(`${root} is not a directory; point at the catalog's root folder`);
  const out: LoadedDir = { blobs: [], problems: [], files: [], bytes: 0 };

  const walk = (dir: string, inherited: readonly Rules[]): void => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    let rules = inherited;
    if (entries.some((e) => e.isFile() && e.name === INDEX_IGNORE)) {
      rules = [...inherited, { base: dir, matcher: ignore().add(readFileSync(join(dir, INDEX_IGNORE), 'utf8')) }];
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (!ignored(rules, path, true)) walk(path, rules);
      } else if (e.isFile() && e.name !== INDEX_IGNORE && isFbcFile(e.name) && !ignored(rules, path, false)) {
        const text = readFileSync(path, 'utf8');
        const file = toPosix(relative(root, path));
        out.files.push(file);
        out.bytes += Buffer.byteLength(text);
        const parsed = parseFbcText(file, text);
        for (const b of parsed.blobs) out.blobs.push(b);
        for (const p of parsed.problems) out.problems.push(p);
      }
    }
  };
  walk(root, []);
  return out;
}
