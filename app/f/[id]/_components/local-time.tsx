'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';

/** True once hydrated: the visitor's locale and zone exist only in the browser. */
function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}

/** A date in the page's language and the visitor's time zone; the server's render says UTC. */
export function LocalTime({ iso }: { iso: string }) {
  const mounted = useMounted();
  const locale = useLocale();
  const text = mounted ? new Date(iso).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' }) : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
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

/** "in 3 days", "2 hours ago", in the page's language; rounded to the largest whole unit. */
function relativeTime(iso: string, now: number, locale: string): string {
  const diff = new Date(iso).getTime() - now;
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return rtf.format(Math.trunc(diff / ms), unit);
  }
  return rtf.format(0, 'minute');
}

/** A relative hint ("3 days ago", or "expires in 3 days"), rendered only in the browser and kept current. */
export function RelativeTime({ iso, expires = false }: { iso: string; expires?: boolean }) {
  const t = useTranslations('share');
  const locale = useLocale();
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(t);
  }, []);
  if (now === null) return null;
  const when = relativeTime(iso, now, locale);
  return <span data-testid="relative-time">{expires ? t('expiresIn', { when }) : when}</span>;
}
