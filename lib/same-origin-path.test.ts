import { describe, expect, it } from 'vitest';
import { encodeNonAscii, sameOriginPath } from './same-origin-path';

// The one rule of the language picker's `next`, the project unlock form's `next` and the
// sign-in's `return_to`: each place's attacks are here together.
describe('sameOriginPath — where this origin may send a browser back to', () => {
  it('a path of this origin, with its query and fragment', () => {
    expect(sameOriginPath('/f/abc/report%20final.pdf?x=1')).toBe('/f/abc/report%20final.pdf?x=1');
    expect(sameOriginPath('/')).toBe('/');
    expect(sameOriginPath('/files#settings')).toBe('/files#settings');
    expect(sameOriginPath('/p/site/a/../b')).toBe('/p/site/a/../b');
    // A query may carry a URL; only the path is read as a host.
    expect(sameOriginPath('/f/abc?from=https://example.com/x')).toBe('/f/abc?from=https://example.com/x');
  });

  it('refuses another host, a scheme, whitespace, control characters and a backslash', () => {
    const attacks = [
      // The language picker's.
      '//evil.example/', '/\\evil.example', 'https://evil.example/', 'evil', '/\t/evil.example', '/a b', '/a\nb', '/a\\b', '',
      // The sign-in's return_to.
      '//evil.example/x', '\\\\evil.example', 'http://files.example.com/', 'javascript:alert(1)', 'data:text/html,x', '/files\n', 'files',
      // The unlock form's: a `//` or a backslash further in.
      '/p/site/\\evil', '/p/site//evil.example', '/p/site//evil.example?x#y',
      // Each control character, and DEL.
      '/a\u0000', '/a\r', '/a\u001f', '/a\u007f',
    ];
    for (const next of attacks) expect(sameOriginPath(next), JSON.stringify(next)).toBeNull();
    expect(sameOriginPath(null)).toBeNull();
    expect(sameOriginPath(undefined)).toBeNull();
    expect(sameOriginPath(`/${'a'.repeat(2048)}`)).toBeNull();
  });

  it('refuses characters past printable ASCII (a Location header cannot carry them: it was a 500)', () => {
    expect(sameOriginPath('/f/abc/файл.txt')).toBeNull();
    expect(sameOriginPath('/\u0100')).toBeNull();
    expect(sameOriginPath('/caf\u00e9')).toBeNull();
    expect(sameOriginPath('/a\u00a0b')).toBeNull();
    expect(sameOriginPath('/a\u2028b')).toBeNull();
  });
});

describe('encodeNonAscii — a typed path made ASCII, for sameOriginPath to judge', () => {
  it('percent-encodes each character past ASCII as UTF-8, and leaves ASCII alone', () => {
    expect(encodeNonAscii('/p/x/日本語/café.html?q=ü')).toBe('/p/x/%E6%97%A5%E6%9C%AC%E8%AA%9E/caf%C3%A9.html?q=%C3%BC');
    expect(encodeNonAscii('/a b\\c\t')).toBe('/a b\\c\t');
  });

  it('a lone surrogate becomes a control character, which sameOriginPath refuses', () => {
    expect(sameOriginPath(encodeNonAscii('/a\ud800b'))).toBeNull();
  });
});
