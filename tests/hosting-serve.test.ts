import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { adminToken, SAMPLE_SITE, uploadSite, site } from './support/hosting';
import { call, cookieFrom, randomIp } from './support/http';

// Next's pages: the public directory.
useFileServer({}, { pages: true });

let slug: string;
beforeAll(async () => {
  const r = await uploadSite({ ...SAMPLE_SITE, 'site/big.bin': randomBytes(600 * 1024) }, { note: 'serve test' });
  slug = r.json.project.slug;
});

describe('GET /p/:slug — entry', () => {
  it('serves index.html at /p/:slug/, where /p/:slug (302) and /p/:slug/index.html (301) lead, query kept', async () => {
    const root = await site('GET', `/p/${slug}/`);
    expect(root.status).toBe(200);
    expect(root.text).toContain('<h1>Hello</h1>');
    expect(root.headers.get('etag')).toBeTruthy();
    const bare = await site('GET', `/p/${slug}?from=cli`);
    expect([bare.status, bare.headers.get('location')]).toEqual([302, `/p/${slug}/?from=cli`]);
    const named = await site('GET', `/p/${slug}/index.html?v=2`);
    expect([named.status, named.headers.get('location')]).toEqual([301, `/p/${slug}/?v=2`]);
    // Only the root's own index.html: a folder's page keeps its name.
    expect((await site('GET', `/p/${slug}/docs/guide.html`)).status).toBe(200);
  });

  it('redirects to the first HTML file in path order when there is no index.html', async () => {
    const r = await uploadSite({ 'b/page.html': 'b', 'a/z.htm': 'a', 'a.css': 'x' });
    const loc = (await site('GET', `/p/${r.json.project.slug}`)).headers.get('location');
    expect(loc).toBe(`/p/${r.json.project.slug}/a/z.htm`);
  });

  it('answers 404 for an unknown project or a malformed slug', async () => {
    expect((await site('GET', '/p/no-such-project/')).status).toBe(404);
    expect((await site('GET', '/p/a%2Fb/index.html')).status).toBe(404);
    expect((await site('GET', '/p/UPPER/x')).status).toBe(404);
  });
});

describe('GET /p/:slug/*path — files', () => {
  it('serves HTML with exactly one injected base and viewport, unsandboxed on the hosted origin', async () => {
    const r = await site('GET', `/p/${slug}/`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('content-security-policy')).toBeNull();
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.text.match(/<base target="_blank">/g)).toHaveLength(1);
    expect(r.text.match(/<meta name="viewport" content="width=device-width, initial-scale=1">/g)).toHaveLength(1);
    expect(r.text).toContain('<head><base target="_blank"><meta name="viewport"');
    expect(Number(r.headers.get('content-length'))).toBe(Buffer.byteLength(r.text));
  });

  it('serves sub-folder assets with the server-chosen type', async () => {
    const css = await site('GET', `/p/${slug}/css/app.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.text).toBe(SAMPLE_SITE['site/css/app.css']);
    const svg = await site('GET', `/p/${slug}/img/dot.svg`);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect((await site('GET', `/p/${slug}/docs/guide.html`)).text).toContain('Guide');
  });

  it('answers 304 for a matching If-None-Match', async () => {
    const first = await site('GET', `/p/${slug}/css/app.css`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await site('GET', `/p/${slug}/css/app.css`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('serves byte ranges of a small (cached) and a large (streamed) file', async () => {
    const small = await site('GET', `/p/${slug}/css/app.css`, { headers: { Range: 'bytes=0-1' } });
    expect(small.status).toBe(206);
    expect(small.text).toBe('h1');
    expect(small.headers.get('content-range')).toBe(`bytes 0-1/${SAMPLE_SITE['site/css/app.css'].length}`);
    const r = await site('GET', `/p/${slug}/big.bin`, { headers: { Range: 'bytes=-10' } });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe(`bytes ${600 * 1024 - 10}-${600 * 1024 - 1}/${600 * 1024}`);
    expect(r.headers.get('content-length')).toBe('10');
    const past = await site('GET', `/p/${slug}/big.bin`, { headers: { Range: 'bytes=999999999-' } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${600 * 1024}`);
  });

  it('answers HEAD with the length and no body', async () => {
    const r = await site('HEAD', `/p/${slug}/big.bin`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-length')).toBe(String(600 * 1024));
    expect(r.text).toBe('');
  });

  it('answers 404 for a missing path, a path outside the project, and 405 for other methods', async () => {
    expect((await site('GET', `/p/${slug}/nope.html`)).status).toBe(404);
    expect((await site('GET', `/p/${slug}/../../etc/passwd`)).status).toBe(404);
    expect((await site('GET', `/p/${slug}/%2e%2e%2f%2e%2e%2fetc%2fpasswd`)).status).toBe(404);
    expect((await site('GET', `/p/${slug}/%E0%A4%A`)).status).toBe(404);
    expect((await site('PUT', `/p/${slug}/index.html`, { raw: 'x' })).status).toBe(405);
  });

  it('hides offline files, and hides the project from / once none is online', async () => {
    const up = await uploadSite({ 'index.html': '<p>offline test</p>' }, { note: `offline-${slug}` });
    const s = up.json.project.slug;
    expect((await call('GET', '/?q=' + encodeURIComponent(`offline-${slug}`))).text).toContain(s);
    await call('PATCH', '/api/status', { token: await adminToken(), body: { id: up.json.project.files[0].id, status: 'offline' } });
    expect((await site('GET', `/p/${s}/`)).status).toBe(404);
    expect((await site('GET', `/p/${s}`)).status).toBe(404);
    expect((await call('GET', '/?q=' + encodeURIComponent(`offline-${slug}`))).text).not.toContain(s);
  });
});

describe('password-protected projects', () => {
  let locked: string;
  beforeAll(async () => {
    const r = await uploadSite({ 'index.html': '<p>secret page</p>', 'img/a.png': randomBytes(2000) }, { password: 'open-sesame' });
    locked = r.json.project.slug;
    expect(r.json.project.has_password).toBe(true);
  });

  it('refuses every file, HEAD, Range and even missing paths with the 401 password page', async () => {
    for (const [method, path, headers] of [
      ['GET', `/p/${locked}`, {}],
      ['GET', `/p/${locked}/`, {}],
      ['GET', `/p/${locked}/img/a.png`, {}],
      ['GET', `/p/${locked}/img/a.png`, { Range: 'bytes=0-10' }],
      ['HEAD', `/p/${locked}/img/a.png`, {}],
      ['GET', `/p/${locked}/missing.html`, {}],
    ] as const) {
      const r = await site(method, path, { headers });
      expect(r.status, `${method} ${path}`).toBe(401);
      if (method === 'GET') {
        expect(r.text).toContain('Password required');
        expect(r.text).not.toContain('secret page');
      }
    }
  });

  it('unlocks with a form post: 303 back to the page with a scoped 7-day cookie', async () => {
    const wrong = await site('POST', `/p/${locked}/unlock`, {
      raw: new URLSearchParams({ password: 'nope', next: `/p/${locked}/index.html` }),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Wrong password');
    const r = await site('POST', `/p/${locked}/unlock`, {
      raw: new URLSearchParams({ password: 'open-sesame', next: `/p/${locked}/index.html` }),
    });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe(`/p/${locked}/index.html`);
    expect((await site('GET', `/p/${locked}/index.html`, { cookie: cookieFrom(r.cookies, `htmls_project_unlock_${locked}`) })).headers.get('location')).toBe(`/p/${locked}/`);
    const set = r.cookies[0];
    expect(set).toMatch(new RegExp(`^htmls_project_unlock_${locked}=`));
    expect(set).toContain(`Path=/p/${locked}`);
    expect(set).toContain('HttpOnly');
    expect(set).toContain('SameSite=Lax');
    expect(set).toContain('Max-Age=604800');
    const cookie = cookieFrom(r.cookies, `htmls_project_unlock_${locked}`);
    const page = await site('GET', `/p/${locked}/`, { cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('secret page');
    expect((await site('GET', `/p/${locked}/img/a.png`, { cookie, headers: { Range: 'bytes=0-9' } })).status).toBe(206);
  });

  it('unlocks with JSON: 200 {ok:true}; a wrong password is 401 wrong_password', async () => {
    const wrong = await site('POST', `/p/${locked}/unlock`, { body: { password: 'nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ error: 'Wrong password', code: 'wrong_password' });
    const ok = await site('POST', `/p/${locked}/unlock`, { body: { password: 'open-sesame' } });
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ ok: true });
  });

  it('never redirects outside the project after unlocking', async () => {
    for (const next of ['https://evil.example/', '//evil.example/x', '/p/other/x', `/p/${locked}/\\evil`, `/p/${locked}//evil.example`]) {
      const r = await site('POST', `/p/${locked}/unlock`, { raw: new URLSearchParams({ password: 'open-sesame', next }) });
      expect(r.headers.get('location'), next).toBe(`/p/${locked}/`);
    }
  });

  it('POST /p/:slug/unlock — a next with characters above U+00FF is percent-encoded, never a hung request', async () => {
    const next = `/p/${locked}/日本語/café.html?q=ü`;
    const r = await site('POST', `/p/${locked}/unlock`, { raw: new URLSearchParams({ password: 'open-sesame', next }) });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe(`/p/${locked}/%E6%97%A5%E6%9C%AC%E8%AA%9E/caf%C3%A9.html?q=%C3%BC`);
    const wrong = await site('POST', `/p/${locked}/unlock`, { raw: new URLSearchParams({ password: 'nope', next }) });
    expect(wrong.status).toBe(401);
    const dotted = await site('POST', `/p/${locked}/unlock`, { raw: new URLSearchParams({ password: 'open-sesame', next: `/p/${locked}/../other/x` }) });
    expect(dotted.headers.get('location')).toBe(`/p/${locked}/`);
  });

  it('a page kept for unlocked visitors (the reply cache) is never given without a valid cookie of this project', async () => {
    const unlock = await site('POST', `/p/${locked}/unlock`, { body: { password: 'open-sesame' } });
    const cookie = cookieFrom(unlock.cookies, `htmls_project_unlock_${locked}`);
    const value = cookie.split('=')[1];
    for (let i = 0; i < 3; i++) {
      const r = await site('GET', `/p/${locked}/`, { cookie, headers: { 'Accept-Encoding': 'gzip, br' } });
      expect([r.status, r.headers.get('cache-control')]).toEqual([200, 'private, no-cache']);
    }
    const other = (await uploadSite({ 'index.html': 'other' }, { password: 'other-pass' })).json.project.slug;
    const otherValue = cookieFrom((await site('POST', `/p/${other}/unlock`, { body: { password: 'other-pass' } })).cookies, `htmls_project_unlock_${other}`).split('=')[1];
    const name = `htmls_project_unlock_${locked}`;
    for (const [what, c] of [
      ['no cookie', undefined],
      ["another project's cookie", `${name}=${otherValue}`],
      ['a forged one', `${name}=9999999999.${'A'.repeat(43)}`],
      ['a valid one behind a forged one', `${name}=9999999999.${'B'.repeat(43)}; ${name}=${value}`],
      ['the value under another name', `htmls_project_unlock_${other}=${value}`],
    ] as const) {
      for (const method of ['GET', 'HEAD']) {
        const r = await site(method, `/p/${locked}/`, { cookie: c, headers: { 'Accept-Encoding': 'gzip, br' } });
        expect(r.status, `${method} with ${what}`).toBe(401);
      }
    }
    expect((await site('GET', `/p/${locked}/`, { cookie, headers: { 'Accept-Encoding': 'gzip, br' } })).status).toBe(200);
  });

  it('refuses forged cookies, cookies of another project, and cookies issued before a password change', async () => {
    const other = await uploadSite({ 'index.html': 'other' }, { password: 'other-pass' });
    const otherSlug = other.json.project.slug;
    const otherUnlock = await site('POST', `/p/${otherSlug}/unlock`, { body: { password: 'other-pass' } });
    const otherValue = cookieFrom(otherUnlock.cookies, `htmls_project_unlock_${otherSlug}`).split('=')[1];
    expect((await site('GET', `/p/${locked}/`, { cookie: `htmls_project_unlock_${locked}=${otherValue}` })).status).toBe(401);
    expect((await site('GET', `/p/${locked}/`, { cookie: `htmls_project_unlock_${locked}=9999999999.${'A'.repeat(43)}` })).status).toBe(401);

    const unlock = await site('POST', `/p/${locked}/unlock`, { body: { password: 'open-sesame' } });
    const cookie = cookieFrom(unlock.cookies, `htmls_project_unlock_${locked}`);
    expect((await site('GET', `/p/${locked}/`, { cookie })).status).toBe(200);
    await call('PATCH', `/api/projects/${locked}`, { token: await adminToken(), body: { password: 'changed-pass' } });
    expect((await site('GET', `/p/${locked}/`, { cookie })).status).toBe(401);
  });

  it('rate-limits unlock attempts: the 11th in 5 minutes is 429 with Retry-After', async () => {
    const ip = randomIp();
    for (let i = 0; i < 10; i++) {
      expect((await site('POST', `/p/${locked}/unlock`, { ip, body: { password: `guess-${i}` } })).status).toBe(401);
    }
    const r = await site('POST', `/p/${locked}/unlock`, { ip, body: { password: 'changed-pass' } });
    expect(r.status).toBe(429);
    expect(r.json.code).toBe('rate_limited');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('GET / — public directory', () => {
  it('shows slug and note as text, never as markup', async () => {
    const note = `<script>alert("x")</script><img src=x onerror=alert(1)> marker-${randomBytes(3).toString('hex')}`;
    const up = await uploadSite({ 'index.html': 'x' }, { note });
    const r = await call('GET', '/?q=' + encodeURIComponent(note.slice(-13)));
    expect(r.status).toBe(200);
    expect(r.text).toContain(up.json.project.slug);
    expect(r.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(r.text).not.toContain('<script>alert');
    expect(r.text).not.toContain('<img src=x');
  });

  it('marks the sites that ask for a password, and only those', async () => {
    const marker = `lockmark-${randomBytes(3).toString('hex')}`;
    const locked = await uploadSite({ 'index.html': 'x' }, { note: `${marker} locked`, password: 'site password 1' });
    const open = await uploadSite({ 'index.html': 'x' }, { note: `${marker} open` });
    expect([locked.status, open.status]).toEqual([201, 201]);
    const r = await call('GET', `/?q=${marker}`);
    const entry = (slug: string) => r.text.slice(r.text.indexOf(`href="/p/${slug}"`), r.text.indexOf('</li>', r.text.indexOf(`href="/p/${slug}"`)));
    expect(entry(locked.json.project.slug)).toMatch(/data-testid="locked"[^>]*>.*<svg[^>]*data-icon="lock".*password/s);
    expect(entry(open.json.project.slug)).not.toContain('data-testid="locked"');
  });

  it('links each entry to /p/<slug>', async () => {
    const r = await call('GET', `/?q=${encodeURIComponent('serve test')}`);
    expect(r.text).toContain(`href="/p/${slug}"`);
  });
});
