import { describe, expect, it } from 'vitest';
import { listingSentence, siteListing } from './site-listing';

describe('the file listing of a site without HTML', () => {
  it('counts its files in English: "its file", "its 3 files" (not "its 1 file")', () => {
    expect(listingSentence(1)).toBe('This site has no HTML page, so here is its file.');
    expect(listingSentence(3)).toBe('This site has no HTML page, so here are its 3 files.');
  });

  it('carries its icon inline: the hosted origin it is served on has no /favicon.ico', () => {
    const file = { id: 'f', path: 'a.csv', storageKey: 'k', size: 1, contentType: 'text/csv', tag: 't', encodings: new Map(), immutable: false, updatedAt: new Date() };
    const site = { slug: 's', deployId: 'd', createdAt: new Date(), passwordHash: null, spa: false, allowDotfiles: false, files: new Map([['a.csv', file]]), indexPath: null, rules: null };
    const body = String(siteListing(site, '/p/s', { locked: false, preview: false }).body);
    expect(body).toContain('<link rel="icon" href="data:image/svg+xml,');
    expect(body).toContain('here is its file');
  });
});
