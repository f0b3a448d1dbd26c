import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32Combine } from './crc32-combine';

// The slow tier (`npm run test:slow`, run once by CI): this case hashes 8 GiB of zeros.
describe('crc32Combine', () => {
  it('handles a second run above 4 GiB (a length past 32 bits)', () => {
    const a = randomBytes(100);
    const n = 2 ** 32 + 5;
    const zeros = Buffer.alloc(64 << 20);
    /** CRC of n zero bytes streamed after `start`'s CRC, in 64 MiB steps. */
    const streamZeros = (start: number) => {
      let crc = start;
      for (let left = n; left > 0; left -= zeros.length) crc = crc32(zeros.subarray(0, Math.min(left, zeros.length)), crc);
      return crc;
    };
    expect(crc32Combine(crc32(a), streamZeros(0), n)).toBe(streamZeros(crc32(a)));
  });
});
