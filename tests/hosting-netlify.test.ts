import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { adminToken, site, uploadSite } from './support/hosting';
import { call, hostedUrl } from './support/http';

useFileServer();

/** GET with our own Accept-Encoding (fetch would decode it for us): status, headers, raw bytes. */
function raw(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(hostedUrl() + path, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const page = (title: string, body = '') => `<!doctype html><html><head><title>${title}</title><link rel="stylesheet" href="app.css"></head><body><h1>${title}</h1>${body}</body></html>`;
const css = `body { color: rgb(1, 2, 3); } ${'.x{margin:0}'.repeat(100)}`;

let slug: string;
beforeAll(async () => {
  const r = await uploadSite({
    'index.html': page('Home', '<p>home page</p>'.repeat(40)),
    'about.html': page('About'),
    'docs/index.html': page('Docs'),
    'docs/guide.html': page('Guide'),
    '404.html': page('Lost', '<img src="img/lost.png">'),
    'app.css': css,
    'assets/index-Cr4R_4-3.js': `console.log(${JSON.stringify('x'.repeat(2000))})`,
    'img/lost.png': randomBytes(500),
    'data.json': JSON.stringify({ items: Array.from({ length: 100 }, (_, i) => ({ i, name: `item ${i}` })) }),
  });
  expect(r.status).toBe(201);
  slug = r.json.project.slug;
});

describe('GET /p/:slug/* — clean URLs', () => {
  it('serves about.html at /about, docs/index.html at /docs/, and 301s /docs to /docs/', async () => {
    expect((await site('GET', `/p/${slug}/about`)).text).toContain('<h1>About</h1>');
    expect((await site('GET', `/p/${slug}/docs/`)).text).toContain('<h1>Docs</h1>');
    expect((await site('GET', `/p/${slug}/docs/guide`)).text).toContain('<h1>Guide</h1>');
    const r = await site('GET', `/p/${slug}/docs?x=1`);
    expect(r.status).toBe(301);
    expect(r.headers.get('location')).toBe(`/p/${slug}/docs/?x=1`);
  });

  it("answers misses with the project's own 404.html, status 404, with a base so its links work at any depth", async () => {
    const r = await site('GET', `/p/${slug}/no/such/page`);
    expect(r.status).toBe(404);
    expect(r.text).toContain('<h1>Lost</h1>');
    expect(r.text).toContain(`<base href="/p/${slug}/" target="_blank">`);
    expect((await site('GET', `/p/${slug}/missing.js`)).status).toBe(404);
  });

  it('without a 404.html, a miss is the plain 404', async () => {
    const other = (await uploadSite({ 'index.html': '<p>x</p>' })).json.project.slug;
    const r = await site('GET', `/p/${other}/nope`, { headers: { Accept: 'text/html' } });
    expect(r.status).toBe(404);
    expect(r.text).toContain('Nothing here');
  });
});

describe('SPA mode', () => {
  let spa: string;
  beforeAll(async () => {
    const r = await uploadSite({ 'dist/index.html': page('App'), 'dist/assets/app.js': 'x', 'dist/404.html': 'lost' }, { spa: 'true' });
    spa = r.json.project.slug;
    expect(r.json.project.spa).toBe(true);
  });

  it('serves the index file with 200 for unknown extensionless paths, at any depth, with a base to its folder', async () => {
    for (const path of ['users', 'users/42', 'a/b/c/d']) {
      const r = await site('GET', `/p/${spa}/${path}`);
      expect(r.status, path).toBe(200);
      expect(r.text).toContain('<h1>App</h1>');
      expect(r.text).toContain(`<base href="/p/${spa}/" target="_blank">`);
    }
  });

  it('still answers 404 (the 404.html) for unknown files with an extension', async () => {
    const r = await site('GET', `/p/${spa}/assets/missing.js`);
    expect(r.status).toBe(404);
    expect(r.text).toMatch(/lost$/);
  });

  it('PATCH /api/projects/:slug — turns SPA mode off and on', async () => {
    const token = await adminToken();
    expect((await call('PATCH', `/api/projects/${spa}`, { token, body: { spa: false } })).json.project.spa).toBe(false);
    expect((await site('GET', `/p/${spa}/users/42`)).status).toBe(404);
    await call('PATCH', `/api/projects/${spa}`, { token, body: { spa: true } });
    expect((await site('GET', `/p/${spa}/users/42`)).status).toBe(200);
  });
});

describe('Cache-Control and ETag', () => {
  it('HTML: no-cache with an ETag, and 304 on a match', async () => {
    const r = await site('GET', `/p/${slug}/about.html`);
    expect(r.headers.get('cache-control')).toBe('no-cache');
    const etag = r.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect((await site('GET', `/p/${slug}/about.html`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
  });

  it('a name with a content hash: a year, immutable', async () => {
    const r = await site('GET', `/p/${slug}/assets/index-Cr4R_4-3.js`);
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('other files: no-cache with an ETag; a locked project: private', async () => {
    expect((await site('GET', `/p/${slug}/app.css`)).headers.get('cache-control')).toBe('no-cache');
    const locked = (await uploadSite({ 'index.html': 'x', 'a-1b2C3d4E.js': 'y' }, { password: 'cache-pw-1' })).json.project.slug;
    const unlock = await site('POST', `/p/${locked}/unlock`, { body: { password: 'cache-pw-1' } });
    const cookie = unlock.cookies[0].split(';')[0];
    expect((await site('GET', `/p/${locked}/`, { cookie })).headers.get('cache-control')).toBe('private, no-cache');
    expect((await site('GET', `/p/${locked}/a-1b2C3d4E.js`, { cookie })).headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
  });
});

describe('compression', () => {
  it('Brotli when accepted, gzip otherwise, identity without Accept-Encoding; always Vary', async () => {
    const br = await raw(`/p/${slug}/app.css`, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.body).toString()).toBe(css);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(css.length / 3);
    const gz = await raw(`/p/${slug}/app.css`, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(css);
    expect(gz.headers.etag).not.toBe(br.headers.etag);
    const plain = await raw(`/p/${slug}/app.css`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.body.toString()).toBe(css);
  });

  it('HTML is compressed as served: with its injected base and viewport', async () => {
    const br = await raw(`/p/${slug}/`, { 'Accept-Encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    const identity = await site('GET', `/p/${slug}/`);
    expect(brotliDecompressSync(br.body).toString()).toBe(identity.text);
    expect(identity.text).toContain('<base target="_blank">');
  });

  it('a Range request gets identity bytes; images are never compressed', async () => {
    const r = await raw(`/p/${slug}/app.css`, { 'Accept-Encoding': 'br', Range: 'bytes=0-3' });
    expect(r.status).toBe(206);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.body.toString()).toBe('body');
    const png = await raw(`/p/${slug}/img/lost.png`, { 'Accept-Encoding': 'br, gzip' });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers.vary).toBeUndefined();
  });

  it('HEAD of a compressed file gives its compressed length', async () => {
    const head = await new Promise<Record<string, unknown>>((resolve) => {
      request(`${hostedUrl()}/p/${slug}/data.json`, { method: 'HEAD', headers: { 'Accept-Encoding': 'br' }, agent: false }, (res) => {
        res.resume();
        resolve(res.headers);
      }).end();
    });
    const full = await raw(`/p/${slug}/data.json`, { 'Accept-Encoding': 'br' });
    expect(head['content-encoding']).toBe('br');
    expect(Number(head['content-length'])).toBe(full.body.length);
  });
});

describe('a project without HTML', () => {
  it('GET /p/:slug/ — a generated, escaped file listing instead of a 404', async () => {
    const r = await uploadSite({ 'notes/<b>bold</b>.txt': 'a', 'data.csv': 'b' });
    const s = r.json.project.slug;
    expect(r.json.project.has_html).toBe(false);
    expect((await site('GET', `/p/${s}`)).headers.get('location')).toBe(`/p/${s}/`);
    const list = await site('GET', `/p/${s}/`);
    expect(list.status).toBe(200);
    expect(list.text).toContain('&lt;b&gt;bold&lt;/b&gt;.txt');
    expect(list.text).not.toContain('<b>bold</b>');
    expect(list.text).toContain(`href="/p/${s}/data.csv"`);
    expect(list.headers.get('content-security-policy')).toContain("default-src 'none'");
  });
});

describe('dotfiles', () => {
  it('are not served, except .well-known/, unless the project allows them', async () => {
    const r = await uploadSite({ 'index.html': 'x', '.env': 'SECRET=1', '.git/config': '[remote] url=https://token@host/x', '.well-known/security.txt': 'Contact: a@b.c' });
    const s = r.json.project.slug;
    expect((await site('GET', `/p/${s}/.env`)).status).toBe(404);
    expect((await site('GET', `/p/${s}/.git/config`)).status).toBe(404);
    expect((await site('GET', `/p/${s}/.well-known/security.txt`)).text).toBe('Contact: a@b.c');
    const token = await adminToken();
    expect((await call('PATCH', `/api/projects/${s}`, { token, body: { allow_dotfiles: true } })).json.project.allow_dotfiles).toBe(true);
    expect((await site('GET', `/p/${s}/.env`)).text).toBe('SECRET=1');
    const up = await uploadSite({ 'index.html': 'x', '.nojekyll': '' }, { dotfiles: 'true' });
    expect(up.json.project.allow_dotfiles).toBe(true);
    expect((await site('GET', `/p/${up.json.project.slug}/.nojekyll`)).status).toBe(200);
  });
});

describe('UTF-8 names', () => {
  it('POST /api/upload — keeps café.html and 日本語.html as sent, and serves them', async () => {
    const r = await uploadSite({ 'café.html': '<p>cafe</p>', '日本語.html': '<p>nihongo</p>' });
    expect(r.status).toBe(201);
    expect(r.json.project.files.map((f: { path: string }) => f.path).sort()).toEqual(['café.html', '日本語.html']);
    const s = r.json.project.slug;
    expect((await site('GET', `/p/${s}/${encodeURIComponent('café.html')}`)).text).toContain('cafe');
    expect((await site('GET', `/p/${s}/${encodeURIComponent('日本語.html')}`)).text).toContain('nihongo');
  });

  it('POST /api/upload — paths equal after NFC and case folding are duplicates', async () => {
    for (const pair of [['A.html', 'a.html'], ['cafe\u0301.html', 'café.html'], ['Dir/x.css', 'dir/X.CSS']]) {
      const form = new FormData();
      for (const p of pair) form.append('f', new Blob(['x']), p);
      const r = await call('POST', '/api/upload', { token: await adminToken(), raw: form });
      expect(r.status, pair.join(' + ')).toBe(400);
      expect(r.json.code).toBe('duplicate_path');
    }
  });
});
