/**
 * Where this origin may send a browser back to (a form's or a sign-in's `next`): a path of this
 * origin only, never an open redirect. One rule for every such place (the language picker, the
 * project unlock form, the sign-in's return_to), so none of them drifts into a looser one. Pure:
 * lib/http and lib/auth both import it.
 */

/** Longer than any page of ours: a `next` this long is no link we handed out. */
const MAX_LENGTH = 2048;

/**
 * `value` when it is a path of this origin, else null:
 * - one leading slash, and no `//` anywhere in the path (a browser reads `//host` as another
 *   host; a query may carry a URL);
 * - no backslash (a browser reads `/\host` as `//host`);
 * - no whitespace or control character (a browser drops a tab or newline, which could make
 *   `/\t/evil` into `//evil`);
 * - printable ASCII only (a page's own URL is percent-encoded; a character past it is no path of
 *   ours, and a Location header could not carry it).
 */
export function sameOriginPath(value: string | null | undefined): string | null {
  if (!value || value.length > MAX_LENGTH) return null;
  return /^(?![^?#]*\/\/)\/[\x21-\x5b\x5d-\x7e]*$/.test(value) ? value : null;
}

/**
 * `value` with each character past ASCII percent-encoded as UTF-8 (`/café` → `/caf%C3%A9`), for
 * the callers that take a typed or decoded path; ASCII, controls and backslashes included, is
 * left for sameOriginPath() to judge.
 */
export function encodeNonAscii(value: string): string {
  return value.replace(/[^\x00-\x7f]+/gu, (s) => {
    try {
      return encodeURIComponent(s);
    } catch {
      // A lone surrogate: no character at all.
      return '\u0000';
    }
  });
}
