import { BYTE_UNITS as UNITS, formatBytes } from '../format-bytes';
import { ApiError } from './api';

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

/** "500 MB", "1.5 GB", "2048" (MB) → bytes; null when unreadable. */
export function parseSize(text: string, defaultUnit: 'MB' | 'GB' = 'MB'): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(B|KB|MB|GB|TB)?\s*$/i.exec(text);
  if (!m) return null;
  const unit = (m[2] ?? defaultUnit).toUpperCase();
  const bytes = Number(m[1]) * 1024 ** UNITS.indexOf(unit);
  return Number.isSafeInteger(Math.round(bytes)) ? Math.round(bytes) : null;
}

const FRIENDLY: Record<string, string> = {
  network_error: 'Could not reach the server. Check your connection and try again.',
  unauthenticated: 'Your session has ended. Sign in again.',
  forbidden: 'You are not allowed to do that.',
  account_disabled: 'This account is disabled. Ask the administrator.',
  quota_exceeded: 'Not enough free space in your quota for this upload.',
  username_taken: 'That username is taken. Choose another.',
  slug_taken: 'A project with that name exists. Choose another name, or tick “add to the existing project”.',
  too_many_files: 'Too many files in one upload.',
  too_large: 'This upload is larger than the limit.',
  migrations_pending: 'The server is being upgraded. Try again in a minute.',
  storage_unavailable: 'File storage is unavailable right now. Try again shortly.',
  database_unavailable: 'The database is unavailable right now. Try again shortly.',
};

/** A sentence for a person: the server's own message for validation, friendlier text otherwise. */
export function describeError(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code === 'rate_limited') return `Too many attempts. Try again in ${err.retryAfter ?? 60} seconds.`;
    if (err.code === 'quota_exceeded' || err.code === 'invalid_request' || err.code === 'invalid_path' || err.code === 'duplicate_path') {
      return err.message || FRIENDLY[err.code] || 'Something is wrong with the request.';
    }
    return FRIENDLY[err.code] ?? err.message;
  }
  if ((err as Error)?.name === 'AbortError') return 'Cancelled.';
  return (err as Error)?.message || 'Something went wrong.';
}

export function formatDate(iso: string | null): string {
  if (!iso) return 'never';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
