import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { compileSiteRules, parseHeaders, parseRedirects } from './site-rules';

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    const err = e as AppError;
    return { code: err.code, message: err.message, ...(err.details as object) };
  }
  throw new Error('not refused');
};

describe('parseRedirects', () => {
  it('reads Netlify lines: comments, blank lines, default 301, every status, force', () => {
    const rules = parseRedirects('# moved\n\n/old /new\n/a/* /b/:splat 302\n/n/:id /x/:id 200\n/f /g 308!\r\n/ext https://example.com/x 307\n/gone /404.html 404\n');
    expect(rules).toEqual([
      { from: '/old', to: '/new', status: 301 },
      { from: '/a/*', to: '/b/:splat', status: 302 },
      { from: '/n/:id', to: '/x/:id', status: 200 },
      { from: '/f', to: '/g', status: 308, force: true },
      { from: '/ext', to: 'https://example.com/x', status: 307 },
      { from: '/gone', to: '/404.html', status: 404 },
    ]);
  });

  it('refuses a malformed line naming the file and the line', () => {
    expect(refusal(() => parseRedirects('/ok /fine\n\n/only-one'))).toMatchObject({ code: 'invalid_site_rules', file: '_redirects', line: 3 });
    expect(refusal(() => parseRedirects('/a /b 418')).message).toMatch(/^_redirects line 1: /);
    expect(refusal(() => parseRedirects('a /b'))).toMatchObject({ line: 1 });
    expect(refusal(() => parseRedirects('/a/*/b /c'))).toMatchObject({ line: 1 });
    expect(refusal(() => parseRedirects('/a https://evil.example/ 200'))).toMatchObject({ line: 1 });
    expect(refusal(() => parseRedirects('/a /../secret 200'))).toMatchObject({ line: 1 });
    expect(refusal(() => parseRedirects('/a //evil.example/'))).toMatchObject({ line: 1 });
    expect(refusal(() => parseRedirects('/a /b 301 id=:id'))).toMatchObject({ line: 1 });
  });

  it('takes 2,000 rules and refuses the 2,001st', () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `/r${i} /t${i}`);
    expect(parseRedirects(lines.join('\n'))).toHaveLength(2000);
    expect(refusal(() => parseRedirects([...lines, '/one /more'].join('\n')))).toMatchObject({ line: 2001 });
  });
});

describe('parseHeaders', () => {
  it('reads blocks of indented headers and drops those that would break the response', () => {
    const blocks = parseHeaders('/*\n  X-Frame-Options: DENY\n  Set-Cookie: a=b\n  Content-Length: 1\n\n/assets/*\n\tCache-Control: public, max-age=31536000, immutable\n');
    expect(blocks).toEqual([
      { path: '/*', headers: [['X-Frame-Options', 'DENY']] },
      { path: '/assets/*', headers: [['Cache-Control', 'public, max-age=31536000, immutable']] },
    ]);
  });

  it('refuses a header before a path, a line without a colon, a bad name, naming the line', () => {
    expect(refusal(() => parseHeaders('  X-A: b'))).toMatchObject({ code: 'invalid_site_rules', file: '_headers', line: 1 });
    expect(refusal(() => parseHeaders('/*\n  X-A: b\n  nonsense'))).toMatchObject({ line: 3 });
    expect(refusal(() => parseHeaders('/*\n  X A: b'))).toMatchObject({ line: 2 });
    expect(refusal(() => parseHeaders('/a b'))).toMatchObject({ line: 1 });
  });

  it('takes 100 blocks and refuses the 101st', () => {
    const text = Array.from({ length: 101 }, (_, i) => `/p${i}\n  X-N: ${i}`).join('\n');
    expect(refusal(() => parseHeaders(text))).toMatchObject({ line: 201 });
    expect(parseHeaders(text.split('\n').slice(0, 200).join('\n'))).toHaveLength(100);
  });
});

describe('compileSiteRules', () => {
  const rules = compileSiteRules({
    redirects: parseRedirects('/blog/:year/:slug /posts/:year-:slug 301\n/docs/* /manual/:splat 200\n/exact /x\n/* /index.html 200\n/forced /y 302!'),
    headers: parseHeaders('/*\n  X-All: 1\n/docs/*\n  X-Docs: 2\n  X-All: 3'),
  })!;

  it('binds placeholders and splats, first match wins, literal rules keep their order', () => {
    expect(rules.redirect('/blog/2024/hello', false)).toMatchObject({ target: '/posts/2024-hello' });
    expect(rules.redirect('/docs/a/b', false)).toMatchObject({ target: '/manual/a/b', targetPath: '/manual/a/b' });
    expect(rules.redirect('/docs', false)).toMatchObject({ targetPath: '/manual/' });
    expect(rules.redirect('/exact/', false)).toMatchObject({ target: '/x' });
    expect(rules.redirect('/anything', false)).toMatchObject({ target: '/index.html' });
  });

  it('encodes bound values in a redirect target, keeps them decoded for a rewrite lookup', () => {
    expect(rules.redirect('/blog/a b/c?d', false)).toMatchObject({ target: '/posts/a%20b-c%3Fd' });
    expect(rules.redirect('/docs/x;y/z', false)).toMatchObject({ target: '/manual/x%3By/z', targetPath: '/manual/x;y/z' });
  });

  it('applies only forced rules where a file exists', () => {
    expect(rules.redirect('/exact', true)).toBeNull();
    expect(rules.redirect('/forced', true)).toMatchObject({ target: '/y' });
  });

  it('joins every matching header block in file order', () => {
    expect(rules.headersFor('/docs/x')).toEqual([
      ['X-All', '1, 3'],
      ['X-Docs', '2'],
    ]);
    expect(rules.headersFor('/')).toEqual([['X-All', '1']]);
  });
});
