import 'server-only';
import type { ByteRange } from '../storage/types';

/**
 * RFC 9110 §13 (conditional requests) and §14 (range requests) for one representation of a
 * known size: the one parser and evaluator of every byte path (share items, the share ZIP,
 * hosted files). Pure functions; send-object.ts turns their answers into replies.
 */

/** More ranges than this in one request and the whole representation is sent (200). */
const MAX_RANGES = 16;

export type RangeResult =
  | { kind: 'full' }
  | { kind: 'partial'; ranges: ByteRange[] }
  | { kind: 'unsatisfiable' };

/** A decimal position; anything past 2^53 (or with hundreds of digits) is "beyond any size". */
function position(digits: string): number {
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : Infinity;
}

const SPEC = /^(\d*)[ \t]*-[ \t]*(\d*)$/;

/**
 * `Range: bytes=…` against a known size (RFC 9110 §14.1.2, §14.2). Malformed headers and other
 * units are ignored (full). Each satisfiable range is clamped to the size; overlapping or
 * adjacent ranges are coalesced (sorted by start); none satisfiable → unsatisfiable (416);
 * more than `maxRanges` range specs → full. Positions past 2^53 count as past the end.
 */
export function parseRanges(header: string | undefined, size: number, maxRanges = MAX_RANGES): RangeResult {
  if (!header) return { kind: 'full' };
  const m = /^[ \t]*bytes[ \t]*=(.*)$/i.exec(header);
  if (!m) return { kind: 'full' };
  const specs = m[1].split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (specs.length === 0 || specs.length > maxRanges) return { kind: 'full' };
  const ranges: ByteRange[] = [];
  for (const spec of specs) {
    const r = SPEC.exec(spec);
    if (!r || (r[1] === '' && r[2] === '')) return { kind: 'full' };
    if (r[1] === '') {
      const suffix = position(r[2]);
      if (suffix > 0 && size > 0) ranges.push({ start: Math.max(0, size - suffix), end: size - 1 });
      continue;
    }
    const start = position(r[1]);
    const end = r[2] === '' ? Infinity : position(r[2]);
    if (end < start) return { kind: 'full' }; // invalid range-spec: the header is ignored
    if (start < size) ranges.push({ start, end: Math.min(end, size - 1) });
  }
  if (ranges.length === 0) return { kind: 'unsatisfiable' };
  return { kind: 'partial', ranges: coalesce(ranges) };
}

/** Sorted, with overlapping and adjacent ranges merged. */
function coalesce(ranges: ByteRange[]): ByteRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const out: ByteRange[] = [{ ...sorted[0] }];
  for (const r of sorted.slice(1)) {
    const last = out[out.length - 1];
    if (r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

/** An HTTP-date to whole seconds, or null when it is not one (then the condition is ignored). */
function httpDateSeconds(v: string | undefined): number | null {
  if (!v) return null;
  const ms = Date.parse(v.trim());
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

function tags(list: string): string[] {
  return list.split(',').map((t) => t.trim()).filter(Boolean);
}

/** If-Match: strong comparison, `*` matches any current representation. */
export function ifMatchPasses(ifMatch: string, etag: string): boolean {
  if (ifMatch.trim() === '*') return true;
  if (etag.startsWith('W/')) return false;
  return tags(ifMatch).some((t) => t === etag);
}

/** If-None-Match: true when the client's copy is current (weak comparison; `*` matches). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return tags(ifNoneMatch).some((t) => t.replace(/^W\//, '') === bare);
}

/**
 * If-Range (RFC 9110 §13.1.5): the range applies only when the validator matches exactly —
 * a strong ETag equal to the current one, or an HTTP-date equal to Last-Modified.
 */
export function ifRangeAllows(ifRange: string | undefined, etag: string, lastModified: Date): boolean {
  if (ifRange === undefined) return true;
  const v = ifRange.trim();
  if (v.startsWith('"') || v.startsWith('W/')) return !v.startsWith('W/') && !etag.startsWith('W/') && v === etag;
  const date = httpDateSeconds(v);
  return date !== null && date === seconds(lastModified);
}

export type Preconditions = 'proceed' | 'not-modified' | 'failed';

/**
 * The precondition order of RFC 9110 §13.2.2 for a representation that exists: If-Match, else
 * If-Unmodified-Since (412 when false); If-None-Match, else If-Modified-Since on GET/HEAD
 * (304 when the copy is current; If-None-Match on other methods 412).
 */
export function evaluatePreconditions(
  method: string,
  header: (name: string) => string | undefined,
  validators: { etag: string; lastModified: Date },
): Preconditions {
  const { etag, lastModified } = validators;
  const ifMatch = header('if-match');
  if (ifMatch !== undefined) {
    if (!ifMatchPasses(ifMatch, etag)) return 'failed';
  } else {
    const ius = httpDateSeconds(header('if-unmodified-since'));
    if (ius !== null && seconds(lastModified) > ius) return 'failed';
  }
  const getOrHead = method === 'GET' || method === 'HEAD';
  const inm = header('if-none-match');
  if (inm !== undefined) {
    if (etagMatches(inm, etag)) return getOrHead ? 'not-modified' : 'failed';
  } else if (getOrHead) {
    const ims = httpDateSeconds(header('if-modified-since'));
    // A date in the future is not a valid validator (RFC 9110 §13.1.3): ignored.
    if (ims !== null && ims <= Date.now() / 1000 && seconds(lastModified) <= ims) return 'not-modified';
  }
  return 'proceed';
}
