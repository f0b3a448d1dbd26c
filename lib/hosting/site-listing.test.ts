import { describe, expect, it } from 'vitest';
import { listingSentence } from './site-listing';

describe('the file listing of a site without HTML', () => {
  it('counts its files in English: "its file", "its 3 files" (not "its 1 file")', () => {
    expect(listingSentence(1)).toBe('This site has no HTML page, so here is its file.');
    expect(listingSentence(3)).toBe('This site has no HTML page, so here are its 3 files.');
  });
});
