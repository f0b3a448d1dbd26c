import { describe, expect, it } from 'vitest';
import { formatBytesPair } from '../format-bytes';
import { formatBytes, formatEta, parseSize } from './format';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KB'],
    [52_428_800, '50 MB'],
    [1.5 * 1024 ** 3, '1.5 GB'],
  ])('%d → %s', (n, s) => expect(formatBytes(n)).toBe(s));
});

describe('formatBytesPair', () => {
  it('says two different sizes differently, as one rule on the page and in the server’s answers', () => {
    // 15 MiB against 16,000,000 bytes: both "15 MB" alone.
    expect(formatBytesPair(15 * 1024 ** 2, 16_000_000)).toEqual(['15.00 MB', '15.26 MB']);
    expect(formatBytesPair(1024, 1025)).toEqual(['1,024 bytes', '1,025 bytes']);
    expect(formatBytesPair(1024, 2048)).toEqual(['1.0 KB', '2.0 KB']);
  });
});

describe('parseSize', () => {
  it('reads binary MB and GB, with MB as the default unit', () => {
    expect(parseSize('50')).toBe(52_428_800);
    expect(parseSize('50 MB')).toBe(52_428_800);
    expect(parseSize('1.5 gb')).toBe(1_610_612_736);
    expect(parseSize('2', 'GB')).toBe(2 * 1024 ** 3);
    expect(parseSize('lots')).toBeNull();
    expect(parseSize('-1')).toBeNull();
  });
});

describe('formatEta', () => {
  it('says seconds, minutes and hours', () => {
    expect(formatEta(0.2)).toBe('less than a second');
    expect(formatEta(42)).toBe('42 s');
    expect(formatEta(125)).toBe('2 min 5 s');
    expect(formatEta(3 * 3600 + 60)).toBe('3 h 1 min');
    expect(formatEta(Infinity)).toBe('—');
  });
});
