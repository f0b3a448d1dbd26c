/**
 * The storage drivers' errors (lib/storage/types.ts re-exports them): plain classes, so
 * lib/errors.ts maps them with instanceof (one copy of lib/ per process: lib/http/next-link.ts).
 */
export class StorageNotFoundError extends Error {
  override name = 'StorageNotFoundError';
}

export class StorageUnavailableError extends Error {
  override name = 'StorageUnavailableError';
}

export class StorageInvalidKeyError extends Error {
  override name = 'StorageInvalidKeyError';
}

/** Complete named a part the store does not hold as named (replaced meanwhile, or too small). */
export class StorageInvalidPartError extends Error {
  override name = 'StorageInvalidPartError';
}

/** The body ended before the announced size (a client that went away mid-part). */
export class StorageIncompleteBodyError extends Error {
  override name = 'StorageIncompleteBodyError';
}
