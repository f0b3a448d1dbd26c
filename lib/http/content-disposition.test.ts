import { describe, expect, it } from 'vitest';
import { asciiFallback, contentDisposition } from './content-disposition';

describe('contentDisposition', () => {
  it.each([
    ['report.pdf', `attachment; filename="report.pdf"`],
    ["it's fine.txt", `attachment; filename="it's fine.txt"`],
    ['.env', `attachment; filename=".env"`],
    ['Résumé (final).pdf', `attachment; filename="Resume (final).pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%28final%29.pdf`],
    ['naïve café.bin', `attachment; filename="naive cafe.bin"; filename*=UTF-8''na%C3%AFve%20caf%C3%A9.bin`],
    ['Straße.txt', `attachment; filename="Strasse.txt"; filename*=UTF-8''Stra%C3%9Fe.txt`],
    ['say "hi".txt', `attachment; filename="say _hi_.txt"; filename*=UTF-8''say%20%22hi%22.txt`],
    ['back\\slash.txt', `attachment; filename="back_slash.txt"; filename*=UTF-8''back%5Cslash.txt`],
    ['100%25 done.txt', `attachment; filename="100%25 done.txt"; filename*=UTF-8''100%2525%20done.txt`],
    ['日本語の資料.txt', `attachment; filename="_.txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E%E3%81%AE%E8%B3%87%E6%96%99.txt`],
    ['party 🎉.png', `attachment; filename="party _.png"; filename*=UTF-8''party%20%F0%9F%8E%89.png`],
    ['a__b.txt', `attachment; filename="a__b.txt"`],
  ])('%s', (name, expected) => {
    expect(contentDisposition(name)).toBe(expected);
  });

  it('inline keeps the same name rules', () => {
    expect(contentDisposition('é.txt', 'inline')).toBe(`inline; filename="e.txt"; filename*=UTF-8''%C3%A9.txt`);
  });

  it('decomposed accents are composed first (NFC) and stay one character', () => {
    const nfd = 'Re\u0301sume\u0301.pdf';
    expect(contentDisposition(nfd)).toBe(contentDisposition('Résumé.pdf'));
  });

  it('the fallback is always printable ASCII, never empty, and the extended value decodes back', () => {
    const names = ['\u0000\u001f.txt', '🎉', 'x'.repeat(50) + 'é'.repeat(75), 'tab\there', 'línea\nnueva'];
    for (const name of names) {
      const fb = asciiFallback(name);
      expect(fb).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
      const header = contentDisposition(name);
      expect(header).toMatch(/^[\x20-\x7e]+$/);
      const ext = /filename\*=UTF-8''(.+)$/.exec(header)![1];
      expect(decodeURIComponent(ext)).toBe(name.normalize('NFC'));
      expect(ext).toMatch(/^[A-Za-z0-9!#$&+\-.^_`|~%]+$/);
    }
  });
});
