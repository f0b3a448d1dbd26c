import { describe, expect, it } from 'vitest';
import { contentTypeFor, isActiveType, previewKind } from './mime';

describe('content types', () => {
  it('come from the extension, case-insensitively, and unknown ones are octet-stream', () => {
    expect(contentTypeFor('a/b/Movie.MP4')).toBe('video/mp4');
    expect(contentTypeFor('index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeFor('archive.xyz123')).toBe('application/octet-stream');
    expect(contentTypeFor('.bashrc')).toBe('application/octet-stream');
    expect(contentTypeFor('noext')).toBe('application/octet-stream');
  });

  it.each(['page.html', 'x.xhtml', 'pic.svg', 'feed.xml', 'app.js', 'mod.mjs', 'bin.wasm', 'doc.pdf', 'unknown.qqq'])('%s is active: attachment only on shares', (name) => {
    expect(isActiveType(contentTypeFor(name))).toBe(true);
  });

  it.each(['clip.mp4', 'song.mp3', 'photo.jpg', 'notes.txt', 'data.csv'])('%s may be shown inline', (name) => {
    expect(isActiveType(contentTypeFor(name))).toBe(false);
    expect(previewKind(contentTypeFor(name))).not.toBeNull();
  });
});
