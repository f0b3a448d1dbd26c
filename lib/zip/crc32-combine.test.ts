import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32Combine, crc32OfParts } from './crc32-combine';

describe('crc32Combine', () => {
  it('equals the CRC of the joined bytes, for lengths from 0 to a few MiB', () => {
    for (const [a, b] of [
      [0, 0],
      [1, 0],
      [0, 7],
      [13, 1],
      [1000, 65_536],
      [5 << 20, 3 << 20],
    ]) {
      const x = randomBytes(a);
      const y = randomBytes(b);
      expect(crc32Combine(crc32(x), crc32(y), b)).toBe(crc32(Buffer.concat([x, y])));
    }
  });

  it('joins a file from its parts, in order', () => {
    const parts = [randomBytes(8 << 20), randomBytes(8 << 20), randomBytes(12_345)];
    const joined = crc32OfParts(parts.map((p) => ({ crc32: crc32(p), size: p.length })));
    expect(joined).toBe(crc32(Buffer.concat(parts)));
    expect(crc32OfParts(parts.slice(1).concat(parts[0]).map((p) => ({ crc32: crc32(p), size: p.length })))).not.toBe(joined);
  });

  it('refuses a length that is not a safe non-negative integer', () => {
    expect(() => crc32Combine(1, 2, -1)).toThrow(RangeError);
    expect(() => crc32Combine(1, 2, 1.5)).toThrow(RangeError);
  });
});
