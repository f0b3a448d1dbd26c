'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import { callOperation } from '@/lib/client/api';
import { useDescribeError } from '@/lib/client/error-text';
import type { ResponseOf } from '@/lib/contract/operations';
import { formatBytes } from '@/lib/client/format';

type Activity = ResponseOf<'getShareActivity'>['activity'];

/** A day of the chart ("2026-12-07", UTC) in the reader's words ("7. Dez. 2026"). */
const dayIn = (day: string | undefined, locale: string) => (day ? new Date(`${day}T00:00:00Z`).toLocaleDateString(locale, { timeZone: 'UTC', dateStyle: 'medium' }) : '');

/**
 * Downloads per day as bars (plain SVG): all downloads light, completed ones solid. Time runs
 * with the reading direction: right to left in Arabic (the bars mirrored, as the caption's days).
 */
export function DownloadsChart({ perDay }: { perDay: Activity['per_day'] }) {
  const t = useTranslations('activity');
  const locale = useLocale();
  const max = Math.max(1, ...perDay.map((d) => d.downloads));
  const total = perDay.reduce((n, d) => n + d.downloads, 0);
  const completed = perDay.reduce((n, d) => n + d.completed, 0);
  const w = 10;
  return (
    <figure className="mt-2">
      <svg
        viewBox={`0 0 ${perDay.length * w} 60`}
        preserveAspectRatio="none"
        className="h-24 w-full text-indigo-600 rtl:-scale-x-100 dark:text-indigo-400"
        role="img"
        aria-label={t('chartLabel', { days: perDay.length, total, completed })}
        data-testid="downloads-chart"
      >
        <line x1="0" y1="59.5" x2={perDay.length * w} y2="59.5" stroke="currentColor" strokeOpacity="0.3" strokeWidth="1" />
        {perDay.map((d, i) => {
          const h = (d.downloads / max) * 56;
          const hc = (d.completed / max) * 56;
          return (
            <g key={d.day}>
              <title>{t('dayTitle', { day: dayIn(d.day, locale), count: d.downloads, completed: d.completed })}</title>
              <rect x={i * w + 1.5} y={60 - h} width={w - 3} height={h} fill="currentColor" fillOpacity="0.3" />
              <rect x={i * w + 1.5} y={60 - hc} width={w - 3} height={hc} fill="currentColor" data-completed={d.completed} />
            </g>
          );
        })}
      </svg>
      <figcaption className="mt-1 flex justify-between text-[11px] text-muted">
        <span>{dayIn(perDay[0]?.day, locale)}</span>
        <span>{t('caption', { total, completed })}</span>
        <span>{dayIn(perDay.at(-1)?.day, locale)}</span>
      </figcaption>
    </figure>
  );
}

/**
 * A share's Activity (GET /api/shares/:id/activity), fetched when opened: the chart, then who
 * downloaded what and when — the guest's network and browser only, kept for a set number of days.
 */
export function ShareActivity({ shareId }: { shareId: string }) {
  const t = useTranslations('activity');
  const locale = useLocale();
  const describeError = useDescribeError();
  const [activity, setActivity] = useState<Activity | null>(null);
  const [error, setError] = useState('');
  function toggled(open: boolean) {
    if (!open) return;
    callOperation('getShareActivity', { params: { id: shareId } }).then(
      (r) => setActivity(r.activity),
      (err) => setError(describeError(err)),
    );
  }
  return (
    <details className="mt-1 text-xs text-muted" onToggle={(e) => toggled(e.currentTarget.open)}>
      <summary className="cursor-pointer">{t('summary')}</summary>
      {error ? <p className="mt-1 text-red-600 dark:text-red-400">{error}</p> : null}
      {activity === null && !error ? <p className="mt-1">{t('loading')}</p> : null}
      {activity ? (
        <div className="mt-1">
          <DownloadsChart perDay={activity.per_day} />
          {activity.downloads.length === 0 ? (
            <p className="mt-2">{t('none', { days: activity.retention_days })}</p>
          ) : (
            <ul className="mt-2 divide-y divide-zinc-200 dark:divide-zinc-800" aria-label={t('listLabel')}>
              {activity.downloads.map((d, i) => (
                <li key={`${d.at}-${i}`} className="py-1.5">
                  <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                    <span className="break-all text-zinc-800 dark:text-zinc-200">{d.path ? <bdi>{d.path}</bdi> : t('everything')}</span>
                    <time dateTime={d.at}>{new Date(d.at).toLocaleString(locale)}</time>
                  </div>
                  <div className="flex flex-wrap gap-x-3">
                    <span>{d.completed ? t('completed') : t('partial')}</span>
                    <span>{d.completed || d.size === null ? formatBytes(d.bytes, locale) : t('bytesOf', { bytes: formatBytes(d.bytes, locale), size: formatBytes(d.size, locale) })}</span>
                    {d.address ? <bdi dir="ltr">{d.address}</bdi> : null}
                    {d.user_agent ? (
                      <bdi dir="ltr" className="max-w-full truncate" title={d.user_agent}>
                        {d.user_agent}
                      </bdi>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </details>
  );
}
