import { describe, expect, it } from 'vitest';
import { siteListing } from './site-listing';

const file = (path: string) => ({ id: path, path, storageKey: 'k', size: 1, contentType: 'text/csv', tag: 't', encodings: new Map(), immutable: false, updatedAt: new Date() });
const site = (...paths: string[]) => ({ slug: 's', deployId: 'd', createdAt: new Date(), passwordHash: null, spa: false, allowDotfiles: false, files: new Map(paths.map((p) => [p, file(p)])), indexPath: null, rules: null });
const listing = (locale: 'en' | 'de' | 'ar' | 'pl', ...paths: string[]) => siteListing(site(...paths), '/p/s', { locked: false, preview: false, locale });
const body = (reply: ReturnType<typeof listing>) => String(reply.body);

describe('the file listing of a site without HTML', () => {
  it('counts its files in English: "its file", "its 3 files" (not "its 1 file")', () => {
    expect(body(listing('en', 'a.csv'))).toContain('<p>This site has no HTML page, so here is its file.</p>');
    expect(body(listing('en', 'a.csv', 'b.csv', 'c.csv'))).toContain('<p>This site has no HTML page, so here are its 3 files.</p>');
  });

  it('is in the visitor’s language, right to left in Arabic with the path left to right, and says so to caches', () => {
    const de = listing('de', 'a.csv', 'b.csv');
    expect(body(de)).toContain('<html lang="de" dir="ltr">');
    expect(body(de)).toContain('<title>/p/s · Dateien</title>');
    expect(body(de)).toContain('Diese Website hat keine HTML-Seite, daher hier ihre 2 Dateien.');
    expect(de.headers).toMatchObject({ 'Content-Language': 'de', Vary: 'Accept-Language, Cookie' });
    const ar = body(listing('ar', 'a.csv'));
    expect(ar).toContain('<html lang="ar" dir="rtl">');
    expect(ar).toContain('<h1><bdi dir="ltr">/p/s</bdi></h1>');
    // Polish counts in three forms.
    expect(body(listing('pl', 'a', 'b', 'c'))).toContain('oto jej 3 pliki.');
    expect(body(listing('pl', 'a', 'b', 'c', 'd', 'e'))).toContain('oto jej 5 plików.');
  });

  it('carries its icon inline: the hosted origin it is served on has no /favicon.ico', () => {
    expect(body(listing('en', 'a.csv'))).toContain('<link rel="icon" href="data:image/svg+xml,');
  });
});
