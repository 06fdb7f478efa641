// A catalog N times larger than a real one, generated into a temporary folder by cloning every
// package under new names (`<pkg>-c<k>`), so that scale can be measured on real-shaped data.
// Generated, never committed; the caller removes it.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Package folders of an opm-layout catalog: one folder per package, named after it. */
function packageDirs(root: string): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
}

function filesBelow(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...filesBelow(join(dir, e.name), rel));
    else if (/\.(json|ya?ml)$/i.test(e.name)) out.push(rel);
  }
  return out;
}

/**
 * Copies `times` clones of every package of `source` into a new temporary folder. In each clone
 * the package name is replaced everywhere in its files (package blobs, channel and bundle
 * `package` fields, `olm.package` properties, and bundle names that contain it), which keeps
 * every reference inside the package consistent.
 */
export function generateScaledCatalog(source: string, times: number): { dir: string; packages: number; bytes: number } {
  const dir = mkdtempSync(join(tmpdir(), 'olm-scaled-catalog-'));
  let packages = 0;
  let bytes = 0;
  for (const pkg of packageDirs(source)) {
    const files = filesBelow(join(source, pkg)).map((f) => [f, readFileSync(join(source, pkg, f), 'utf8')] as const);
    // The folder is usually named after the package, but not always (eda-openshift-operator
    // holds package eda-k8s-operator): rename both, the longer first.
    const declared = files.map(([, t]) => /^package:\s*['"]?([a-z0-9][-a-z0-9.]*)/m.exec(t)?.[1]).find(Boolean);
    const names = [...new Set([pkg, declared ?? pkg])].sort((a, b) => b.length - a.length);
    for (let k = 1; k <= times; k++) {
      const target = join(dir, `${pkg}-c${k}`);
      for (const [f, text] of files) {
        let out = text;
        for (const n of names) out = out.split(n).join(`${n}-c${k}`);
        mkdirSync(join(target, f, '..'), { recursive: true });
        writeFileSync(join(target, f), out);
        bytes += Buffer.byteLength(out);
      }
      packages++;
    }
  }
  return { dir, packages, bytes };
}
