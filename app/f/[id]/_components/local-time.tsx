'use client';

import { useEffect, useState } from 'react';
import { formatDate } from '@/lib/client/format';

/** True once hydrated: the visitor's locale and zone exist only in the browser. */
function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}

/** A date in the visitor's locale and time zone; the server's render says UTC. */
export function LocalTime({ iso }: { iso: string }) {
  const mounted = useMounted();
  const text = mounted ? formatDate(iso) : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
  return (
    <time dateTime={iso} title={iso}>
      {text}
    </time>
  );
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "in 3 days", "2 hours ago", in the visitor's language; rounded to the largest whole unit. */
function relativeTime(iso: string, now: number, locale?: string): string {
  const diff = new Date(iso).getTime() - now;
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return rtf.format(Math.trunc(diff / ms), unit);
  }
  return rtf.format(0, 'minute');
}

/** A relative hint ("expires in 3 days"), rendered only in the browser and kept current. */
export function RelativeTime({ iso, prefix = '' }: { iso: string; prefix?: string }) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(t);
  }, []);
  if (now === null) return null;
  return (
    <span data-testid="relative-time">
      {prefix}
      {relativeTime(iso, now)}
    </span>
  );
}
