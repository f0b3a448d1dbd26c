import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compress, hasContentHash, isCompressible, negotiate } from './compression';

describe('negotiate', () => {
  it('prefers Brotli, then gzip, honouring q=0 and *', () => {
    expect(negotiate('gzip, deflate, br, zstd', ['br', 'gzip'])).toBe('br');
    expect(negotiate('gzip', ['br', 'gzip'])).toBe('gzip');
    expect(negotiate('br;q=0, gzip;q=0.5', ['br', 'gzip'])).toBe('gzip');
    expect(negotiate('*', ['br', 'gzip'])).toBe('br');
    expect(negotiate('*, br;q=0', ['br', 'gzip'])).toBe('gzip');
    expect(negotiate('identity', ['br', 'gzip'])).toBeNull();
    expect(negotiate(undefined, ['br'])).toBeNull();
    expect(negotiate('br', [])).toBeNull();
    expect(negotiate('x-gzip', ['gzip'])).toBe('gzip');
  });
});

describe('hasContentHash', () => {
  it.each(['app.3f9a2b1c.js', 'assets/index-Cr4R_4-3.css', 'assets/vendor-react-BdG3x9Qa.js', 'chunk.9f86d081884c7d65.js', 'index-BdG3x9Qa.js.map', 'font.a1b2c3d4e5.woff2'])('%s has one', (p) => {
    expect(hasContentHash(p)).toBe(true);
  });
  it.each(['app.js', 'index.html', 'my-component-v2.js', 'jquery-3.7.1.min.js', 'main.abcdefgh.js', 'my-file2024.js', 'Settings.js', 'deadbeef.js', 'a-abcdefgh.css'])('%s has none', (p) => {
    expect(hasContentHash(p)).toBe(false);
  });
});

describe('compression', () => {
  it('compresses text types only, and round-trips', async () => {
    expect(isCompressible('text/html; charset=utf-8')).toBe(true);
    expect(isCompressible('text/javascript; charset=utf-8')).toBe(true);
    expect(isCompressible('application/json')).toBe(true);
    expect(isCompressible('image/svg+xml')).toBe(true);
    expect(isCompressible('image/png')).toBe(false);
    expect(isCompressible('application/zip')).toBe(false);
    const text = Buffer.from('hello hosted world '.repeat(200));
    expect(brotliDecompressSync(await compress(text, 'br')).equals(text)).toBe(true);
    expect(gunzipSync(await compress(text, 'gzip')).equals(text)).toBe(true);
  });
});
