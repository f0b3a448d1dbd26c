import { describe, expect, it } from 'vitest';
import { hostedTarget } from './hosted-target';

describe('hostedTarget — the project and path a hosted request names', () => {
  it('on the shared hosted origin: /p/<slug>[@<deploy>]/<path>, nothing outside /p/', () => {
    expect(hostedTarget('/p/blog/docs/a.html', 'GET', undefined)).toEqual({ slug: 'blog', deployId: undefined, rawRest: 'docs/a.html', prefix: '/p/blog' });
    expect(hostedTarget('/p/blog@abc123/x', 'GET', undefined)).toEqual({ slug: 'blog', deployId: 'abc123', rawRest: 'x', prefix: '/p/blog@abc123' });
    expect(hostedTarget('/p/blog/locale', 'GET', undefined)).toEqual({ slug: 'blog', deployId: undefined, rawRest: 'locale', prefix: '/p/blog' });
    expect(hostedTarget('/elsewhere', 'GET', undefined)).toBeNull();
  });

  it("on a project's own origin every path is the project's; the unlock form's and the picker's POSTs keep their /p/<slug>/ path", () => {
    const own = (path: string) => ({ slug: 'blog', rawRest: path.slice(1), prefix: '' });
    expect(hostedTarget('/docs/a.html', 'GET', 'blog')).toEqual(own('/docs/a.html'));
    expect(hostedTarget('/p/other/x', 'GET', 'blog')).toEqual(own('/p/other/x'));
    expect(hostedTarget('/p/blog/unlock', 'POST', 'blog')).toMatchObject({ slug: 'blog', rawRest: 'unlock', prefix: '/p/blog' });
    expect(hostedTarget('/p/blog/locale', 'POST', 'blog')).toMatchObject({ slug: 'blog', rawRest: 'locale', prefix: '/p/blog' });
    expect(hostedTarget('/p/blog@abc123/x', 'GET', 'blog')).toMatchObject({ slug: 'blog', deployId: 'abc123', rawRest: 'x' });
  });

  it("GET and HEAD of /p/<slug>/locale or /unlock on the project's own origin are its paths like any other (it may have such a folder)", () => {
    for (const method of ['GET', 'HEAD']) {
      expect(hostedTarget('/p/blog/locale', method, 'blog'), method).toEqual({ slug: 'blog', rawRest: 'p/blog/locale', prefix: '' });
      expect(hostedTarget('/p/blog/unlock', method, 'blog'), method).toEqual({ slug: 'blog', rawRest: 'p/blog/unlock', prefix: '' });
    }
  });
});
