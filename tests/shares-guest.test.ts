import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { call, cookieFrom, randomIp } from './support/http';
import { createMember, type Member } from './support/members';
import { expireShare, uploadShare } from './support/shares';

// Next's pages: the share page.
useFileServer({}, { pages: true });

let owner: Member;
let shareId: string;
const video = randomBytes(300_000);
const base = baseUrl;
const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(base() + path, { method, headers, redirect: 'manual' });

beforeAll(async () => {
  owner = await createMember();
  const { share } = await uploadShare(owner.token, {
    'clips/movie.mp4': video,
    'résumé 東京.txt': Buffer.from('cv'),
    'say "hi".txt': Buffer.from('hi'),
    'page.html': Buffer.from('<script>alert(1)</script>'),
    'pic.svg': Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    '<b>bold</b>.txt': Buffer.from('x'),
    'blob.qqq': Buffer.from('<html><script>alert(1)</script></html>'),
  }, { note: 'Note with <i>markup</i>' });
  shareId = share.id;
});

describe('GET /f/:id', () => {
  it('renders the items with sizes, download links and Download all; previews wait for the browser; escapes names and note', async () => {
    const r = await get(`/f/${shareId}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    const html = await r.text();
    expect(html).toContain('clips/movie.mp4');
    // The player mounts in the browser when its row is visible; the server sends no media or text.
    expect(html).not.toMatch(/<video/);
    expect(html).toContain('data-preview="video"');
    expect(html).toContain('?download=1');
    expect(html).toMatch(new RegExp(`href="/f/${shareId}/\\?zip"`));
    expect(html).toContain('Download all (7 files, ');
    expect(html).toContain(`/f/${shareId}/?zip&amp;folder=clips`);
    expect(html).toContain('Note with &lt;i&gt;markup&lt;/i&gt;');
    expect(html).toContain('&lt;b&gt;bold&lt;/b&gt;.txt');
    expect(html).not.toContain('<b>bold</b>');
  });

  it('answers 404 for an unknown share and for a malformed id', async () => {
    expect((await get('/f/doesnotexist123')).status).toBe(404);
    expect((await get('/f/%E0%A4%A')).status).toBe(404);
    expect((await get('/f/doesnotexist123/a.txt')).status).toBe(404);
  });
});

describe('GET /f/:id/*path', () => {
  const movie = () => `/f/${shareId}/clips/movie.mp4`;

  it('serves the whole file with length, type, ETag and Accept-Ranges; HEAD has no body', async () => {
    const r = await get(movie());
    expect(r.status).toBe(200);
    expect(r.headers.get('content-length')).toBe(String(video.length));
    expect(r.headers.get('content-type')).toBe('video/mp4');
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('content-disposition')).toBe('inline; filename="movie.mp4"');
    expect(Buffer.from(await r.arrayBuffer()).equals(video)).toBe(true);
    const etag = r.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect((await get(movie(), { 'If-None-Match': etag })).status).toBe(304);
    const head = await get(movie(), {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(video.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers byte ranges: first bytes, suffix, open-ended, past the end and malformed', async () => {
    const n = video.length;
    const first = await get(movie(), { Range: 'bytes=0-9' });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-9/${n}`);
    expect(Buffer.from(await first.arrayBuffer()).equals(video.subarray(0, 10))).toBe(true);
    const suffix = await get(movie(), { Range: 'bytes=-100' });
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get('content-range')).toBe(`bytes ${n - 100}-${n - 1}/${n}`);
    expect(Buffer.from(await suffix.arrayBuffer()).equals(video.subarray(n - 100))).toBe(true);
    const open = await get(movie(), { Range: `bytes=${n - 5}-` });
    expect(open.status).toBe(206);
    expect(Buffer.from(await open.arrayBuffer()).equals(video.subarray(n - 5))).toBe(true);
    const past = await get(movie(), { Range: `bytes=${n}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${n}`);
    for (const bad of ['bytes=abc', 'items=0-1', 'bytes=5-1']) {
      const r = await get(movie(), { Range: bad });
      expect(r.status, bad).toBe(200);
      await r.arrayBuffer();
    }
    const etag = first.headers.get('etag')!;
    const ifRangeOk = await get(movie(), { Range: 'bytes=0-0', 'If-Range': etag });
    expect(ifRangeOk.status).toBe(206);
    const ifRangeStale = await get(movie(), { Range: 'bytes=0-0', 'If-Range': '"stale"' });
    expect(ifRangeStale.status).toBe(200);
    await ifRangeStale.arrayBuffer();
  });

  it('names files in Content-Disposition with an ASCII filename and an RFC 5987 filename*', async () => {
    const r = await get(`/f/${shareId}/${encodeURIComponent('résumé 東京.txt')}`);
    expect(r.status).toBe(200);
    const cd = r.headers.get('content-disposition')!;
    expect(cd).toBe(`inline; filename="resume _.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E6%9D%B1%E4%BA%AC.txt`);
    const quoted = await get(`/f/${shareId}/${encodeURIComponent('say "hi".txt')}?download=1`);
    expect(quoted.headers.get('content-disposition')).toBe(`attachment; filename="say _hi_.txt"; filename*=UTF-8''say%20%22hi%22.txt`);
  });

  it('sends active content (HTML, SVG) and unknown types as a sandboxed attachment with nosniff', async () => {
    for (const name of ['page.html', 'pic.svg', 'blob.qqq']) {
      const r = await get(`/f/${shareId}/${name}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-disposition')).toMatch(/^attachment;/);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('content-security-policy')).toBe('sandbox');
      await r.arrayBuffer();
    }
  });

  it('answers 404 for a missing item and 405 for other methods', async () => {
    expect((await get(`/f/${shareId}/nope.txt`)).status).toBe(404);
    expect((await get(`/f/${shareId}/..%2F${shareId}%2Fclips%2Fmovie.mp4`)).status).toBe(404);
    expect((await get(movie(), {}, 'DELETE')).status).toBe(405);
  });
});

describe('guest gates', () => {
  async function fresh(opts: { password?: string } = {}) {
    const { share } = await uploadShare(owner.token, { 'a.txt': Buffer.from('secret bytes') }, opts);
    return share.id as string;
  }
  const patch = (id: string, body: unknown) => call('PATCH', `/api/shares/${id}`, { token: owner.token, body });

  it('offline: the page and every item answer 404; online again: 200', async () => {
    const id = await fresh();
    expect((await patch(id, { status: 'offline' })).status).toBe(200);
    expect((await get(`/f/${id}`)).status).toBe(404);
    expect((await get(`/f/${id}/a.txt`)).status).toBe(404);
    expect((await patch(id, { status: 'online' })).status).toBe(200);
    expect((await get(`/f/${id}/a.txt`)).status).toBe(200);
  });

  it('expired: 410 for the page and the items; clearing the expiry reopens it', async () => {
    const id = await fresh();
    await expireShare(owner.token, id);
    expect((await get(`/f/${id}`)).status).toBe(410);
    const item = await get(`/f/${id}/a.txt`, { Accept: 'application/json' });
    expect(item.status).toBe(410);
    expect((await item.json()).code).toBe('expired');
    expect((await patch(id, { expires_at: null })).status).toBe(200);
    expect((await get(`/f/${id}`)).status).toBe(200);
  });

  it('password: 401 page for the page and items until unlocked; the cookie is scoped to the share', async () => {
    const id = await fresh({ password: 'open sesame' });
    const page = await get(`/f/${id}`);
    expect(page.status).toBe(401);
    expect(await page.text()).toContain(`action="/f/${id}/unlock"`);
    expect((await get(`/f/${id}/a.txt`)).status).toBe(401);
    expect((await get(`/f/${id}/a.txt`, { Range: 'bytes=0-1' })).status).toBe(401);
    const ip = randomIp();
    const wrong = await call('POST', `/f/${id}/unlock`, { ip, body: { password: 'nope' } });
    expect([wrong.status, wrong.json.code]).toEqual([401, 'wrong_password']);
    const right = await call('POST', `/f/${id}/unlock`, { ip, body: { password: 'open sesame' } });
    expect(right.status).toBe(200);
    expect(right.json).toEqual({ ok: true });
    const set = right.cookies.find((c) => c.startsWith(`htmls_share_unlock_${id}=`))!;
    expect(set).toMatch(new RegExp(`Path=/f/${id}`));
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Lax/);
    expect(set).toMatch(/Max-Age=604800/);
    const cookie = cookieFrom(right.cookies, `htmls_share_unlock_${id}`);
    expect((await get(`/f/${id}`, { Cookie: cookie })).status).toBe(200);
    const bytes = await get(`/f/${id}/a.txt`, { Cookie: cookie });
    expect(await bytes.text()).toBe('secret bytes');
    // A form post answers 303 back to the share.
    const form = await call('POST', `/f/${id}/unlock`, {
      ip,
      raw: 'password=open+sesame',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe(`/f/${id}`);
    // Another share's cookie, a forged one, and one issued before a password change fail.
    const other = await fresh({ password: 'open sesame' });
    const value = cookie.split('=')[1];
    expect((await get(`/f/${other}/a.txt`, { Cookie: `htmls_share_unlock_${other}=${value}` })).status).toBe(401);
    expect((await get(`/f/${id}/a.txt`, { Cookie: `htmls_share_unlock_${id}=9999999999.${'A'.repeat(43)}` })).status).toBe(401);
    expect((await patch(id, { password: 'changed password' })).status).toBe(200);
    expect((await get(`/f/${id}/a.txt`, { Cookie: cookie })).status).toBe(401);
    expect((await patch(id, { password: null })).status).toBe(200);
    expect((await get(`/f/${id}/a.txt`)).status).toBe(200);
  });

  it('rate-limits unlock attempts: the 11th in 5 minutes is 429', async () => {
    const id = await fresh({ password: 'pw-pw-pw-pw' });
    const ip = randomIp();
    for (let i = 0; i < 10; i++) expect((await call('POST', `/f/${id}/unlock`, { ip, body: { password: 'x' } })).status).toBe(401);
    const r = await call('POST', `/f/${id}/unlock`, { ip, body: { password: 'pw-pw-pw-pw' } });
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBeTruthy();
  });

  it('a pending (not yet completed) share is 404 to guests', async () => {
    const { init } = await uploadShare(owner.token, { 'p.txt': Buffer.from('p') }, { noComplete: true });
    expect((await get(`/f/${init.json.groupId}`)).status).toBe(404);
    expect((await get(`/f/${init.json.groupId}/p.txt`)).status).toBe(404);
    await call('POST', '/api/shares/upload/abort', { token: owner.token, body: { groupId: init.json.groupId } });
  });
});
