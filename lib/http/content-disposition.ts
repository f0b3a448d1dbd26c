import 'server-only';
/**
 * The one Content-Disposition writer of every download (share items, the share ZIP; hosted
 * files set none). Rules (RFC 6266 + RFC 8187):
 * - `filename="…"` is always pure printable ASCII: accents are transliterated (é → e, ß → ss),
 *   anything else (CJK, emoji, controls, `"` and `\`) becomes `_`. Clients that only read
 *   `filename` (curl -OJ) get a safe, readable name.
 * - `filename*=UTF-8''…` carries the exact name whenever it is not plain printable ASCII without
 *   quotes or backslashes, and also when it holds a `%` (some clients percent-decode `filename`).
 * Framework-free and dependency-free: the header value is ASCII, so Node never rejects it.
 */

const SPECIAL: Record<string, string> = {
  ß: 'ss', ẞ: 'SS', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ø: 'o', Ø: 'O', đ: 'd', Đ: 'D', ð: 'd', Ð: 'D',
  þ: 'th', Þ: 'Th', ł: 'l', Ł: 'L', ı: 'i', ħ: 'h', Ħ: 'H', ŧ: 't', Ŧ: 'T', ŋ: 'ng', Ŋ: 'NG',
  '‘': "'", '’': "'", '‚': "'", '–': '-', '—': '-', '…': '...',
  '\u00a0': ' ', '×': 'x', '€': 'EUR', '£': 'GBP', '¥': 'JPY',
};

/** Plain printable ASCII without `"` and `\`: the only names `filename` carries verbatim. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** The name as pure printable ASCII: transliterated where possible, `_` for the rest. */
export function asciiFallback(name: string): string {
  let out = '';
  let lastWasReplacement = false;
  for (const ch of name.normalize('NFC')) {
    let ascii: string | undefined;
    if (PLAIN.test(ch)) ascii = ch;
    else if (SPECIAL[ch] !== undefined) ascii = SPECIAL[ch];
    else {
      const stripped = ch.normalize('NFKD').replace(/\p{M}/gu, '');
      if (stripped && PLAIN.test(stripped)) ascii = stripped;
    }
    if (ascii === undefined || (ascii === '_' && ch !== '_')) {
      // A run of untranslatable characters (a CJK word, an emoji sequence) is one `_`.
      if (!lastWasReplacement) out += '_';
      lastWasReplacement = true;
    } else {
      out += ascii;
      lastWasReplacement = false;
    }
  }
  return out || 'download';
}

/** RFC 8187 value-chars: attr-char stays, everything else is %XX of its UTF-8 bytes. */
function encodeExtValue(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/** True when `filename*` must accompany `filename` for this name. */
function needsExtendedName(name: string): boolean {
  return !PLAIN.test(name) || name.includes('%');
}

/** `attachment; filename="…"[; filename*=UTF-8''…]` (or `inline`). */
export function contentDisposition(name: string, type: 'attachment' | 'inline' = 'attachment'): string {
  const clean = name.normalize('NFC');
  const fallback = asciiFallback(clean);
  let value = `${type}; filename="${fallback}"`;
  if (needsExtendedName(clean)) value += `; filename*=UTF-8''${encodeExtValue(clean)}`;
  return value;
}
