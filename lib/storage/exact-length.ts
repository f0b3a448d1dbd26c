import 'server-only';
import { Transform } from 'node:stream';
import { StorageIncompleteBodyError } from './types';

/**
 * Passes exactly `size` bytes through and fails the stream otherwise, so a client that goes
 * away mid-part makes the store's request fail instead of waiting for bytes that never come.
 */
export function exactLength(size: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > size) return cb(new StorageIncompleteBodyError(`body longer than the announced ${size} bytes`));
      cb(null, chunk);
    },
    flush(cb) {
      cb(seen === size ? null : new StorageIncompleteBodyError(`body ended after ${seen} of ${size} bytes`));
    },
  });
}
