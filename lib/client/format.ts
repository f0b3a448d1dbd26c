import { BYTE_UNITS as UNITS, formatBytes } from '../format-bytes';
import { statusByCode, type ErrorCode } from '../contract/error-codes';
import { ApiError } from './api';
import { CLIENT_ERROR_CODES, type ApiErrorCode, type ClientErrorCode } from './error-codes';

export { formatBytes };

export const formatSpeed = (bytesPerSecond: number) => `${formatBytes(bytesPerSecond)}/s`;

export function formatEta(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  if (seconds < 1) return 'less than a second';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

const durationParts = (seconds: number): [number, Intl.NumberFormatOptions['unit']][] => {
  const s = Math.round(seconds);
  if (s < 60) return [[s, 'second']];
  const m = Math.floor(s / 60);
  if (m < 60) return [[m, 'minute'], [s % 60, 'second']];
  return [[Math.floor(m / 60), 'hour'], [m % 60, 'minute']];
};

/** Time left in a language's own units ("2 min 5 sec", "2 Min., 5 Sek."): Intl's short units, listed by Intl. */
export function formatEtaIn(seconds: number, locale: string, underSecond: string): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  if (seconds < 1) return underSecond;
  const parts = durationParts(seconds).map(([n, unit]) => new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short' }).format(n));
  return new Intl.ListFormat(locale, { type: 'unit', style: 'narrow' }).format(parts);
}

/** "500 MB", "1.5 GB", "2048" (MB) → bytes; null when unreadable. */
export function parseSize(text: string, defaultUnit: 'MB' | 'GB' = 'MB'): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(B|KB|MB|GB|TB)?\s*$/i.exec(text);
  if (!m) return null;
  const unit = (m[2] ?? defaultUnit).toUpperCase();
  const bytes = Number(m[1]) * 1024 ** UNITS.indexOf(unit);
  return Number.isSafeInteger(Math.round(bytes)) ? Math.round(bytes) : null;
}

/**
 * The console's sentence for each of the server's error codes (lib/errors.ts): a new code
 * without an entry here fails `npm run typecheck`. null: the server's own sentence says it best
 * (it names the field, the part or the size).
 */
const SERVER: Record<ErrorCode, string | null> = {
  invalid_request: null,
  invalid_path: null,
  duplicate_path: null,
  too_many_files: 'Too many files in one upload.',
  too_large: 'This upload is larger than the limit.',
  token_too_short: null,
  token_too_weak: null,
  webhook_url_not_allowed: null,
  size_mismatch: 'A file changed size while it was being sent. Share it again.',
  // The server names the file and why ("is really image/png"): the generic sentence hid it.
  type_not_allowed: null,
  // The server names the file and the line ("_redirects line 4: …").
  invalid_site_rules: null,
  unauthenticated: 'Your session has ended. Sign in again.',
  wrong_password: 'Wrong password.',
  wrong_code: 'Wrong code (or a code used already).',
  forbidden: 'You are not allowed to do that.',
  account_disabled: 'This account is disabled. Ask the administrator.',
  insufficient_scope: null,
  not_found: null,
  method_not_allowed: 'The server does not take this request here.',
  request_timeout: 'The request took too long and the server closed it. Try again.',
  slug_taken: 'A project with that name exists. Choose another name, or tick “add to the existing project”.',
  domain_taken: 'That domain already belongs to another project. Remove it there first.',
  username_taken: 'That username is taken. Choose another.',
  upload_not_complete: null,
  already_completed: 'That upload is already complete.',
  too_many_pending: 'Too many unfinished uploads. Let them finish or discard some, then try again.',
  conflict: 'Someone changed this at the same time. Reload and try again.',
  expired: 'This share has expired.',
  download_limit: 'This share reached its download limit.',
  request_full: 'This request has received all the uploads it takes. Ask its owner for a new link.',
  quota_exceeded: 'Not enough free space in your quota for this upload.',
  part_too_large: null,
  body_too_large: 'The request is larger than the server takes.',
  unsupported_media_type: null,
  range_not_satisfiable: 'The requested range is outside the file.',
  rate_limited: 'Too many attempts. Try again in a minute.',
  internal_error: 'The server failed. Its log says why.',
  storage_unavailable: 'File storage is unavailable right now. Try again shortly.',
  migrations_pending: 'The server is being upgraded. Try again in a minute.',
  database_unavailable: 'The database is unavailable right now. Try again shortly.',
};

/** Codes the console raises itself (the others keep their own message). */
const CLIENT: Partial<Record<ClientErrorCode, string>> = {
  network_error: 'Could not reach the server. Check your connection and try again.',
};

const FRIENDLY: Partial<Record<ApiErrorCode, string | null>> = { ...SERVER, ...CLIENT };


/** A sentence for a person: the server's own message for validation, friendlier text otherwise (English). */
export function describeError(err: unknown, words?: ErrorWords): string {
  if (words) return describeIn(err, words);
  if (err instanceof ApiError) {
    if (err.code === 'rate_limited') return `Too many attempts. Try again in ${err.retryAfter ?? 60} seconds.`;
    // The quota message names the free space ("6.1 MB free"): better than the table's.
    if (err.code === 'quota_exceeded') return err.message || FRIENDLY.quota_exceeded!;
    return FRIENDLY[err.code] || err.message || 'Something is wrong with the request.';
  }
  if ((err as Error)?.name === 'AbortError') return 'Cancelled.';
  return (err as Error)?.message || 'Something went wrong.';
}

/**
 * The reader's language for describeError: the `errors` namespace of messages/<locale>.json
 * (a console hands it down through lib/client/error-text.ts). English keeps the server's own
 * sentences where they name the field, the part or the size; another language says what the
 * code means in its own words and quotes the server's sentence after it, as the detail.
 */
export interface ErrorWords {
  /** A key of the `errors` namespace, formatted with `values`. */
  t(key: string, values?: Record<string, string | number>): string;
  english: boolean;
}

const isServerCode = (code: string) => Object.hasOwn(statusByCode, code);
const isClientCode = (code: string) => (CLIENT_ERROR_CODES as readonly string[]).includes(code);

function describeIn(err: unknown, { t, english }: ErrorWords): string {
  if (err instanceof ApiError) {
    if (err.code === 'rate_limited') return t('rateLimited', { seconds: err.retryAfter ?? 60 });
    // i18n-keys: errors.code.*
    if (!isServerCode(err.code) && !isClientCode(err.code)) return err.message || t('unknown');
    const text = t(`code.${err.code}`);
    // The error's own sentence says more than the code: the server's names the field, the part
    // or the free space (null in the table), and a client failure says what it met.
    const own = err.message && (FRIENDLY[err.code] === null || err.code === 'quota_exceeded' || (isClientCode(err.code) && !CLIENT[err.code as ClientErrorCode]));
    if (!own) return text;
    if (english) return err.message;
    return isServerCode(err.code) ? t('withDetail', { text, detail: err.message }) : text;
  }
  if ((err as Error)?.name === 'AbortError') return t('cancelled');
  const message = (err as Error)?.message;
  if (!message) return t('generic');
  return english ? message : t('withDetail', { text: t('generic'), detail: message });
}

/** A date and time; in `locale` where the page has one (the reader's language), else the browser's. */
export function formatDate(iso: string | null, locale?: string): string {
  if (!iso) return 'never';
  return new Date(iso).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}
