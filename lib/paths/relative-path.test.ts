import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { decodeUrlPath, encodeUrlPath, pathKey, sanitizeRelativePath } from './relative-path';

const bad: [string, RegExp][] = [
  ['', /empty/],
  ['../etc/passwd', /".."/],
  ['a/../../b', /".."/],
  ['./a', /"."/],
  ['a//b', /empty folder/],
  ['a/', /empty folder/],
  ['/etc/passwd', /absolute/],
  ['C:/Windows/x', /drive/],
  ['c:evil', /drive/],
  ['a\\b', /backslash/],
  ['a\u0000b', /control/],
  ['line\nbreak', /control/],
  ['del\u007f', /control/],
  ['evil\u202egnp.exe', /bidirectional/],
  ['x\u2066y', /bidirectional/],
  ['mark\u200e', /bidirectional/],
  ['CON', /reserved/],
  ['dir/nul.txt', /reserved/],
  ['LPT1.log', /reserved/],
  ['trailing.', /dot or a space/],
  ['trailing ', /dot or a space/],
  ['．．/x', /".."/], // fullwidth dots: NFKC makes them ".."
  ['a／..／b', /slash/], // fullwidth solidus
  ['x'.repeat(256), /255 bytes/],
  ['é'.repeat(128), /255 bytes/], // 256 bytes in UTF-8
  [`${'a/'.repeat(480)}b`, /940 bytes/],
  // Invisible characters make two names look alike ("report.pdf" and "report\u200b.pdf").
  ['report\u200b.pdf', /invisible/],
  ['a\u2060b', /invisible/],
  ['\ufeffindex.html', /invisible/],
  ['x\u00ady', /invisible/],
  ['x\u180ey', /invisible/],
  ['\u3164', /invisible/],
  ['x\u2064y', /invisible/],
  // Slash look-alikes make one name pass for a folder path ("docs∕invoice.pdf").
  ['docs\u2215invoice.pdf', /slash/],
  ['1\u20442.txt', /slash/],
  ['big\u29f8solidus', /slash/],
  ['full\uff0fwidth', /slash/], // NFKC turns it into a real "/", which the segment check allows
  ['box\u2571drawing', /slash/],
  ['over\u0338lay', /slash/],
  ['set\u2216minus', /slash/],
  ['full\uff3cwidth', /slash/],
  // Issue 22, item 12: look-alikes the review still got through.
  ['braille\u2800blank.txt', /invisible/],
  ['\u{e0001}tag.txt', /invisible/],
  ['x\u{e0010}y', /invisible/],
  ['ogham\u1680space.txt', /space/],
  ['en\u2002space.txt', /space/],
];

describe('sanitizeRelativePath', () => {
  it.each(bad)('rejects %j', (input, why) => {
    try {
      sanitizeRelativePath(input);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).code).toBe('invalid_path');
      expect((e as AppError).message).toMatch(why);
      expect((e as AppError).status).toBe(400);
    }
  });

  it('accepts ordinary nested paths, unicode and dots inside names', () => {
    expect(sanitizeRelativePath('site/css/app.css')).toBe('site/css/app.css');
    expect(sanitizeRelativePath('.well-known/x')).toBe('.well-known/x');
    expect(sanitizeRelativePath('视频/假期 2026.mp4')).toBe('视频/假期 2026.mp4');
    expect(sanitizeRelativePath('a..b/c')).toBe('a..b/c');
    expect(sanitizeRelativePath('x'.repeat(255))).toHaveLength(255);
    // Joiners are part of real writing: Persian names and emoji sequences keep them.
    expect(sanitizeRelativePath('\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645.txt')).toContain('\u200c');
    expect(sanitizeRelativePath('\u{1f468}\u200d\u{1f469}\u200d\u{1f467}.jpg')).toContain('\u200d');
    // Tag characters of a subdivision flag (Scotland), the ideographic space of Japanese names.
    expect(sanitizeRelativePath('\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}.png')).toContain('\u{e007f}');
    expect(sanitizeRelativePath('資料\u30002026.pdf')).toContain('\u3000');
    // Legal on Linux and macOS, downloaded exactly (kept on purpose: docs/security.md).
    expect(sanitizeRelativePath('say "hi" *now*? <b>|</b>.txt')).toBe('say "hi" *now*? <b>|</b>.txt');
  });

  it('returns the NFC form', () => {
    const nfd = 'cafe\u0301.txt';
    expect(sanitizeRelativePath(nfd)).toBe('caf\u00e9.txt');
  });
});

describe('pathKey', () => {
  it('equates NFC/NFD and case variants', () => {
    expect(pathKey('Cafe\u0301.TXT')).toBe(pathKey('café.txt'));
    expect(pathKey('a/B')).not.toBe(pathKey('a/C'));
  });
});

describe('URL paths', () => {
  it('decode each segment once and round-trip', () => {
    expect(decodeUrlPath('a%20b/%E8%A7%86.mp4')).toBe('a b/视.mp4');
    expect(decodeUrlPath('%2e%2e%252f')).toBe('..%2f');
    expect(decodeUrlPath('%E0%A4%A')).toBeNull();
    expect(decodeUrlPath('a/%00')).toBeNull();
    expect(encodeUrlPath('a b/视#?.mp4')).toBe('a%20b/%E8%A7%86%23%3F.mp4');
  });
});
