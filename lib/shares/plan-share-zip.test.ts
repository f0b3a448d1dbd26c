import { describe, expect, it } from 'vitest';
import { safeFileName, zipBaseName } from './plan-share-zip';

const items = (...paths: string[]) => paths.map((relativePath) => ({ relativePath }));

describe("the share ZIP's file name", () => {
  it("is the note's, else the one folder's, else the share id's", () => {
    expect(zipBaseName({ id: 'Xk3f9', note: 'Holiday photos 2026' }, items('a.jpg', 'b.jpg'))).toBe('Holiday photos 2026');
    expect(zipBaseName({ id: 'Xk3f9', note: '' }, items('trip/a.jpg', 'trip/sub/b.jpg'))).toBe('trip');
    expect(zipBaseName({ id: 'Xk3f9', note: '' }, items('trip/a.jpg', 'other/b.jpg'))).toBe('Xk3f9');
    expect(zipBaseName({ id: 'Xk3f9', note: '' }, items('trip/a.jpg', 'b.jpg'))).toBe('Xk3f9');
    expect(zipBaseName({ id: 'Xk3f9', note: '  ' }, items('a.jpg'))).toBe('Xk3f9');
  });

  it('makes a note safe as a file name: no separators, reserved or control characters, one line, 80 characters', () => {
    expect(safeFileName('Q3 report: draft/final?\n"v2" <ok> *|\\')).toBe('Q3 report draft final v2 ok');
    expect(safeFileName('..hidden..')).toBe('hidden');
    expect(safeFileName('résumé 東京 🎉')).toBe('résumé 東京 🎉');
    expect([...safeFileName('é'.repeat(200))]).toHaveLength(80);
    expect(safeFileName('\u0000\u0007/')).toBe('');
  });
});
