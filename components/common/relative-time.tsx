'use client';
// A moment as people read it in a list ("3 min ago"), with the exact local time on hover and in
// the <time> element's dateTime for assistive technology; the words follow the clock each minute.
import { useEffect, useState } from 'react';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** "just now", "3 minutes ago", "in 2 hours": the largest whole unit. */
export function relativeWords(iso: string, now: number): string {
  const seconds = (Date.parse(iso) - now) / 1000;
  if (Math.abs(seconds) < 45) return 'just now';
  const fmt = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'minute') return fmt.format(Math.round(seconds / size), unit);
  }
  return 'just now';
}

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);
  return now;
}

export function RelativeTime({ iso, className }: { iso: string | undefined; className?: string }) {
  const now = useNow();
  if (!iso || Number.isNaN(Date.parse(iso))) return <span className={className}>—</span>;
  const exact = new Date(iso).toLocaleString();
  return (
    // The words differ between the server's render and the browser's by the time that passed.
    <time dateTime={iso} title={exact} className={className} suppressHydrationWarning>
      {relativeWords(iso, now)}
    </time>
  );
}
