import { statusByCode, type ErrorCode } from '../contract/error-codes';

/**
 * Codes a client gives its own failures, which never were a server's answer (the connection,
 * the local files, the user's own cancel): one closed list beside the contract's codes, so a
 * check like `e.code === 'stalld'` does not compile.
 */
export const CLIENT_ERROR_CODES = [
  /** The request never got an answer. */
  'network_error',
  /** No byte moved for the stall window. */
  'stalled',
  /** The whole request took longer than its limit. */
  'timeout',
  /** The bucket answered without exposing the ETag (its CORS rules). */
  'cors_error',
  /** An answer that carried no code of the contract (a proxy's page, an S3 XML error). */
  'http_error',
  /** The user stopped it. */
  'cancelled',
  /** The user paused it; the parts sent so far are kept. */
  'paused',
  /** Pause asked for with nothing in flight. */
  'not_paused',
  /** The files chosen to resume differ from the ones the upload began with. */
  'files_changed',
  /** A local file could not be read (CLI). */
  'local_file_error',
  /** No credentials saved (CLI). */
  'not_signed_in',
  /** A saved or given access token the server refused (CLI). */
  'token_refused',
  /** A username and password the server refused (CLI's login). */
  'wrong_credentials',
  /** A file request's password is needed and was not given (CLI). */
  'password_required',
] as const;

export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

/** Every code an ApiError may carry. */
export type ApiErrorCode = ErrorCode | ClientErrorCode;

/** A server's `code` as the client knows it: one of the contract's, else `http_error`. */
export const serverCode = (code: unknown): ErrorCode | 'http_error' =>
  typeof code === 'string' && Object.hasOwn(statusByCode, code) ? (code as ErrorCode) : 'http_error';
