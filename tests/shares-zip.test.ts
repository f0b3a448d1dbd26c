import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { call, cookieFrom, randomIp } from './support/http';
import { createMember, type Member } from './support/members';
import { expireShare, uploadShare, type ShareFiles } from './support/shares';

useFileServer();

let owner: Member;
const dir = mkdtempSync(join(tmpdir(), 'share-zip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const base = baseUrl;
const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(base() + path, { method, headers, redirect: 'manual' });
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const files: ShareFiles = {
  'clips/movie.mp4': randomBytes(700_000),
  'clips/deep/trailer.mov': randomBytes(123_457),
  'docs/résumé 東京 (1).txt': Buffer.from('curriculum vitae'),
  'empty.txt': Buffer.alloc(0),
  'top.bin': randomBytes(65_537),
};

async function share(f: ShareFiles = files, opts: { password?: string } = {}): Promise<string> {
  const { share } = await uploadShare(owner.token, f, opts);
  return share.id as string;
}

const run = promisify(execFile);

/**
 * python3's zipfile reads every member (CRC checked): name → sha256 of its bytes ("/" for folders).
 * Asynchronous, as every child here: the server runs in this process, and while a synchronous
 * child blocks it, its kept-alive sockets' idle timers run out and close them under the next
 * request (ECONNRESET, seen on Node 24 on a busy machine).
 */
async function readZip(file: string): Promise<Record<string, string>> {
  const script = [
    'import zipfile,json,sys,hashlib',
    'z=zipfile.ZipFile(sys.argv[1])',
    'assert z.testzip() is None',
    'print(json.dumps({i.filename: ("/" if i.is_dir() else hashlib.sha256(z.read(i)).hexdigest()) for i in z.infolist()}))',
  ].join('\n');
  return JSON.parse((await run('python3', ['-c', script, file])).stdout);
}

function expected(f: ShareFiles, strip = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, data] of Object.entries(f)) {
    const name = path.slice(strip.length);
    const parts = name.split('/');
    for (let i = 1; i < parts.length; i++) out[`${parts.slice(0, i).join('/')}/`] = '/';
    out[name] = sha(data);
  }
  return out;
}

const curl = async (...args: string[]) => (await run('curl', ['-sS', '--fail', ...args], { cwd: dir })).stdout;

beforeAll(async () => {
  owner = await createMember();
});

describe('GET /f/:id/?zip', () => {
  it('resumes a cold download with curl -C - into bytes identical to a full one; unzip -t and python read every file', async () => {
    const id = await share();
    const url = `${base()}/f/${id}/?zip`;
    // Interrupted first: only the first 300,000 bytes arrived (on S3 in direct mode no CRC is known
    // yet: the parts never passed the server; lib/shares/stream-share-zip.test.ts covers fs).
    await curl('-r', '0-299999', '-o', 'resumed.zip', url);
    expect(statSync(join(dir, 'resumed.zip')).size).toBe(300_000);
    await curl('-C', '-', '-o', 'resumed.zip', url);
    const full = await get(`/f/${id}/?zip`);
    expect(full.status).toBe(200);
    const bytes = Buffer.from(await full.arrayBuffer());
    expect(full.headers.get('content-length')).toBe(String(bytes.length));
    expect(readFileSync(join(dir, 'resumed.zip')).equals(bytes)).toBe(true);
    // The path the OpenAPI document names, without the slash, is the same archive.
    const documented = await get(`/f/${id}?zip`, {}, 'HEAD');
    expect(documented.status).toBe(200);
    expect(documented.headers.get('etag')).toBe(full.headers.get('etag'));
    writeFileSync(join(dir, 'full.zip'), bytes);
    expect((await run('unzip', ['-t', join(dir, 'full.zip')])).stdout).toMatch(/No errors detected/);
    expect(await readZip(join(dir, 'full.zip'))).toEqual(expected(files));
    // unzip -l lists the UTF-8 name as such.
    expect((await run('unzip', ['-l', join(dir, 'full.zip')])).stdout).toContain('docs/résumé 東京 (1).txt');
  });

  it('exact length, ETag, 304, HEAD, attachment name; a range inside a file and one of the central directory', async () => {
    const id = await share();
    const head = await get(`/${['f', id].join('/')}?zip`, {}, 'HEAD');
    expect(head.status).toBe(200);
    const size = Number(head.headers.get('content-length'));
    const etag = head.headers.get('etag')!;
    expect(head.headers.get('content-type')).toBe('application/zip');
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    // Mixed top-level folders and no note: only the id names it.
    expect(head.headers.get('content-disposition')).toBe(`attachment; filename="${id}.zip"`);
    const { share: noted } = await uploadShare(owner.token, { 'a.txt': Buffer.from('a') }, { note: 'Trip: day 1/2' });
    const named = await get(`/f/${noted.id}/?zip`, {}, 'HEAD');
    expect(named.headers.get('content-disposition')).toBe('attachment; filename="Trip day 1 2.zip"');
    const { share: foldered } = await uploadShare(owner.token, { 'trip/a.txt': Buffer.from('a'), 'trip/b/c.txt': Buffer.from('c') });
    expect((await get(`/f/${foldered.id}/?zip`, {}, 'HEAD')).headers.get('content-disposition')).toBe('attachment; filename="trip.zip"');
    expect(await head.text()).toBe('');
    // Ranges before any full read (cold CRCs in direct mode): the middle of movie.mp4, and the last 100 bytes.
    const mid = await get(`/f/${id}/?zip`, { Range: 'bytes=1000-1999' });
    expect([mid.status, mid.headers.get('content-range')]).toEqual([206, `bytes 1000-1999/${size}`]);
    const midBytes = Buffer.from(await mid.arrayBuffer());
    const tail = await get(`/f/${id}/?zip`, { Range: 'bytes=-100' });
    expect(tail.status).toBe(206);
    const tailBytes = Buffer.from(await tail.arrayBuffer());
    const full = Buffer.from(await (await get(`/f/${id}/?zip`)).arrayBuffer());
    expect(full.length).toBe(size);
    expect(midBytes.equals(full.subarray(1000, 2000))).toBe(true);
    expect(tailBytes.equals(full.subarray(size - 100))).toBe(true);
    // Same items, same bytes and ETag.
    const again = await get(`/f/${id}/?zip`);
    expect(again.headers.get('etag')).toBe(etag);
    expect(Buffer.from(await again.arrayBuffer()).equals(full)).toBe(true);
    expect((await get(`/f/${id}/?zip`, { 'If-None-Match': etag })).status).toBe(304);
    expect((await get(`/f/${id}/?zip`, { Range: `bytes=${size}-` })).status).toBe(416);
    const stale = await get(`/f/${id}/?zip`, { Range: 'bytes=0-9', 'If-Range': '"other"' });
    expect(stale.status).toBe(200);
    await stale.body?.cancel();
    expect((await get(`/f/${id}/?zip`, { 'If-Match': '"other"' })).status).toBe(412);
    // Two ranges: a multipart/byteranges answer whose parts are the archive's bytes.
    const multi = await get(`/f/${id}/?zip`, { Range: 'bytes=0-9,-10' });
    expect(multi.status).toBe(206);
    expect(multi.headers.get('content-type')).toMatch(/^multipart\/byteranges; boundary=/);
    const parts = Buffer.from(await multi.arrayBuffer()).toString('latin1');
    expect(parts).toContain(`Content-Range: bytes 0-9/${size}`);
    expect(parts).toContain(full.subarray(0, 10).toString('latin1'));
    expect(parts).toContain(full.subarray(size - 10).toString('latin1'));
    expect((await get(`/f/${id}/?zip`, {}, 'DELETE')).status).toBe(405);
  });

  it('one folder: ?zip&folder=clips holds clips/ and below; a missing folder is 404', async () => {
    const id = await share();
    const r = await get(`/f/${id}/?zip&folder=clips`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="clips.zip"');
    writeFileSync(join(dir, 'clips.zip'), Buffer.from(await r.arrayBuffer()));
    const clips = Object.fromEntries(Object.entries(files).filter(([p]) => p.startsWith('clips/')));
    expect(await readZip(join(dir, 'clips.zip'))).toEqual(expected(clips));
    const deep = await get(`/f/${id}/?zip&folder=${encodeURIComponent('clips/deep')}`);
    writeFileSync(join(dir, 'deep.zip'), Buffer.from(await deep.arrayBuffer()));
    expect(await readZip(join(dir, 'deep.zip'))).toEqual(expected({ 'clips/deep/trailer.mov': files['clips/deep/trailer.mov']! }, 'clips/'));
    expect((await get(`/f/${id}/?zip&folder=nope`)).status).toBe(404);
    expect((await get(`/f/${id}/?zip&folder=clip`)).status).toBe(404);
  });

  it('guest gates: password refused without the unlock cookie, offline 404, expired 410, missing 404', async () => {
    const id = await share({ 'a.txt': Buffer.from('secret bytes') }, { password: 'open sesame' });
    const locked = await get(`/f/${id}/?zip`);
    expect(locked.status).toBe(401);
    expect(await locked.text()).not.toContain('secret bytes');
    expect((await get(`/f/${id}/?zip`, { Range: 'bytes=0-9' })).status).toBe(401);
    const right = await call('POST', `/f/${id}/unlock`, { ip: randomIp(), body: { password: 'open sesame' } });
    const cookie = cookieFrom(right.cookies, `htmls_share_unlock_${id}`);
    const open = await get(`/f/${id}/?zip`, { Cookie: cookie });
    expect(open.status).toBe(200);
    writeFileSync(join(dir, 'locked.zip'), Buffer.from(await open.arrayBuffer()));
    expect(await readZip(join(dir, 'locked.zip'))).toEqual({ 'a.txt': sha(Buffer.from('secret bytes')) });

    const patch = (body: unknown) => call('PATCH', `/api/shares/${id}`, { token: owner.token, body });
    expect((await patch({ status: 'offline' })).status).toBe(200);
    expect((await get(`/f/${id}/?zip`, { Cookie: cookie })).status).toBe(404);
    await expireShare(owner.token, id, { body: { status: 'online' } });
    expect((await get(`/f/${id}/?zip`, { Cookie: cookie })).status).toBe(410);
    expect((await get('/f/doesnotexist123/?zip')).status).toBe(404);
  });
});
