import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { call, downloadHash } from './support/http';
import { createMember } from './support/members';
import { testStore } from './support/store';
import { makeToken } from './support/tokens';

// The 1 GiB upload with curl -T, its server's memory measured, is the slow tier's
// (one-request-upload.slow.test.ts). Next's pages: the share page.
useFileServer({}, { pages: true });

const MiB = 1024 * 1024;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');


describe('PUT /api/shares/file/<name> (curl -T)', () => {
  it('takes note, expires_at, password and max_downloads from the query; the share page asks for the password', async () => {
    const m = await createMember();
    const q = new URLSearchParams({ note: 'from curl', expires_at: '2099-01-01T00:00:00Z', password: 'letmein-1', max_downloads: '3' });
    const r = await call('PUT', `/api/shares/file/notes%20%C3%A9t%C3%A9.txt?${q}`, { token: m.token, raw: 'hello', headers: { 'Content-Type': 'text/plain' } });
    expect(r.status).toBe(201);
    expect(r.json.share).toMatchObject({ note: 'from curl', expires_at: '2099-01-01T00:00:00.000Z', has_password: true, max_downloads: 3, total_bytes: 5 });
    expect(r.json.share.items[0].relative_path).toBe('notes été.txt');
    expect((await fetch(`${baseUrl()}${r.json.share.items[0].url}`)).status).toBe(401);
  });

  it("answers the share's whole link: in Location always, and alone as text when the client asks for text/plain (curl -T in a terminal)", async () => {
    const m = await createMember();
    const json = await call('PUT', '/api/shares/file/a.txt', { token: m.token, raw: 'a' });
    expect(json.status).toBe(201);
    expect(json.headers.get('location')).toBe(`${baseUrl()}${json.json.share.url}`);
    const text = await call('PUT', '/api/shares/file/b.txt', { token: m.token, raw: 'b', headers: { Accept: 'text/plain' } });
    expect(text.status).toBe(201);
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(text.text).toMatch(new RegExp(`^${baseUrl()}/f/[A-Za-z0-9]+\n$`));
    expect(text.headers.get('location')).toBe(text.text.trim());
    expect((await fetch(text.text.trim())).status).toBe(200);
    // ShareX's multipart upload gets the same Location.
    const form = new FormData();
    form.append('file', new Blob(['c']), 'c.txt');
    const multi = await fetch(`${baseUrl()}/api/shares/files`, { method: 'POST', headers: { Authorization: `Bearer ${m.token}` }, body: form });
    expect(multi.status).toBe(201);
    expect(multi.headers.get('location')).toBe(`${baseUrl()}${(await multi.json()).share.url}`);
  });

  it('quota is checked from Content-Length before a byte is stored: 413, nothing left', async () => {
    const m = await createMember({ quota: 1 * MiB });
    const r = await call('PUT', '/api/shares/file/too-big.bin', { token: m.token, raw: new Uint8Array(2 * MiB) });
    expect([r.status, r.json.code]).toEqual([413, 'quota_exceeded']);
    expect((await call('GET', '/api/shares', { token: m.token })).json.shares).toEqual([]);
    expect((await call('GET', '/api/auth/me', { token: m.token })).json.user.used_bytes).toBe(0);
  });

  it('Content-Length is required (chunked is 400); a name is required; bad query values are 400', async () => {
    const m = await createMember();
    const chunked = await rawPut(`/api/shares/file/a.txt`, m.token, 'Transfer-Encoding: chunked\r\n', '5\r\nhello\r\n0\r\n\r\n');
    expect(chunked).toMatch(/^HTTP\/1\.1 400/);
    expect((await call('PUT', '/api/shares/file/', { token: m.token, raw: 'x' })).status).toBe(400);
    expect((await call('PUT', '/api/shares/file/a.txt?max_downloads=zero', { token: m.token, raw: 'x' })).status).toBe(400);
    expect((await call('PUT', '/api/shares/file/a%2F..%2Fb', { token: m.token, raw: 'x' })).status).toBe(400);
    expect((await call('GET', '/api/shares', { token: m.token })).json.shares).toEqual([]);
  });

  it('a request cut halfway leaves nothing: no share, no object, no unfinished upload, no reservation', async () => {
    const quota = 64 * MiB;
    const m = await createMember({ quota });
    const before = new Set((await testStore().list('shared/')).map((o) => o.key));
    const uploads = async () => (await testStore().listMultipartUploads('shared/')).filter((u) => u.key.endsWith('/cut.bin'));
    const socket = net.connect(Number(new URL(baseUrl()).port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(`PUT /api/shares/file/cut.bin HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${m.token}\r\nContent-Length: ${40 * MiB}\r\n\r\n`);
    await new Promise((r) => socket.write(Buffer.alloc(8 * MiB, 7), r));
    // The store holds the upload while its body flows…
    await expect.poll(async () => (await uploads()).length, { timeout: 30_000 }).toBe(1);
    socket.destroy();
    // …and once the cut is seen it is gone, and with it the reservation: the whole quota is free.
    await expect.poll(async () => (await uploads()).length, { timeout: 60_000, interval: 250 }).toBe(0);
    const full = await call('PUT', '/api/shares/file/after.bin', { token: m.token, raw: new Uint8Array(quota) });
    expect(full.status, full.text).toBe(201);
    const shares = (await call('GET', '/api/shares', { token: m.token })).json.shares;
    expect(shares).toHaveLength(1);
    const only = (await call('GET', `/api/shares/${shares[0].id}`, { token: m.token })).json.share;
    expect(only.items.map((i: { relative_path: string }) => i.relative_path)).toEqual(['after.bin']);
    const after = (await testStore().list('shared/')).map((o) => o.key).filter((k) => !before.has(k));
    expect(after).toEqual([`shared/${shares[0].id}/after.bin`]);
    expect((await call('GET', '/api/auth/me', { token: m.token })).json.user.used_bytes).toBe(quota);
  });
  it('an abort of the group while its body flows (POST /api/shares/upload/abort) leaves nothing either', { timeout: 120_000 }, async () => {
    const m = await createMember({ quota: 64 * MiB });
    const uploads = async () => (await testStore().listMultipartUploads('shared/')).filter((u) => u.key.endsWith('/aborted.bin'));
    const socket = net.connect(Number(new URL(baseUrl()).port), '127.0.0.1');
    socket.on('error', () => {});
    let closed = false;
    socket.on('close', () => (closed = true));
    let answer = '';
    socket.on('data', (d) => (answer += d));
    await new Promise((r) => socket.once('connect', r));
    socket.write(`PUT /api/shares/file/aborted.bin HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${m.token}\r\nContent-Length: ${16 * MiB}\r\n\r\n`);
    await new Promise((r) => socket.write(Buffer.alloc(4 * MiB, 1), r));
    await expect.poll(async () => (await uploads()).length, { timeout: 30_000 }).toBe(1);
    const groupId = (await uploads())[0].key.split('/')[1];
    expect((await call('POST', '/api/shares/upload/abort', { token: m.token, body: { groupId } })).status).toBe(200);
    socket.write(Buffer.alloc(12 * MiB, 2));
    // The server answers 4xx, or (the fs store stops the writers of a deleted upload) closes the connection.
    await expect.poll(() => closed || /^HTTP\/1\.1 4\d\d/.test(answer), { timeout: 30_000 }).toBe(true);
    expect(answer).not.toMatch(/^HTTP\/1\.1 [25]/);
    socket.destroy();
    await expect.poll(async () => (await testStore().list(`shared/${groupId}/`)).length + (await uploads()).length, { timeout: 30_000, interval: 250 }).toBe(0);
    expect((await call('GET', '/api/shares', { token: m.token })).json.shares).toEqual([]);
    expect((await call('PUT', '/api/shares/file/full.bin', { token: m.token, raw: new Uint8Array(64 * MiB) })).status).toBe(201);
  });
});

describe('POST /api/shares/files (multipart, ShareX)', () => {
  it('a ShareX-style upload with a shares:write token: one file part named "file", 201 with share.url', async () => {
    const m = await createMember();
    const token = await makeToken(m.token, ['shares:write']);
    const png = randomBytes(300 * 1024);
    const form = new FormData();
    form.append('file', new Blob([png], { type: 'image/png' }), 'Screenshot 2026-11-27.png');
    const r = await call('POST', '/api/shares/files', { token, raw: form });
    expect(r.status, r.text).toBe(201);
    expect(r.json.share).toMatchObject({ status: 'online', file_count: 1, total_bytes: png.length, url: `/f/${r.json.share.id}` });
    const item = await fetch(`${baseUrl()}${r.json.share.items[0].url}`);
    expect(item.headers.get('content-type')).toBe('image/png');
    expect(sha256(Buffer.from(await item.arrayBuffer()))).toBe(sha256(png));
  });

  it('several files and the share fields; a file larger than a gathered part arrives byte-identical', async () => {
    const m = await createMember();
    const big = randomBytes(20 * MiB + 123);
    const small = Buffer.from('small file');
    const form = new FormData();
    form.append('note', 'two files');
    form.append('max_downloads', '5');
    form.append('file', new Blob([big]), 'big.bin');
    form.append('file', new Blob([small]), 'docs/small.txt');
    form.append('file', new Blob([]), 'empty.txt');
    const r = await call('POST', '/api/shares/files', { token: m.token, raw: form });
    expect(r.status, r.text).toBe(201);
    expect(r.json.share).toMatchObject({ note: 'two files', max_downloads: 5, file_count: 3, total_bytes: big.length + small.length });
    const byPath = Object.fromEntries(r.json.share.items.map((i: { relative_path: string; url: string }) => [i.relative_path, i.url]));
    expect((await downloadHash(`${baseUrl()}${byPath['big.bin']}`)).hash).toBe(sha256(big));
    expect(await (await fetch(`${baseUrl()}${byPath['docs/small.txt']}`)).text()).toBe('small file');
    expect((await call('GET', '/api/auth/me', { token: m.token })).json.user.used_bytes).toBe(big.length + small.length);
  });

  it('no file part, a field after the files, or two files of one name: 400 and nothing stored', async () => {
    const m = await createMember();
    const none = new FormData();
    none.append('note', 'x');
    expect((await call('POST', '/api/shares/files', { token: m.token, raw: none })).status).toBe(400);
    const late = new FormData();
    late.append('file', new Blob(['a']), 'a.txt');
    late.append('note', 'late');
    expect((await call('POST', '/api/shares/files', { token: m.token, raw: late })).status).toBe(400);
    const twice = new FormData();
    twice.append('file', new Blob(['a']), 'a.txt');
    twice.append('file', new Blob(['b']), 'A.txt');
    expect((await call('POST', '/api/shares/files', { token: m.token, raw: twice })).status).toBe(400);
    expect((await call('POST', '/api/shares/files', { token: m.token, body: { files: [] } })).status).toBe(400);
    expect((await call('GET', '/api/shares', { token: m.token })).json.shares).toEqual([]);
    expect((await call('GET', '/api/auth/me', { token: m.token })).json.user.used_bytes).toBe(0);
    await expect.poll(async () => (await testStore().listMultipartUploads('shared/')).length, { timeout: 30_000 }).toBe(0);
  });
});

/** A PUT written on a socket as is (fetch always sends a length or chunks of its own). */
function rawPut(p: string, token: string, extraHeaders: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(new URL(baseUrl()).port), '127.0.0.1');
    let text = '';
    s.on('data', (d) => (text += d));
    s.on('error', reject);
    s.on('close', () => resolve(text));
    s.write(`PUT ${p} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n${extraHeaders}\r\n${body}`);
  });
}
