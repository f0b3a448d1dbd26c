import { ApiError } from '../api';

/**
 * 1 s, 2 s, 4 s, 8 s… (at most 30 s), each between half and all of that: clients that failed
 * together do not retry together.
 */
export function backoffWithJitter(attempt: number, random = Math.random): number {
  const base = Math.min(30_000, 1000 * 2 ** (attempt - 1));
  return base / 2 + random() * (base / 2);
}

/** A failure that may go away by trying again: the network, a stall, a timeout, a limit, the server. */
export function isRetryable(e: unknown): boolean {
  if (!(e instanceof ApiError) || e.code === 'cancelled') return false;
  return e.status === 0 || e.status === 408 || e.status === 429 || e.status >= 500;
}

/** Cancelled by the caller (or by the first fatal failure of another part). */
export const isCancel = (e: unknown) => e instanceof ApiError && e.code === 'cancelled';
export const cancelled = () => new ApiError(0, 'cancelled', 'Upload cancelled');

/** The wait before retry `attempt`: the server's Retry-After when it is longer. */
export function retryDelay(e: unknown, attempt: number, backoff: (n: number) => number): number {
  const wait = backoff(attempt);
  return e instanceof ApiError && e.retryAfter ? Math.max(e.retryAfter * 1000, wait) : wait;
}

/** setTimeout that an abort ends early (with `cancelled`), leaving no listener behind. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(cancelled());
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
