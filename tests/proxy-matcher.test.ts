import { describe, expect, it } from 'vitest';
import { config } from '../proxy';

/** Next's matcher syntax, as far as proxy.ts uses it: `:name` one segment, `:name*` any rest. */
const toRegExp = (pattern: string) =>
  new RegExp(`^${pattern.replace(/\/:[a-z]+\*/g, '(?:/.*)?').replace(/:[a-z]+/g, '[^/]+')}$`);

describe('proxy.ts matcher', () => {
  // Next caps and buffers request bodies that pass through the proxy (10 MB by default):
  // no upload path may match, or 48 MB parts and hosted uploads would break.
  it.each(['/api/shares/upload/chunk', '/api/upload', '/api/auth/login', '/p/site/index.html', '/f/abc/video.mp4', '/f/abc/unlock', '/r/abc/unlock', '/api/requests/abc/upload', '/files/share-target'])(
    'leaves %s alone',
    (path) => {
      expect(config.matcher.some((m) => toRegExp(m).test(path))).toBe(false);
    },
  );

  it.each(['/', '/admin', '/htmls', '/files', '/cli-login', '/f/abc', '/r/abc'])('covers the page %s', (path) => {
    expect(config.matcher.some((m) => toRegExp(m).test(path))).toBe(true);
  });
});
