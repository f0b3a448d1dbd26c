import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { adminToken, previewCookie, uploadSite } from './support/hosting';
import { call, hostedUrl } from './support/http';

useFileServer();

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A GET whose path goes out byte for byte (fetch would resolve `..` and `%2e%2e` first), with an optional Host. */
function get(path: string, host?: string, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(hostedUrl());
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, agent: false, headers: { ...(host ? { Host: host } : {}), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

const page = (title: string) => `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;
const SECRET = 'SECRET_TOKEN=do-not-leak-4711';

/** A site as it left Netlify: its `_redirects` and `_headers` beside the build, in a picked folder. */
const REDIRECTS = `# Netlify-migrated rules
/old-about        /about              301
/blog/:year/:slug /posts/:slug        302
/news/*           /blog/:splat
/blog/existing    /about              301
/about            /nowhere            301
/docs/*           /manual/:splat      200
/u/:name          /users/:name.html   200
/app/*            /app/index.html     200
/private/*        /private-404.html   404
/external         https://example.com/landing 302
/go/*             /:splat             302
/keep             /target?from=rule   301
/broken/*         /missing/:splat     200
`;
const HEADERS = `/*
  X-Frame-Options: DENY
  Set-Cookie: injected=1
  Content-Length: 1
/assets/*
  Cache-Control: public, max-age=31536000, immutable
  X-Asset: yes
/docs/*
  X-Docs: rewritten
`;

let slug: string;
beforeAll(async () => {
  const r = await uploadSite(
    {
      'site/index.html': page('Home'),
      'site/about.html': page('About'),
      'site/posts/hello.html': page('Hello post'),
      'site/blog/existing.html': page('Existing blog page'),
      'site/manual/guide.html': page('Manual guide'),
      'site/manual/index.html': page('Manual index'),
      'site/users/ada.html': page('User Ada'),
      'site/app/index.html': page('App shell'),
      'site/private-404.html': page('Private area'),
      'site/404.html': page('Lost'),
      'site/assets/app.css': 'body{color:red}',
      'site/secret.txt': SECRET,
      'site/.env': SECRET,
      'site/_redirects': REDIRECTS,
      'site/_headers': HEADERS,
    },
    { slug: 'netlify-site' },
  );
  expect(r.status).toBe(201);
  slug = r.json.project.slug;
});

const at = (path: string) => `/p/${slug}${path}`;

describe('_redirects on the hosted origin', () => {
  it('redirects with 301 by default and keeps the query string', async () => {
    const r = await get(at('/old-about?ref=mail&x=1'));
    expect(r.status).toBe(301);
    expect(r.headers.location).toBe(at('/about?ref=mail&x=1'));
  });

  it('binds :placeholders and *, and keeps the target query instead when it has one', async () => {
    expect(await get(at('/blog/2024/hello'))).toMatchObject({ status: 302, headers: { location: at('/posts/hello') } });
    expect(await get(at('/news/2023/long/path?q=1'))).toMatchObject({ status: 301, headers: { location: at('/blog/2023/long/path?q=1') } });
    expect(await get(at('/keep?a=1'))).toMatchObject({ status: 301, headers: { location: at('/target?from=rule') } });
  });

  it('redirects to an absolute URL with the query', async () => {
    expect(await get(at('/external?a=b'))).toMatchObject({ status: 302, headers: { location: 'https://example.com/landing?a=b' } });
  });

  it('lets an existing file shadow a rule, a clean URL counting as existing', async () => {
    const about = await get(at('/about'));
    expect(about.status).toBe(200);
    expect(about.body).toContain('<h1>About</h1>');
    const existing = await get(at('/blog/existing'));
    expect(existing.status).toBe(200);
    expect(existing.body).toContain('Existing blog page');
  });

  it('rewrites with 200: the target content under the requested URL, with a base for its links', async () => {
    const r = await get(at('/docs/guide'));
    expect(r.status).toBe(200);
    expect(r.body).toContain('Manual guide');
    expect(r.body).toContain(`<base href="/p/${slug}/manual/"`);
    expect((await get(at('/docs/'))).body).toContain('Manual index');
    expect((await get(at('/u/ada'))).body).toContain('User Ada');
    const shell = await get(at('/app/settings/profile'));
    expect(shell.status).toBe(200);
    expect(shell.body).toContain('App shell');
  });

  it('serves a 404 rule with its own page and status, and a rewrite to nothing with the 404 page', async () => {
    const r = await get(at('/private/anything'));
    expect(r.status).toBe(404);
    expect(r.body).toContain('Private area');
    const miss = await get(at('/broken/x'));
    expect(miss.status).toBe(404);
    expect(miss.body).toContain('<h1>Lost</h1>');
  });

  it('adds _headers to matching paths, never the ones that would break the response', async () => {
    const home = await get(at('/'));
    expect(home.headers['x-frame-options']).toBe('DENY');
    expect(home.headers['set-cookie']).toBeUndefined();
    expect(home.headers['x-asset']).toBeUndefined();
    const css = await get(at('/assets/app.css'));
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(css.headers['x-asset']).toBe('yes');
    expect(css.headers['x-frame-options']).toBe('DENY');
    expect(css.headers['content-length']).toBe('15');
    expect(css.body).toBe('body{color:red}');
    // Headers match the requested path, also for a rewrite; a second (cached) answer keeps them.
    for (let i = 0; i < 2; i++) expect((await get(at('/docs/guide'))).headers['x-docs']).toBe('rewritten');
  });

  it('never serves _redirects nor _headers themselves', async () => {
    for (const name of ['_redirects', '_headers']) {
      const r = await get(at(`/${name}`));
      expect(r.status).toBe(404);
      expect(r.body).not.toContain('/old-about');
      expect(r.body).not.toContain('X-Frame-Options');
    }
  });
});

/** Traversal variants: `..`, `%2e%2e`, `%5c`, `%2f` and `;`, through each kind of rule and directly. */
const VARIANTS = ['..%2f.env', '%2e%2e/.env', '%2e%2e%2f.env', '..%5c.env', 'x%5c..%5c.env', '..;/.env', 'x/..%2f..%2fsecret.txt', '%2e%2e%2f%2e%2e%2fsecret.txt'];

describe('every path a rule looks up goes through the request path sanitiser', () => {
  it('a rewrite splat never reaches outside its folder, nor a hidden file', async () => {
    for (const v of VARIANTS) {
      const r = await get(at(`/docs/${v}`));
      expect([v, r.status]).toEqual([v, 404]);
      expect(r.body).not.toContain(SECRET);
    }
  });

  it('a rewrite placeholder neither', async () => {
    for (const v of ['..', '%2e%2e', '..%2f.env', '%5c.env', '..;', 'ada%2f..%2f..%2fsecret.txt']) {
      const r = await get(at(`/u/${v}`));
      expect(r.body).not.toContain(SECRET);
      expect(r.body).not.toContain('User Ada');
    }
  });

  it('a redirect splat never makes a Location that leaves the project or the origin', async () => {
    for (const v of ['%2fevil.example', '/evil.example', '%5cevil.example', '..%2f..%2fother', '%2e%2e/%2e%2e/other', '..;/..;/other', 'a%2f..%2f..%2fother']) {
      const r = await get(at(`/go/${v}`));
      const location = String(r.headers.location ?? '');
      expect([v, location.startsWith(`/p/${slug}/`) || location === '']).toEqual([v, true]);
      expect(location).not.toMatch(/\/\.\.?(\/|$)|\\|^\/\//);
    }
    expect((await get(at('/go/a;b'))).headers.location).toBe(at('/a%3Bb'));
  });

  it('the same variants asked directly reach nothing either', async () => {
    for (const v of VARIANTS) {
      const r = await get(at(`/manual/${v}`));
      expect(r.body).not.toContain(SECRET);
    }
  });

  it('on the project’s own origin (<slug>.localhost) a redirect splat cannot make a protocol-relative Location', async () => {
    const host = `${slug}.localhost:${new URL(hostedUrl()).port}`;
    const old = await get('/old-about', host);
    expect(old).toMatchObject({ status: 301, headers: { location: '/about' } });
    for (const v of ['%2fevil.example', '/evil.example', '%5cevil.example', '%5c%5cevil.example']) {
      const r = await get(`/go/${v}`, host);
      expect([v, String(r.headers.location ?? '')]).not.toEqual([v, expect.stringMatching(/^(\/\/|\/\\|\\)/)]);
      expect(r.status).toBe(404);
    }
  });
});

describe('checked at upload', () => {
  it('refuses a malformed _redirects naming the file and the line, and publishes nothing', async () => {
    const r = await uploadSite({ 'index.html': page('x'), '_redirects': '/a /b\n\n/c /d 999\n' }, { slug: 'bad-rules' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'invalid_site_rules', file: '_redirects', line: 3 });
    expect(r.json.error).toContain('_redirects line 3');
    expect((await call('GET', '/api/projects/bad-rules', { token: await adminToken() })).status).toBe(404);
  });

  it('refuses a malformed _headers naming the file and the line', async () => {
    const r = await uploadSite({ 'site/index.html': page('x'), 'site/_headers': '/*\n  X-Ok: 1\n  not a header\n' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'invalid_site_rules', file: '_headers', line: 3 });
  });

  it('refuses more than 2,000 redirect rules and more than 100 header blocks', async () => {
    const many = Array.from({ length: 2001 }, (_, i) => `/r${i} /t${i}`).join('\n');
    expect((await uploadSite({ 'index.html': page('x'), '_redirects': many })).json).toMatchObject({ code: 'invalid_site_rules', line: 2001 });
    const blocks = Array.from({ length: 101 }, (_, i) => `/b${i}\n  X-N: ${i}`).join('\n');
    expect((await uploadSite({ 'index.html': page('x'), '_headers': blocks })).json).toMatchObject({ code: 'invalid_site_rules', file: '_headers', line: 201 });
  });

  it("a locked project's rules are behind its password, like its files", async () => {
    const up = await uploadSite({ 'index.html': page('locked'), '_redirects': '/old /new 301\n/* /index.html 200', '_headers': '/*\n  Cache-Control: public, max-age=600\n  X-Locked-Rule: 1' }, { slug: 'locked-rules', password: 'pw-locked-1' });
    expect(up.status).toBe(201);
    const r = await get('/p/locked-rules/old');
    expect(r.status).toBe(401);
    expect(r.headers.location).toBeUndefined();
    const unlock = await call('POST', '/p/locked-rules/unlock', { base: hostedUrl(), body: { password: 'pw-locked-1' } });
    const cookie = unlock.cookies.map((c) => c.split(';')[0]).join('; ');
    expect(await get('/p/locked-rules/old', undefined, { Cookie: cookie })).toMatchObject({ status: 301, headers: { location: '/p/locked-rules/new' } });
    const open = await get('/p/locked-rules/', undefined, { Cookie: cookie });
    expect(open.headers['x-locked-rule']).toBe('1');
    // No rule makes a locked page cacheable by a shared cache.
    expect(open.headers['cache-control']).toMatch(/^private/);
  });

  it("a deploy's preview follows that deploy's rules; a rule file taken offline takes its rules along", async () => {
    const v1 = await uploadSite({ 'index.html': page('v1'), '_redirects': '/where /v1-target 302' }, { slug: 'preview-rules' });
    expect((await uploadSite({ 'index.html': page('v2'), '_redirects': '/where /v2-target 302' }, { slug: 'preview-rules', replace: 'true' })).status).toBe(201);
    const cookie = await previewCookie('preview-rules', v1.json.project.deploy_id);
    const preview = await get(`/p/preview-rules@${v1.json.project.deploy_id}/where`, undefined, { Cookie: cookie });
    expect(preview).toMatchObject({ status: 302, headers: { location: `/p/preview-rules@${v1.json.project.deploy_id}/v1-target` } });
    expect(await get('/p/preview-rules/where')).toMatchObject({ status: 302, headers: { location: '/p/preview-rules/v2-target' } });
    const live = await call('GET', '/api/projects/preview-rules', { token: await adminToken() });
    const file = live.json.project.files.find((f: { path: string }) => f.path === '_redirects');
    expect((await call('PATCH', '/api/status', { token: await adminToken(), body: { id: file.id, status: 'offline' } })).status).toBe(200);
    expect((await get('/p/preview-rules/where')).status).toBe(404);
  });

  it('an append keeps the live rules unless it brings its own file', async () => {
    const first = await uploadSite({ 'index.html': page('v1'), '_redirects': '/from /to 302' }, { slug: 'append-rules' });
    expect(first.status).toBe(201);
    expect((await uploadSite({ 'extra.html': page('extra') }, { slug: 'append-rules', append: 'true' })).status).toBe(201);
    expect(await get('/p/append-rules/from')).toMatchObject({ status: 302, headers: { location: '/p/append-rules/to' } });
    expect((await uploadSite({ '_redirects': '/from /other 307' }, { slug: 'append-rules', append: 'true' })).status).toBe(201);
    expect(await get('/p/append-rules/from')).toMatchObject({ status: 307, headers: { location: '/p/append-rules/other' } });
    expect((await uploadSite({ 'index.html': page('v3') }, { slug: 'append-rules', replace: 'true' })).status).toBe(201);
    expect((await get('/p/append-rules/from')).status).toBe(404);
  });
});
