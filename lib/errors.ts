/** The error codes of the HTTP contract and how server errors map to them. */
import { StorageNotFoundError, StorageUnavailableError } from './storage/errors';

export { statusByCode, type ErrorCode } from './contract/error-codes';
import { statusByCode, type ErrorCode } from './contract/error-codes';

/** The one error type the domain throws; its code decides the HTTP status. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string | string[]> = {},
    /** Extra fields of the error body, e.g. every schema violation. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.status = statusByCode[code];
  }
}

export const notFound = (what = 'Not found') => new AppError('not_found', what);
export const badRequest = (message: string) => new AppError('invalid_request', message);

export type ErrorBody = { error: string; code: ErrorCode; [extra: string]: unknown };

/**
 * Maps anything thrown to the contract's error body. Unknown errors become a 500 without
 * detail; the full error goes to the server log only.
 */
export function toErrorBody(err: unknown): { status: number; body: ErrorBody; headers: Record<string, string | string[]> } {
  if (err instanceof AppError) {
    return { status: err.status, body: { ...err.details, error: err.message, code: err.code }, headers: err.headers };
  }
  const mapped = mapInfrastructureError(err);
  if (mapped) return { status: mapped.status, body: { error: mapped.message, code: mapped.code }, headers: {} };
  console.error('[htmls] internal error:', err);
  return { status: 500, body: { error: 'Internal error', code: 'internal_error' }, headers: {} };
}

/** Storage and database outages are the caller's to retry, not a bug: 502/503. */
function mapInfrastructureError(err: unknown): AppError | undefined {
  const e = err as { name?: string; code?: string; $metadata?: unknown; errno?: unknown } | undefined;
  if (!e || typeof e !== 'object') return;
  if (err instanceof StorageNotFoundError) {
    // An object its record names has gone from the store (removed behind the service's back,
    // or a clean-up racing the request): what the guest asked for is not there.
    console.error('[htmls] object missing from the store:', (err as Error).message);
    return notFound();
  }
  if (err instanceof StorageUnavailableError) {
    console.error('[htmls] storage unavailable:', err);
    return new AppError('storage_unavailable', 'The object store is unavailable; try again shortly');
  }
  const dbCodes = ['ECONNREFUSED', 'ECONNRESET', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', '57P01', '57P02', '57P03', '08006', '08001', '08003'];
  // Drizzle wraps the driver's error ("Failed query: …") with the real one as its cause.
  let code: unknown;
  for (let c: { code?: unknown; cause?: unknown } | undefined = e, depth = 0; c && depth < 5; c = c.cause as typeof c, depth++) {
    if (typeof c.code === 'string' && dbCodes.includes(c.code)) code = c.code;
    // 55000 is a class of states; at connect it is a database refusing connections.
    const message = (c as { message?: unknown }).message;
    if (c.code === '55000' && typeof message === 'string' && /not currently accepting connections/.test(message)) code = c.code;
  }
  if (code !== undefined) {
    console.error('[htmls] database unavailable:', code);
    return new AppError('database_unavailable', 'The database is unavailable; try again shortly');
  }
}

/** Any /api path no route claims (server.ts for /api itself, app/api/[...path] for the rest). */
export const noSuchApiRoute = () => notFound('No such API route');
