// Where a process's CPU went, from a V8 CPU profile (`node --cpu-prof`): self time summed by what
// the code is for, judged by the script each sample's function comes from. Coarse on purpose: it
// answers "rendering, JSON, cluster calls or compression?", not which line.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * A stretch of the process's run, in µs of the monotonic clock the profile's timestamps use
 * (`process.hrtime` in any process on the machine): only samples taken within it count.
 */
export interface Window {
  fromUs: number;
  toUs: number;
}

/** Each sample's node id and the ms it stands for, within `window` when one is given. */
function samplesOf(p: Profile, window?: Window): { id: number; ms: number }[] {
  const out: { id: number; ms: number }[] = [];
  let at = p.startTime;
  p.samples.forEach((id, i) => {
    const delta = p.timeDeltas[i] ?? 0;
    at += delta;
    if (!window || (at >= window.fromUs && at <= window.toUs)) out.push({ id, ms: delta / 1000 });
  });
  return out;
}

/** What a sampled function is for, by its name and script. */
function kindOf(fn: string, url: string): string {
  if (fn === '(garbage collector)') return 'garbage collection';
  if (fn === '(idle)' || fn === '(program)') return fn;
  if (/^(stringify|parse)$/.test(fn) && !url) return 'JSON';
  if (/zlib|compression/.test(url) || /^(zlib|deflate|gzip)/i.test(fn)) return 'compression';
  if (/react-dom|react-server|\/react\/|app-page|app-render|server\.runtime/.test(url))
    return 'rendering (React, Next)';
  if (/@kubernetes|node-fetch|undici|node:https|node:_tls|node:tls|node:net|_http_|openid|jose/.test(url))
    return 'cluster and HTTP calls';
  if (/lib\/(hub|catalog|olm)\//.test(url) || /chunks\/.*(hub|catalog)/.test(url)) return 'console: catalog and hub';
  if (/next\/dist/.test(url)) return 'Next server (routing, middleware)';
  if (/^node:/.test(url)) return 'Node internals';
  return url ? 'other JavaScript' : 'native (V8 builtins)';
}

/** Self time in ms by kind, busiest first, leaving out idle time. */
export function cpuByKind(file: string, window?: Window): { kind: string; ms: number }[] {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  for (const { id, ms } of samplesOf(p, window)) {
    const n = byId.get(id);
    if (!n) continue;
    const kind = kindOf(n.callFrame.functionName, n.callFrame.url);
    if (kind === '(idle)') continue;
    totals.set(kind, (totals.get(kind) ?? 0) + ms);
  }
  return [...totals].map(([kind, ms]) => ({ kind, ms })).sort((a, b) => b.ms - a.ms);
}

/** The functions with the most self time, for finding waste within a kind. */
export function topFunctions(file: string, n = 12, window?: Window): { fn: string; ms: number }[] {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const totals = new Map<string, number>();
  for (const { id, ms } of samplesOf(p, window)) {
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') continue;
    const where = node.callFrame.url.replace(/^.*\/(node_modules|\.next)\//, '$1/');
    const key = `${node.callFrame.functionName || '(anonymous)'} ${where}`;
    totals.set(key, (totals.get(key) ?? 0) + ms);
  }
  return [...totals]
    .map(([fn, ms]) => ({ fn, ms }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n);
}
