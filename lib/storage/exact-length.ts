import 'server-only';
import { Transform, type Readable } from 'node:stream';
import { StorageIncompleteBodyError } from './types';

/**
 * Passes exactly `size` bytes through and fails the stream otherwise, so a client that goes
 * away mid-part makes the store's request fail instead of waiting for bytes that never come.
 * `observe` sees each chunk that passes.
 */
export function exactLength(size: number, observe?: (chunk: Buffer) => void): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > size) return cb(new StorageIncompleteBodyError(`body longer than the announced ${size} bytes`));
      observe?.(chunk);
      cb(null, chunk);
    },
    flush(cb) {
      cb(seen === size ? null : new StorageIncompleteBodyError(`body ended after ${seen} of ${size} bytes`));
    },
  });
}

/**
 * Why a body can give no more bytes before the store has started on it (its client went away
 * while the request was checked), or null. Its 'error' and 'close' events are already past, so a
 * store that waited for them would wait for ever.
 */
export function bodyGone(body: Readable): Error | null {
  if (body.errored) return body.errored;
  if (body.destroyed) return new StorageIncompleteBodyError('body closed before its first byte');
  return null;
}
