'use client';

import { useRef } from 'react';
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, LOCALE_NAMES, LOCALES, type Locale } from '@/lib/i18n/locales';

/**
 * The language picker of every page: each language in its own words; the choice is kept in the
 * `htmls_locale` cookie (SameSite=Lax, one year) and the page reloads in it. A pointer's pick
 * applies at once; from the keyboard the arrows only move, and Enter or leaving the field
 * applies (a page that reloads on each arrow would be unusable).
 */
export function LanguagePicker({ locale, label, className }: { locale: Locale; label: string; className?: string }) {
  const keyed = useRef(false);
  const apply = (value: string) => {
    if (value === locale) return;
    const secure = location.protocol === 'https:' ? '; Secure' : '';
    document.cookie = `${LOCALE_COOKIE}=${encodeURIComponent(value)}; Path=/; Max-Age=${LOCALE_COOKIE_MAX_AGE}; SameSite=Lax${secure}`;
    location.reload();
  };
  return (
    <label className={`inline-flex items-center gap-2 text-xs text-muted ${className ?? ''}`}>
      <span>{label}</span>
      <select
        data-testid="language-picker"
        defaultValue={locale}
        onKeyDown={(e) => {
          keyed.current = e.key !== 'Enter';
          if (e.key === 'Enter') apply(e.currentTarget.value);
        }}
        onPointerDown={() => {
          keyed.current = false;
        }}
        onChange={(e) => {
          if (!keyed.current) apply(e.target.value);
        }}
        onBlur={(e) => apply(e.target.value)}
        className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm text-zinc-900 max-sm:min-h-11 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
