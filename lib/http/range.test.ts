import { describe, expect, it } from 'vitest';
import { etagMatches, evaluatePreconditions, ifMatchPasses, ifRangeAllows, parseRanges } from './range';

describe('parseRanges', () => {
  const size = 1000;
  const one = (start: number, end: number) => ({ kind: 'partial', ranges: [{ start, end }] });
  it.each([
    ['bytes=0-99', one(0, 99)],
    ['bytes=500-', one(500, 999)],
    ['bytes=-100', one(900, 999)],
    ['bytes=-5000', one(0, 999)],
    ['bytes=990-5000', one(990, 999)],
    ['BYTES = 1-2', one(1, 2)],
    ['bytes=1000-', { kind: 'unsatisfiable' }],
    ['bytes=5000-6000', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=10-5', { kind: 'full' }],
    ['bytes=abc', { kind: 'full' }],
    ['items=0-5', { kind: 'full' }],
    ['bytes=-', { kind: 'full' }],
    ['bytes=', { kind: 'full' }],
    ['bytes=0-1,x', { kind: 'full' }],
    // Positions beyond 2^53: a huge first position is past the end, a huge last one clamps.
    ['bytes=99999999999999999999-', { kind: 'unsatisfiable' }],
    ['bytes=99999999999999999999-99999999999999999999', { kind: 'unsatisfiable' }],
    [`bytes=0-${2 ** 53 + 10}`, one(0, 999)],
    [`bytes=0-${'9'.repeat(400)}`, one(0, 999)],
    [`bytes=-${'9'.repeat(400)}`, one(0, 999)],
    [`bytes=${2 ** 53}-`, { kind: 'unsatisfiable' }],
  ])('%s', (header, expected) => {
    expect(parseRanges(header, size)).toEqual(expected);
  });

  it('keeps several ranges, sorted, coalescing overlapping and adjacent ones', () => {
    expect(parseRanges('bytes=0-9,100-109', size)).toEqual({ kind: 'partial', ranges: [{ start: 0, end: 9 }, { start: 100, end: 109 }] });
    expect(parseRanges('bytes=100-109, 0-9', size)).toEqual({ kind: 'partial', ranges: [{ start: 0, end: 9 }, { start: 100, end: 109 }] });
    expect(parseRanges('bytes=0-9,10-19', size)).toEqual(one(0, 19));
    expect(parseRanges('bytes=0-50,20-30,40-60', size)).toEqual(one(0, 60));
    expect(parseRanges('bytes=0-0,-1', size)).toEqual({ kind: 'partial', ranges: [{ start: 0, end: 0 }, { start: 999, end: 999 }] });
    expect(parseRanges('bytes=0-0,5000-6000', size)).toEqual(one(0, 0));
    expect(parseRanges('bytes=2000-,5000-6000', size)).toEqual({ kind: 'unsatisfiable' });
  });

  it('answers more than 16 ranges with the whole body', () => {
    const specs = (n: number) => 'bytes=' + Array.from({ length: n }, (_, i) => `${i * 10}-${i * 10 + 1}`).join(',');
    expect(parseRanges(specs(16), size)).toMatchObject({ kind: 'partial' });
    expect(parseRanges(specs(17), size)).toEqual({ kind: 'full' });
  });

  it('without a header is the full body; any range of an empty file is unsatisfiable', () => {
    expect(parseRanges(undefined, size)).toEqual({ kind: 'full' });
    expect(parseRanges('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRanges('bytes=-5', 0)).toEqual({ kind: 'unsatisfiable' });
  });
});

describe('validators', () => {
  const lm = new Date('2026-01-01T00:00:00.700Z');
  it('If-None-Match compares ETags weakly and accepts lists and *', () => {
    expect(etagMatches('"a"', '"a"')).toBe(true);
    expect(etagMatches('W/"a"', '"a"')).toBe(true);
    expect(etagMatches('"b", "a"', '"a"')).toBe(true);
    expect(etagMatches('*', '"a"')).toBe(true);
    expect(etagMatches('"b"', '"a"')).toBe(false);
    expect(etagMatches(undefined, '"a"')).toBe(false);
  });
  it('If-Match compares strongly', () => {
    expect(ifMatchPasses('"a"', '"a"')).toBe(true);
    expect(ifMatchPasses('"b", "a"', '"a"')).toBe(true);
    expect(ifMatchPasses('*', '"a"')).toBe(true);
    expect(ifMatchPasses('W/"a"', '"a"')).toBe(false);
    expect(ifMatchPasses('"b"', '"a"')).toBe(false);
  });
  it('If-Range allows the range only for the current strong ETag or exactly the Last-Modified date', () => {
    expect(ifRangeAllows(undefined, '"a"', lm)).toBe(true);
    expect(ifRangeAllows('"a"', '"a"', lm)).toBe(true);
    expect(ifRangeAllows('"b"', '"a"', lm)).toBe(false);
    expect(ifRangeAllows('W/"a"', '"a"', lm)).toBe(false);
    expect(ifRangeAllows(lm.toUTCString(), '"a"', lm)).toBe(true);
    expect(ifRangeAllows(new Date('2025-01-01').toUTCString(), '"a"', lm)).toBe(false);
    // A later date is not an exact match (RFC 9110 §13.1.5).
    expect(ifRangeAllows(new Date('2027-01-01').toUTCString(), '"a"', lm)).toBe(false);
    expect(ifRangeAllows('not a date', '"a"', lm)).toBe(false);
  });
});

describe('evaluatePreconditions (RFC 9110 §13.2.2)', () => {
  const rep = { etag: '"a"', lastModified: new Date('2026-01-01T00:00:00.700Z') };
  const at = (d: string) => new Date(d).toUTCString();
  const run = (method: string, h: Record<string, string>) => evaluatePreconditions(method, (n) => h[n], rep);
  it('If-None-Match: 304 on GET/HEAD, 412 on other methods; precedence over If-Modified-Since', () => {
    expect(run('GET', { 'if-none-match': '"a"' })).toBe('not-modified');
    expect(run('HEAD', { 'if-none-match': '"x", "a"' })).toBe('not-modified');
    expect(run('DELETE', { 'if-none-match': '*' })).toBe('failed');
    expect(run('GET', { 'if-none-match': '"x"', 'if-modified-since': at('2026-06-01') })).toBe('proceed');
  });
  it('If-Modified-Since: 304 when not modified since, ignored when invalid, in the future, or not GET/HEAD', () => {
    expect(run('GET', { 'if-modified-since': at('2026-01-01T00:00:00Z') })).toBe('not-modified');
    expect(run('HEAD', { 'if-modified-since': at('2026-01-02') })).toBe('not-modified');
    expect(run('GET', { 'if-modified-since': at('2025-12-31T23:59:59Z') })).toBe('proceed');
    expect(run('GET', { 'if-modified-since': 'yesterday' })).toBe('proceed');
    expect(run('GET', { 'if-modified-since': at('2999-01-01') })).toBe('proceed');
    expect(run('POST', { 'if-modified-since': at('2026-01-02') })).toBe('proceed');
  });
  it('If-Match / If-Unmodified-Since: 412 when false, and before If-None-Match', () => {
    expect(run('GET', { 'if-match': '"x"' })).toBe('failed');
    expect(run('GET', { 'if-match': '"a"' })).toBe('proceed');
    expect(run('GET', { 'if-match': '"x"', 'if-none-match': '"a"' })).toBe('failed');
    expect(run('GET', { 'if-unmodified-since': at('2025-12-31') })).toBe('failed');
    expect(run('GET', { 'if-unmodified-since': at('2026-01-01T00:00:00Z') })).toBe('proceed');
    // If-Match present: If-Unmodified-Since is not evaluated.
    expect(run('GET', { 'if-match': '"a"', 'if-unmodified-since': at('2025-12-31') })).toBe('proceed');
  });
});
