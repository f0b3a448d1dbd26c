/**
 * The hosted port's front (lib/http/hosted-front.ts, issue 29): a thread of its own answers
 * the steady state of a site from finished replies the main thread gave it. Each test serves a
 * page twice (the second answer is the front's own), changes what a guest may see, and asks at
 * once: the front must never serve what the change took away, not even for a moment.
 */
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { frontHits, frontObjects, hostedUrl, innerUrl, useFileServer } from './support/file-server';
import { adminToken, site, uploadSite } from './support/hosting';
import { call, cookieFrom, randomIp } from './support/http';
import { rawRequest } from './support/raw-http';
import { TEST_ADMIN_TOKEN } from './support/server';
import { testStore } from './support/store';

useFileServer();

/**
 * Serves `path` until the front answers it itself: the steady state the checks below start from.
 * The first request is always the full path's; a locked page's next one may be too, when the
 * unlock key's last reading is already past its one-second life (the full path reads it again).
 */
async function warm(path: string, opts: Parameters<typeof site>[2] = {}) {
  const first = await site('GET', path, opts);
  expect(first.status).toBe(200);
  for (let i = 0; i < 20; i++) {
    const hits = frontHits();
    const next = await site('GET', path, opts);
    expect([next.status, next.text]).toEqual([200, first.text]);
    if (frontHits() === hits + 1) return next;
  }
  throw new Error(`the hosted front never answered ${path} itself`);
}

/** A request the front must not answer from what it kept (the full path serves it). */
async function missed(path: string, opts: Parameters<typeof site>[2] = {}) {
  const hits = frontHits();
  const r = await site('GET', path, opts);
  // On a failure: which request the front answered, and with what.
  expect(frontHits(), `GET ${path}${opts.cookie ? ' with a cookie' : ''}: ${r.status} ${r.text.slice(0, 60)}`).toBe(hits);
  return r;
}

/** Removes the one stored object of this size behind the service's back (fs directory or bucket). */
async function removeStoredObject(size: number) {
  const objects = (await testStore().list('')).filter((o) => o.size === size);
  expect(objects).toHaveLength(1);
  await testStore().delete(objects[0].key);
}

describe('the hosted front', () => {
  it('stops serving a file the moment it goes offline, and serves it again when it is back', async () => {
    const up = await uploadSite({ 'index.html': '<p>front offline</p>', 'a.css': 'p{}' });
    const slug = up.json.project.slug;
    const file = (up.json.project.files as { id: string; path: string }[]).find((f) => f.path === 'a.css')!;
    await warm(`/p/${slug}/a.css`);
    const off = await call('PATCH', '/api/status', { token: await adminToken(), body: { id: file.id, status: 'offline' } });
    expect(off.status).toBe(200);
    expect((await missed(`/p/${slug}/a.css`)).status).toBe(404);
    await call('PATCH', '/api/status', { token: await adminToken(), body: { id: file.id, status: 'online' } });
    expect((await site('GET', `/p/${slug}/a.css`)).text).toBe('p{}');
  });

  it('serves a new deploy at once, and the old one again after a rollback', async () => {
    const up = await uploadSite({ 'index.html': '<p>version one</p>' });
    const slug = up.json.project.slug;
    expect((await warm(`/p/${slug}/`)).text).toContain('version one');
    await uploadSite({ 'index.html': '<p>version two</p>' }, { slug, append: 'true' });
    expect((await missed(`/p/${slug}/`)).text).toContain('version two');
    const deploys = await call('GET', `/api/projects/${slug}/deploys`, { token: await adminToken() });
    const first = (deploys.json.deploys as { id: string }[]).at(-1)!.id;
    await warm(`/p/${slug}/`);
    expect((await call('POST', `/api/projects/${slug}/deploys/${first}/activate`, { token: await adminToken() })).status).toBe(200);
    expect((await missed(`/p/${slug}/`)).text).toContain('version one');
  });

  it('asks for the password the moment one is set, takes an unlock cookie, and refuses it once the password changes', async () => {
    const up = await uploadSite({ 'index.html': '<p>soon locked</p>' });
    const slug = up.json.project.slug;
    await warm(`/p/${slug}/`);
    await call('PATCH', `/api/projects/${slug}`, { token: await adminToken(), body: { password: 'first-pass' } });
    expect((await missed(`/p/${slug}/`)).status).toBe(401);
    const unlock = await site('POST', `/p/${slug}/unlock`, { body: { password: 'first-pass' } });
    const cookie = cookieFrom(unlock.cookies, `htmls_project_unlock_${slug}`);
    expect((await warm(`/p/${slug}/`, { cookie })).text).toContain('soon locked');
    // Without the cookie, or with another one, the page is still locked.
    expect((await missed(`/p/${slug}/`)).status).toBe(401);
    expect((await missed(`/p/${slug}/`, { cookie: cookie.replace(/=\d+\./, '=4102444800.') })).status).toBe(401);
    await call('PATCH', `/api/projects/${slug}`, { token: await adminToken(), body: { password: 'second-pass' } });
    expect((await missed(`/p/${slug}/`, { cookie })).status).toBe(401);
  });

  it('answers If-None-Match with 304 and negotiates compression per request, as the full path does', async () => {
    const page = `<p>${'compressible words '.repeat(200)}</p>`;
    const up = await uploadSite({ 'index.html': page });
    const slug = up.json.project.slug;
    const plain = await warm(`/p/${slug}/`, { headers: { 'Accept-Encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = plain.headers.get('etag')!;
    const again = await site('GET', `/p/${slug}/`, { headers: { 'Accept-Encoding': 'identity', 'If-None-Match': etag } });
    expect([again.status, again.text]).toEqual([304, '']);
    const br = [await rawRequest(hostedUrl(), 'GET', `/p/${slug}/`, [['Accept-Encoding', 'br']]), await rawRequest(hostedUrl(), 'GET', `/p/${slug}/`, [['Accept-Encoding', 'br']])];
    expect(br.map((r) => [r.status, r.headers['content-encoding']])).toEqual([[200, 'br'], [200, 'br']]);
    expect(Number(br[1].headers['content-length'])).toBeLessThan(page.length);
  });

  it('counts password attempts per client address, not per front', async () => {
    const up = await uploadSite({ 'index.html': '<p>guarded</p>' }, { password: 'right-pass' });
    const slug = up.json.project.slug;
    const attacker = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await site('POST', `/p/${slug}/unlock`, { ip: attacker, body: { password: `wrong-${i}` } })).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect((await site('POST', `/p/${slug}/unlock`, { ip: randomIp(), body: { password: 'right-pass' } })).status).toBe(200);
  });

  it('streams a large file from the store itself, whole, in a range, in several ranges, and answers HEAD, as the full path decided', async () => {
    const big = randomBytes(3 * 1024 * 1024 + 17);
    const up = await uploadSite({ 'index.html': '<p>big</p>', 'big.bin': big });
    const slug = up.json.project.slug;
    const url = `${hostedUrl()}/p/${slug}/big.bin`;
    const before = frontObjects();
    const whole = await fetch(url);
    expect([whole.status, whole.headers.get('content-length')]).toEqual([200, String(big.length)]);
    expect(Buffer.from(await whole.arrayBuffer()).equals(big)).toBe(true);
    const part = await fetch(url, { headers: { Range: 'bytes=1000-2099999' } });
    expect([part.status, part.headers.get('content-range'), part.headers.get('content-length')]).toEqual([206, `bytes 1000-2099999/${big.length}`, '2099000']);
    expect(Buffer.from(await part.arrayBuffer()).equals(big.subarray(1000, 2100000))).toBe(true);
    // Two streamed by the front; the small range and the multipart reply cross the hop as before.
    expect(frontObjects()).toBe(before + 2);
    const small = await fetch(url, { headers: { Range: 'bytes=-10' } });
    expect(Buffer.from(await small.arrayBuffer()).equals(big.subarray(big.length - 10))).toBe(true);
    const multi = await fetch(url, { headers: { Range: 'bytes=0-1,1500000-2600000' } });
    expect(multi.status).toBe(206);
    const body = Buffer.from(await multi.arrayBuffer());
    expect(body.includes(big.subarray(1500000, 2600001))).toBe(true);
    const head = await fetch(url, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), head.headers.get('etag')]).toEqual([200, String(big.length), whole.headers.get('etag')]);
    const fresh = await fetch(url, { headers: { 'If-None-Match': whole.headers.get('etag')! } });
    expect(fresh.status).toBe(304);
    expect(frontObjects()).toBe(before + 2);
    // The front's own headers for the hop never reach the client.
    expect([...whole.headers.keys()].filter((k) => k.startsWith('x-htmls'))).toEqual([]);
  });

  it('answers 404, not 500, for a large file whose object has gone from the store', async () => {
    const size = 2 * 1024 * 1024 + 3;
    const up = await uploadSite({ 'index.html': '<p>gone</p>', 'gone.bin': randomBytes(size) });
    const slug = up.json.project.slug;
    await removeStoredObject(size);
    const r = await site('GET', `/p/${slug}/gone.bin`);
    expect([r.status, r.json?.code]).toEqual([404, 'not_found']);
  });

  it('answers 404, not 500, for a small file whose object has gone from the store before its first request', async () => {
    const size = 5 * 1024 + 7;
    const up = await uploadSite({ 'index.html': '<p>gone</p>', 'small.bin': randomBytes(size) });
    const slug = up.json.project.slug;
    await removeStoredObject(size);
    // The same answer as a file the site never had (whose page's language picker comes back to
    // its own path).
    const r = await site('GET', `/p/${slug}/small.bin`);
    const never = await site('GET', `/p/${slug}/never.bin`);
    expect(never.status).toBe(404);
    expect(never.text).toContain('never.bin');
    expect([r.status, r.text]).toEqual([404, never.text.replaceAll('never.bin', 'small.bin')]);
  });

  it('keeps its inner listener to itself: no secret, no page, and no client address to claim', async () => {
    const inner = innerUrl();
    expect(inner).toBeTruthy();
    const up = await uploadSite({ 'index.html': '<p>inner</p>' });
    const slug = up.json.project.slug;
    const bare = await rawRequest(inner!, 'GET', `/p/${slug}/`);
    expect(bare.status).toBe(403);
    const forged = await rawRequest(inner!, 'GET', `/p/${slug}/`, [['X-Htmls-Front-Ip', '10.9.9.9'], ['X-Htmls-Front-Secret', 'guessed-secret']]);
    expect(forged.status).toBe(403);
    expect(forged.body.toString()).not.toContain('inner');
  });

  // Last: the file's server keeps the new Admin Token (the tests' own is too weak to set again).
  it('refuses an unlock cookie it was answering the moment the Admin Token changes', async () => {
    const up = await uploadSite({ 'index.html': '<p>rotation</p>' }, { password: 'rotation-pass' });
    const slug = up.json.project.slug;
    const unlock = await site('POST', `/p/${slug}/unlock`, { body: { password: 'rotation-pass' } });
    const cookie = cookieFrom(unlock.cookies, `htmls_project_unlock_${slug}`);
    expect((await warm(`/p/${slug}/`, { cookie })).text).toContain('rotation');
    expect((await call('PATCH', '/api/auth/token', { token: TEST_ADMIN_TOKEN, body: { token: 'rotated-admin-token-of-the-front' } })).status).toBe(200);
    expect((await missed(`/p/${slug}/`, { cookie })).status).toBe(401);
  });
});
