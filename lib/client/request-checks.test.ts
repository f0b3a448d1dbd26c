import { describe, expect, it } from 'vitest';
import { createTranslator } from 'use-intl/core';
import en from '../../messages/en.json' with { type: 'json' };
import de from '../../messages/de.json' with { type: 'json' };
import { acceptAttribute, fileRefusal, listRefusal, mergePicked, namesInWords, sendRefusal, type Words } from './request-checks';

const words = (locale: 'en' | 'de', messages: typeof en): Words => ({ locale, t: createTranslator({ locale, messages, namespace: 'request' }) as unknown as Words['t'] });
const w = words('en', en);

const r = { maxFiles: 2, maxBytes: 1000, allowedTypes: ['.pdf', 'video/*'] };

describe('request checks at pick time', () => {
  it('builds the picker accept attribute from the allowed types', () => {
    expect(acceptAttribute(['video/*', '.pdf'])).toBe('video/*,.pdf');
    expect(acceptAttribute(null)).toBeUndefined();
  });

  it('flags a file of a refused type or too large on its own, with the reason', () => {
    expect(fileRefusal(r, { path: 'a.pdf', size: 10, type: 'application/pdf' }, w)).toBeNull();
    expect(fileRefusal(r, { path: 'clip.webm', size: 10, type: 'video/webm' }, w)).toBeNull();
    expect(fileRefusal(r, { path: 'notes.txt', size: 10, type: 'text/plain' }, w)).toBe('Not a type this request takes (PDF or video).');
    expect(fileRefusal(r, { path: 'big.pdf', size: 2000, type: 'application/pdf' }, w)).toMatch(/^Too large: this request takes at most 1000 B in all; this file is 2(\.0)? kB\.$/);
    expect(fileRefusal({ ...r, allowedTypes: null }, { path: 'x', size: 1, type: '' }, w)).toBeNull();
  });

  it('refuses the list for its count or total, and Send for any flagged file', () => {
    expect(listRefusal(r, [{ size: 1 }, { size: 1 }, { size: 1 }], w)).toBe('This request takes at most 2 files; you chose 3. Remove 1.');
    expect(listRefusal(r, [{ size: 600 }, { size: 600 }], w)).toMatch(/^This request takes at most .* in all; these files are .*\.$/);
    expect(sendRefusal(r, [], w)).toBe('Choose at least one file.');
    expect(sendRefusal(r, [{ path: 'n.txt', size: 1, type: 'text/plain' }], w)).toBe('n.txt: Not a type this request takes (PDF or video). Remove it to send the others.');
  });

  it('adds picks to the list, a path picked again replacing its file', () => {
    expect(mergePicked([{ path: 'a', v: 1 }, { path: 'b', v: 1 }], [{ path: 'b', v: 2 }, { path: 'c', v: 2 }])).toEqual([
      { path: 'a', v: 1 },
      { path: 'b', v: 2 },
      { path: 'c', v: 2 },
    ]);
  });

  it('names the files to pick again', () => {
    expect(namesInWords(['a'], w)).toBe('a');
    expect(namesInWords(['a', 'b', 'c'], w)).toBe('a, b, and c');
    expect(namesInWords(['1', '2', '3', '4', '5', '6', '7'], w)).toBe('1, 2, 3, 4, 5, and 2 more');
  });

  it('speaks the guest\'s language: sizes, lists and plurals through Intl and ICU', () => {
    const g = words('de', de);
    expect(listRefusal(r, [{ size: 1 }, { size: 1 }, { size: 1 }], g)).toMatch(/2 Dateien.*3.*1/);
    expect(namesInWords(['a', 'b', 'c'], g)).toBe('a, b und c');
    expect(fileRefusal(r, { path: 'notes.txt', size: 10, type: 'text/plain' }, g)).toBe('Diese Anfrage nimmt diesen Dateityp nicht an (PDF oder Video).');
    expect(fileRefusal(r, { path: 'big.pdf', size: 2000, type: 'application/pdf' }, g)).toMatch(/2,0 kB/);
  });
});
