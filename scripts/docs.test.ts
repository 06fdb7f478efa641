// The documents as a reader meets them: every relative link of every Markdown file in the
// repository opens a file that is there (and, into a Markdown file, a heading that is there), nothing
// points outside the repository (a clone elsewhere has no ../shared), prose lines stay under 120
// characters, and every route handler has its row in docs/http-api.md. Links are checked as GitHub
// renders them: code spans and fenced blocks hold no links, and anchors are GitHub's heading slugs.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';

const root = join(import.meta.dirname, '..');
const skipDirs = new Set(['node_modules', '.next', '.git', '.sandbox', '.cluster', 'test-results']);

function walk(dir: string, keep: (path: string) => boolean, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skipDirs.has(entry.name)) walk(path, keep, out);
    } else if (keep(path)) out.push(relative(root, path));
  }
  return out.sort();
}

const markdownFiles = walk(root, (p) => p.endsWith('.md'));

/** The lines of a Markdown file outside fenced code blocks, with code spans blanked out. */
function proseLines(text: string): { line: string; number: number; table: boolean }[] {
  const out: { line: string; number: number; table: boolean }[] = [];
  let fenced = false;
  text.split('\n').forEach((raw, i) => {
    if (/^\s*```/.test(raw)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    out.push({ line: raw.replace(/`[^`]*`/g, '``'), number: i + 1, table: raw.trimStart().startsWith('|') });
  });
  return out;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const slug = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

interface Link {
  file: string;
  line: number;
  target: string;
}

function links(file: string): Link[] {
  const out: Link[] = [];
  for (const { line, number } of proseLines(readFileSync(join(root, file), 'utf8'))) {
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      out.push({ file, line: number, target: m[1]! });
    const ref = /^\s*\[[^\]]+\]:\s*(\S+)/.exec(line);
    if (ref) out.push({ file, line: number, target: ref[1]! });
  }
  return out;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** What is wrong with a relative link, or undefined when it opens what it names. */
function problem(link: Link): string | undefined {
  const [pathPart, anchor] = link.target.split('#', 2) as [string, string | undefined];
  const path = decodeURIComponent(pathPart);
  const absolute = path === '' ? join(root, link.file) : resolve(root, dirname(link.file), path);
  const inRepo = relative(root, absolute);
  if (inRepo.startsWith('..') || inRepo.startsWith(sep)) return 'points outside the repository';
  if (!existsSync(absolute)) return 'no such file';
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(absolute).isDirectory() || !absolute.endsWith('.md')) return undefined;
  if (!anchors(readFileSync(absolute, 'utf8')).has(anchor)) return `no heading #${anchor} in ${inRepo}`;
  return undefined;
}

test('every relative link in every Markdown file opens a file, and a heading, that is there', () => {
  assert.ok(markdownFiles.includes('README.md') && markdownFiles.includes('docs/conformance.md'));
  const broken = markdownFiles
    .flatMap(links)
    .filter((l) => !isExternal(l.target))
    .map((l) => ({ l, why: problem(l) }))
    .filter((x) => x.why)
    .map(({ l, why }) => `${l.file}:${l.line}: ${l.target}: ${why}`);
  assert.deepEqual(broken, []);
});

test('no section reference (§) names a document outside the repository', () => {
  // The OLM reference once kept beside the checkout, outside the repository, is docs/olm/ now;
  // a `§` into it is lost in a clone elsewhere. Links outside are caught by the test above.
  const sources = walk(root, (p) => /\.(md|ts|tsx|mjs|go|sh|ya?ml)$/.test(p)).filter(
    (f) => f !== 'scripts/docs.test.ts',
  );
  const outside: string[] = [];
  for (const file of sources) {
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (line.includes('§') && /\bshared\/|-behaviour\.md/.test(line))
          outside.push(`${file}:${i + 1}: ${line.trim().slice(0, 100)}`);
      });
  }
  assert.deepEqual(outside, []);
});

test('prose lines of README, ARCHITECTURE, CONTRIBUTING and docs/ are at most 120 characters', () => {
  // Tables are exempt: a row is one line in Markdown, and the known-differences table is read by
  // the conformance suite row by row. Code blocks are exempt: commands are copied whole.
  const files = markdownFiles.filter(
    (f) => ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md'].includes(f) || f.startsWith('docs/'),
  );
  const long: string[] = [];
  for (const file of files) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    for (const { number, table } of proseLines(lines.join('\n'))) {
      const line = lines[number - 1]!;
      if (!table && line.length > 120) long.push(`${file}:${number}: ${line.length} characters`);
    }
  }
  assert.deepEqual(long, []);
});

test('every route handler has a row in docs/http-api.md that links it', () => {
  const handlers = walk(join(root, 'app'), (p) => p.endsWith(`${sep}route.ts`)).map((f) => f.split(sep).join('/'));
  assert.ok(handlers.length > 40, `found ${handlers.length} route handlers`);
  const doc = readFileSync(join(root, 'docs/http-api.md'), 'utf8');
  const linked = new Set(
    links('docs/http-api.md').map((l) =>
      relative(root, resolve(root, 'docs', l.target))
        .split(sep)
        .join('/'),
    ),
  );
  assert.ok(doc.includes('| route |'), 'docs/http-api.md has its table of routes');
  assert.deepEqual(
    handlers.filter((h) => !linked.has(h)),
    [],
  );
});

test('the anchors are GitHub’s: punctuation dropped, spaces to hyphens, repeated headings numbered', () => {
  assert.deepEqual(
    [
      ...anchors(
        "# Running\n## Which cluster\n## `lib/olm`: OLM's rules, once\n```\n# not a heading\n```\n## Which cluster\n",
      ),
    ],
    ['running', 'which-cluster', 'libolm-olms-rules-once', 'which-cluster-1'],
  );
});
