import { describe, expect, it } from 'vitest';
import { etagMatches, ifRangeAllows, parseRange } from './range';

describe('parseRange', () => {
  const size = 1000;
  it.each([
    ['bytes=0-99', { kind: 'partial', range: { start: 0, end: 99 } }],
    ['bytes=500-', { kind: 'partial', range: { start: 500, end: 999 } }],
    ['bytes=-100', { kind: 'partial', range: { start: 900, end: 999 } }],
    ['bytes=-5000', { kind: 'partial', range: { start: 0, end: 999 } }],
    ['bytes=990-5000', { kind: 'partial', range: { start: 990, end: 999 } }],
    ['bytes=1000-', { kind: 'unsatisfiable' }],
    ['bytes=5000-6000', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=10-5', { kind: 'full' }],
    ['bytes=abc', { kind: 'full' }],
    ['items=0-5', { kind: 'full' }],
    ['bytes=0-1,5-6', { kind: 'full' }],
    ['bytes=-', { kind: 'full' }],
    ['bytes=99999999999999999999-', { kind: 'full' }],
  ])('%s', (header, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
  it('without a header is the full body', () => expect(parseRange(undefined, size)).toEqual({ kind: 'full' }));
  it('a range of an empty file is unsatisfiable', () => expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' }));
});

describe('validators', () => {
  it('If-None-Match compares ETags weakly and accepts lists and *', () => {
    expect(etagMatches('"a"', '"a"')).toBe(true);
    expect(etagMatches('W/"a"', '"a"')).toBe(true);
    expect(etagMatches('"b", "a"', '"a"')).toBe(true);
    expect(etagMatches('*', '"a"')).toBe(true);
    expect(etagMatches('"b"', '"a"')).toBe(false);
    expect(etagMatches(undefined, '"a"')).toBe(false);
  });
  it('If-Range allows the range only for the current ETag or an unchanged date', () => {
    const lm = new Date('2026-01-01T00:00:00Z');
    expect(ifRangeAllows(undefined, '"a"', lm)).toBe(true);
    expect(ifRangeAllows('"a"', '"a"', lm)).toBe(true);
    expect(ifRangeAllows('"b"', '"a"', lm)).toBe(false);
    expect(ifRangeAllows('W/"a"', '"a"', lm)).toBe(false);
    expect(ifRangeAllows(lm.toUTCString(), '"a"', lm)).toBe(true);
    expect(ifRangeAllows(new Date('2025-01-01').toUTCString(), '"a"', lm)).toBe(false);
  });
});
