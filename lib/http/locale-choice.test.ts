import { describe, expect, it } from 'vitest';
import { sameOriginPath } from './locale-choice';

describe('sameOriginPath — where the no-script picker may send a guest back to', () => {
  it('a path of this origin, with its query', () => {
    expect(sameOriginPath('/f/abc/report%20final.pdf?x=1')).toBe('/f/abc/report%20final.pdf?x=1');
    expect(sameOriginPath('/')).toBe('/');
  });

  it('refuses another host, a scheme, whitespace, control characters and a backslash', () => {
    for (const next of ['//evil.example/', '/\\evil.example', 'https://evil.example/', 'evil', '/\t/evil.example', '/a b', '/a\nb', '/a\\b', '']) {
      expect(sameOriginPath(next), JSON.stringify(next)).toBeNull();
    }
  });

  it('refuses characters past printable ASCII (a Location header cannot carry them: it was a 500)', () => {
    expect(sameOriginPath('/f/abc/файл.txt')).toBeNull();
    expect(sameOriginPath('/\u0100')).toBeNull();
    expect(sameOriginPath('/caf\u00e9')).toBeNull();
  });
});
