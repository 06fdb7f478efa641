// Small shared tools for the benchmarks: timing, medians, heap after a full GC.
import { performance } from 'node:perf_hooks';

export function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (!g) throw new Error('run benchmarks with --expose-gc (npm run bench does)');
  g();
  g();
}

export function heapUsedMb(): number {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

export function time<T>(fn: () => T): { ms: number; value: T } {
  const t0 = performance.now();
  const value = fn();
  return { ms: performance.now() - t0, value };
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function fmt(n: number, digits = 1): string {
  return n.toFixed(digits);
}
