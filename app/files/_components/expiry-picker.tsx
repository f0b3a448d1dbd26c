'use client';

import { useTranslations } from 'next-intl';

/** Days from now; 0 = never. */
const PRESETS = [1, 7, 30, 0];

/** A preset (days from now, 0 = never) or a day the link stops working (at its end, local time). */
export type ExpiryChoice = { days: number } | { date: string };

export function expiryFromChoice(c: ExpiryChoice, now = Date.now()): string | null {
  if ('date' in c) return new Date(`${c.date}T23:59:59`).toISOString();
  return c.days > 0 ? new Date(now + c.days * 86400_000).toISOString() : null;
}

/** `YYYY-MM-DDTHH:mm` in local time, as a datetime-local input shows it. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function ExpiryPicker({ value, onChange, disabled }: { value: ExpiryChoice; onChange: (c: ExpiryChoice) => void; disabled?: boolean }) {
  const t = useTranslations('upload');
  const date = 'date' in value ? value.date : '';
  return (
    <div>
      <span className="mb-1 block text-sm font-medium text-zinc-700 dark:text-zinc-300">{t('expires')}</span>
      <div className="flex flex-wrap gap-1" role="group" aria-label={t('expiry')}>
        {PRESETS.map((days) => {
          const on = !date && 'days' in value && value.days === days;
          return (
            <button
              key={days}
              type="button"
              disabled={disabled}
              aria-pressed={on}
              onClick={() => onChange({ days })}
              className={`rounded-md px-2.5 py-1.5 text-sm ring-1 max-sm:min-h-11 max-sm:min-w-11 ${on ? 'bg-indigo-600 text-white ring-indigo-600' : 'ring-zinc-300 dark:ring-zinc-700'}`}
            >
              {days ? t('days', { days }) : t('never')}
            </button>
          );
        })}
        <label className="sr-only" htmlFor="expiry-date">
          {t('expiryDate')}
        </label>
        <input
          id="expiry-date"
          type="date"
          value={date}
          disabled={disabled}
          min={toLocalInput(new Date().toISOString()).slice(0, 10)}
          aria-invalid={date !== '' && Date.parse(expiryFromChoice(value)!) <= Date.now()}
          onChange={(e) => onChange(e.target.value ? { date: e.target.value } : { days: 7 })}
          className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm aria-invalid:border-red-600 max-sm:min-h-11 dark:border-zinc-700 dark:bg-zinc-900"
        />
      </div>
    </div>
  );
}
