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
  samples: number[];
  timeDeltas: number[];
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
export function cpuByKind(file: string): { kind: string; ms: number }[] {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  p.samples.forEach((id, i) => {
    const n = byId.get(id);
    if (!n) return;
    const kind = kindOf(n.callFrame.functionName, n.callFrame.url);
    if (kind === '(idle)') return;
    totals.set(kind, (totals.get(kind) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].map(([kind, ms]) => ({ kind, ms })).sort((a, b) => b.ms - a.ms);
}

/** The functions with the most self time, for finding waste within a kind. */
export function topFunctions(file: string, n = 12): { fn: string; ms: number }[] {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const totals = new Map<string, number>();
  p.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') return;
    const where = node.callFrame.url.replace(/^.*\/(node_modules|\.next)\//, '$1/');
    const key = `${node.callFrame.functionName || '(anonymous)'} ${where}`;
    totals.set(key, (totals.get(key) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals]
    .map(([fn, ms]) => ({ fn, ms }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n);
}
