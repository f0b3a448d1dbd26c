const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];
const INTL_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'];

const formats = new Map<string, Intl.NumberFormat>();
/** A size in a language's own words and digits ("1,0 Go", "200 МБ"): Intl's short unit. */
function intlSize(locale: string, v: number, i: number, digits: number): string {
  // English's short byte is "byte" ("5 byte"): the symbol reads better.
  if (i === 0 && /^en\b/.test(locale)) return `${Math.round(v)} B`;
  const key = `${locale}|${i}|${digits}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: 'unit', unit: INTL_UNITS[i], unitDisplay: 'short', minimumFractionDigits: digits, maximumFractionDigits: digits });
    formats.set(key, f);
  }
  return f.format(v);
}

/**
 * Binary units, as the contract counts them: 1 MB = 1,048,576 bytes. For people, on both sides.
 * With a locale, the number and unit are that language's (Intl); without, the English symbols.
 */
export function formatBytes(n: number, locale?: string): string {
  if (!Number.isFinite(n) || n < 0) return '—';
  let i = 0;
  let v = n;
  while (v >= 1024 && i < UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  // Whole bytes: a speed (bytes over seconds) is no count of bytes, and "206.06060606060606 B/s" helps no one.
  const digits = i === 0 ? 0 : v < 10 ? 1 : 0;
  if (locale) return intlSize(locale, i === 0 ? Math.round(v) : v, i, digits);
  return `${i === 0 ? Math.round(v) : v.toFixed(digits)} ${UNITS[i]}`;
}

/**
 * Two sizes said side by side ("at most 15 MB; these files are 15.3 MB"): with more precision
 * when the usual rounding would make different sizes read the same (issue 41, item 11).
 */
export function formatBytesPair(a: number, b: number, locale?: string): [string, string] {
  const [fa, fb] = [formatBytes(a, locale), formatBytes(b, locale)];
  if (fa !== fb || a === b) return [fa, fb];
  const i = Math.min(UNITS.length - 1, Math.max(0, Math.floor(Math.log(Math.max(a, b, 1)) / Math.log(1024))));
  const exact = (n: number) => (locale ? intlSize(locale, n / 1024 ** i, i, 2) : `${(n / 1024 ** i).toFixed(2)} ${UNITS[i]}`);
  if (exact(a) !== exact(b)) return [exact(a), exact(b)];
  if (locale) {
    const f = new Intl.NumberFormat(locale, { style: 'unit', unit: 'byte', unitDisplay: 'long' });
    return [f.format(a), f.format(b)];
  }
  return [`${a.toLocaleString('en-US')} bytes`, `${b.toLocaleString('en-US')} bytes`];
}

export const BYTE_UNITS = UNITS;
