import { AppError } from '../errors';

const MAX_SEGMENT_BYTES = 255;
/** Keys stay under 1,024 bytes with the longest prefix (`files/<64-char slug>/<batch>/`). */
const MAX_PATH_BYTES = 940;

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/**
 * Characters that render as nothing, so two names look the same. Zero-width (non-)joiners
 * (U+200C/D) stay allowed: Persian, Indic scripts and emoji sequences need them.
 */
const INVISIBLE = /[\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180e\u200b\u2060-\u2064\u206a-\u206f\u2800\u3164\ufeff\uffa0\ufff9-\ufffb]|\u{e0001}|[\u{e0002}-\u{e001f}]/u;
/**
 * Spaces other than U+0020 (and the no-break and ideographic ones real names use): "a b" and
 * "a\u2002b" look the same, and U+1680 passes for a dash or a space.
 */
const SPACE_LIKE = /[\u1680\u2000-\u200a\u202f\u205f]/;
// `* ? < > | "` stay allowed (issue 22, item 12, decided): they are legal on Linux and macOS,
// names like `say "hi".txt` must download exactly (issue 10), listings render names as text and
// Content-Disposition escapes them; Windows' unzip replaces them. See docs/security.md.

/** Characters that look like "/" or "\\", so a name passes for a folder path. */
const SLASH_LIKE = /[\u0337\u0338\u1735\u2044\u2215\u2216\u2571\u2572\u27cb\u27cd\u29f5\u29f8\u29f9\u2f03\ufe68\uff0f\uff3c]/;
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

function problem(path: string): string | null {
  if (path.length === 0) return 'is empty';
  if (CONTROL.test(path)) return 'contains a control character';
  if (BIDI.test(path)) return 'contains a bidirectional-text control character';
  if (INVISIBLE.test(path)) return 'contains an invisible character';
  if (SPACE_LIKE.test(path)) return 'contains a character that looks like a space';
  if (SLASH_LIKE.test(path)) return 'contains a character that looks like a slash';
  if (path.includes('\\')) return 'contains a backslash';
  if (path.startsWith('/')) return 'is absolute';
  if (/^[a-z]:/i.test(path)) return 'starts with a drive letter';
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) return `is longer than ${MAX_PATH_BYTES} bytes`;
  for (const segment of path.split('/')) {
    if (segment === '') return 'has an empty folder name';
    if (segment === '.' || segment === '..') return `has a "${segment}" segment`;
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) return `has a name longer than ${MAX_SEGMENT_BYTES} bytes`;
    if (/[. ]$/.test(segment)) return 'has a name ending in a dot or a space';
    if (RESERVED.test(segment)) return `uses the reserved name "${segment}"`;
  }
  return null;
}

/**
 * Checks a client's relative path and returns its NFC form. The NFKC form is checked too,
 * since tools that apply it would turn `．．／` into `../`.
 */
export function sanitizeRelativePath(input: string): string {
  const nfc = input.normalize('NFC');
  const why = problem(nfc) ?? problem(nfc.normalize('NFKC'));
  if (why) throw new AppError('invalid_path', `The path ${JSON.stringify(input.slice(0, 300))} ${why}`);
  return nfc;
}

/** What two paths must not share within one project or share: NFC, then case-folded. */
export const pathKey = (path: string) => path.normalize('NFC').toLowerCase().normalize('NFC');

/**
 * Decodes a URL path (each segment once) into a relative path, or null when malformed. A NUL
 * is malformed too: no stored path has one, and the database refuses it in a query (a 500).
 */
export function decodeUrlPath(encoded: string): string | null {
  try {
    const decoded = encoded
      .split('/')
      .map((s) => decodeURIComponent(s))
      .join('/');
    return decoded.includes('\0') ? null : decoded;
  } catch {
    return null;
  }
}

/** The URL form of a stored relative path: each segment encoded. */
export const encodeUrlPath = (path: string) => path.split('/').map(encodeURIComponent).join('/');
