/**
 * The languages the service speaks and how a request's language is chosen (docs/translations.md).
 * Pure: the pages in Next, the server's own HTML pages and the browser's language picker share it.
 * The order of choice: a member's profile setting (when there is one), else the picker's cookie,
 * else the browser's Accept-Language, else DEFAULT_LOCALE. No locale in any URL.
 */
export const LOCALES = ['en', 'de', 'fr', 'es', 'pt-BR', 'it', 'nl', 'pl', 'uk', 'tr', 'zh-CN', 'ja', 'ko', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];

/** Each language in its own words: what the picker lists, whatever the page's language. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  it: 'Italiano',
  nl: 'Nederlands',
  pl: 'Polski',
  uk: 'Українська',
  tr: 'Türkçe',
  'zh-CN': '简体中文',
  ja: '日本語',
  ko: '한국어',
  ar: 'العربية',
};

/** The picker's cookie: SameSite=Lax, one year, readable by the page that writes it. */
export const LOCALE_COOKIE = 'htmls_locale';
export const LOCALE_COOKIE_MAX_AGE = 365 * 86_400;

const RTL = new Set<Locale>(['ar']);
export const dirOf = (locale: Locale): 'rtl' | 'ltr' => (RTL.has(locale) ? 'rtl' : 'ltr');

/** An arrow that points back (a home link, "newer"): toward where the reading starts, so → in right-to-left text. */
export const backArrow = (locale: Locale): string => (dirOf(locale) === 'rtl' ? '→' : '←');
/** An arrow that points onward ("older"): the other way. */
export const forwardArrow = (locale: Locale): string => (dirOf(locale) === 'rtl' ? '←' : '→');

const BY_LOWER = new Map<string, Locale>(LOCALES.map((l) => [l.toLowerCase(), l]));

/**
 * One language tag to one of ours: exact (any case), else by its language alone — `de-AT` is
 * German, `pt-PT` Brazilian Portuguese, `zh`, `zh-SG` and `zh-Hans-*` Simplified Chinese; a
 * Traditional Chinese tag (`zh-TW`, `zh-HK`, `zh-Hant`) is not taken for Simplified.
 */
export function matchLocale(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const t = tag.trim().toLowerCase().replace(/_/g, '-');
  if (!/^[a-z]{2,3}(-[a-z0-9]{1,8})*$/.test(t)) return null;
  const exact = BY_LOWER.get(t);
  if (exact) return exact;
  const [lang, ...rest] = t.split('-');
  if (lang === 'zh') return rest.some((p) => p === 'hant' || p === 'tw' || p === 'hk' || p === 'mo') ? null : 'zh-CN';
  if (lang === 'pt') return 'pt-BR';
  return BY_LOWER.get(lang) ?? null;
}

export const isLocale = (v: unknown): v is Locale => typeof v === 'string' && BY_LOWER.get(v.toLowerCase()) === v;

/** Accept-Language's tags by preference (q descending, then order); `*` and q=0 left out. */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .slice(0, 1000)
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)).find(Boolean);
      return { tag: tag.trim(), q: q ? Number(q[1]) : 1, i };
    })
    .filter((x) => x.tag && x.tag !== '*' && x.q > 0 && Number.isFinite(x.q))
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((x) => x.tag);
}

/** The language of a request: profile, else cookie, else Accept-Language, else the default. */
export function negotiateLocale(opts: { profile?: string | null; cookie?: string | null; acceptLanguage?: string | null; defaultLocale: Locale }): Locale {
  if (opts.profile && isLocale(opts.profile)) return opts.profile;
  if (opts.cookie && isLocale(opts.cookie)) return opts.cookie;
  for (const tag of acceptedLanguages(opts.acceptLanguage)) {
    const l = matchLocale(tag);
    if (l) return l;
  }
  return opts.defaultLocale;
}
