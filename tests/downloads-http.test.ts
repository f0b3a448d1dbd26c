import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { useS3Storage } from './support/env';
import { call, randomIp } from './support/http';
import { createMember, type Member } from './support/members';
import { DOWNLOAD_NAMES } from './support/download-names';
import { uploadShare } from './support/shares';
import { testStore } from './support/store';

// Next's pages: the guest page.
useFileServer({}, { pages: true });

const run = promisify(execFile);
const base = baseUrl;
const get = (p: string, headers: Record<string, string> = {}, method = 'GET') => fetch(base() + p, { method, headers, redirect: 'manual' });
/** Counts are written about once a second (lib/shares/count-downloads.ts). */
const POLL = { timeout: 15_000, interval: 200 };
const bytesOf = async (r: Response) => Buffer.from(await r.arrayBuffer());

let owner: Member;
let shareId: string;
const data = randomBytes(200_000);
const file = () => `/f/${shareId}/data.bin`;

/** Names every client must save exactly. */
const NAMES: Record<string, string> = DOWNLOAD_NAMES;

beforeAll(async () => {
  owner = await createMember();
  const files: Record<string, Buffer> = { 'data.bin': data };
  for (const [k, name] of Object.entries(NAMES)) files[name] = Buffer.from(`${k}\n`);
  const { share } = await uploadShare(owner.token, files);
  shareId = share.id;
});

describe('Content-Disposition names for curl -OJ and wget --content-disposition', () => {
  const urlOf = (name: string) => `${base()}/f/${shareId}/${encodeURIComponent(name)}?download=1`;

  it('curl -OJ (reads filename only) saves the ASCII fallback: transliterated, never 8-bit', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'htmls-curl-'));
    try {
      const expected: Record<string, string> = {
        latin1: 'Resume (final).pdf',
        latin1b: 'naive cafe.bin',
        latin1c: 'Unicode resume (1).txt',
        quotes: `say _hi_ it's.txt`,
        percent: '100%25 done %41.txt',
        emoji: 'party _.png',
        cjk: '_.txt',
        dot: '.env',
        long: NAMES.long,
        longUtf8: 'e'.repeat(98) + '.txt',
      };
      for (const [k, name] of Object.entries(NAMES)) {
        const sub = path.join(dir, k);
        await run('mkdir', [sub]);
        await run('curl', ['-sS', '-f', '-O', '-J', urlOf(name)], { cwd: sub });
        const saved = await readdir(sub);
        expect([k, saved]).toEqual([k, [expected[k]]]);
        expect((await readFile(path.join(sub, saved[0]), 'utf8')).trim()).toBe(k);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('wget --content-disposition (reads filename*) saves the exact UTF-8 name', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'htmls-wget-'));
    try {
      // wget 1.21 percent-decodes filename* twice and truncates long names by their encoded
      // length: `%` names and long non-ASCII names are its own bugs (curl and Chromium get them).
      const names = Object.entries(NAMES).filter(([k]) => k !== 'percent' && k !== 'longUtf8');
      names.push(['percentSafe', '50% off.txt']);
      const extra = await uploadShare(owner.token, { '50% off.txt': Buffer.from('percentSafe\n') });
      for (const [k, name] of names) {
        const sub = path.join(dir, k);
        await run('mkdir', [sub]);
        const id = k === 'percentSafe' ? extra.share.id : shareId;
        await run('wget', ['-q', '--content-disposition', `${base()}/f/${id}/${encodeURIComponent(name)}?download=1`], { cwd: sub, env: { ...process.env, LANG: 'C.UTF-8' } });
        const saved = await readdir(sub);
        expect([k, saved]).toEqual([k, [name.normalize('NFC')]]);
        expect((await readFile(path.join(sub, saved[0]), 'utf8')).trim()).toBe(k);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('sends filename* exactly when the name is not plain printable ASCII without quotes, backslashes or %', async () => {
    for (const [k, name] of Object.entries(NAMES)) {
      const r = await get(`/f/${shareId}/${encodeURIComponent(name)}`, {}, 'HEAD');
      const cd = r.headers.get('content-disposition')!;
      expect(cd, k).toMatch(/^(inline|attachment); filename="[\x20\x21\x23-\x5b\x5d-\x7e]+"/);
      const ext = /filename\*=UTF-8''([^;]+)$/.exec(cd);
      const plain = /^[\x20\x21\x23\x24\x26-\x5b\x5d-\x7e]*$/.test(name);
      expect([k, ext !== null]).toEqual([k, !plain]);
      if (ext) expect(decodeURIComponent(ext[1])).toBe(name);
    }
  });
});

describe('RFC 9110 conditional requests', () => {
  it('If-Modified-Since: 304 when not modified since (GET and HEAD), 200 when older (wget -N)', async () => {
    const first = await get(file());
    await first.arrayBuffer();
    const lm = first.headers.get('last-modified')!;
    const etag = first.headers.get('etag')!;
    const nm = await get(file(), { 'If-Modified-Since': lm });
    expect(nm.status).toBe(304);
    expect(nm.headers.get('etag')).toBe(etag);
    expect((await nm.arrayBuffer()).byteLength).toBe(0);
    expect((await get(file(), { 'If-Modified-Since': lm }, 'HEAD')).status).toBe(304);
    const older = await get(file(), { 'If-Modified-Since': new Date(Date.parse(lm) - 1000).toUTCString() });
    expect(older.status).toBe(200);
    expect((await bytesOf(older)).equals(data)).toBe(true);
    // If-None-Match wins over If-Modified-Since.
    const mismatch = await get(file(), { 'If-None-Match': '"other"', 'If-Modified-Since': lm });
    expect(mismatch.status).toBe(200);
    await mismatch.arrayBuffer();
  });

  it('If-Match / If-Unmodified-Since: 412 when false, 200 when true', async () => {
    const head = await get(file(), {}, 'HEAD');
    const etag = head.headers.get('etag')!;
    const lm = head.headers.get('last-modified')!;
    const badMatch = await get(file(), { 'If-Match': '"nope"' });
    expect(badMatch.status).toBe(412);
    expect((await badMatch.arrayBuffer()).byteLength).toBe(0);
    const okMatch = await get(file(), { 'If-Match': etag });
    expect(okMatch.status).toBe(200);
    await okMatch.arrayBuffer();
    expect((await get(file(), { 'If-Unmodified-Since': new Date(Date.parse(lm) - 60_000).toUTCString() })).status).toBe(412);
    const okSince = await get(file(), { 'If-Unmodified-Since': lm });
    expect(okSince.status).toBe(200);
    await okSince.arrayBuffer();
    expect((await get(file(), { 'If-Match': '"nope"' }, 'HEAD')).status).toBe(412);
  });

  it('If-Range with a date applies the range only for exactly Last-Modified', async () => {
    const lm = (await get(file(), {}, 'HEAD')).headers.get('last-modified')!;
    const exact = await get(file(), { Range: 'bytes=0-9', 'If-Range': lm });
    expect(exact.status).toBe(206);
    expect((await bytesOf(exact)).equals(data.subarray(0, 10))).toBe(true);
    const later = await get(file(), { Range: 'bytes=0-9', 'If-Range': new Date(Date.parse(lm) + 3_600_000).toUTCString() });
    expect(later.status).toBe(200);
    expect((await bytesOf(later)).length).toBe(data.length);
  });
});

describe('RFC 9110 range requests', () => {
  /** Parses a multipart/byteranges body into its parts. */
  function parts(body: Buffer, contentType: string) {
    const boundary = /boundary=([^;]+)/.exec(contentType)![1];
    const out: { range: string; type: string; bytes: Buffer }[] = [];
    let at = body.indexOf(`--${boundary}\r\n`);
    while (at >= 0) {
      const headEnd = body.indexOf('\r\n\r\n', at);
      const head = body.subarray(at, headEnd).toString();
      const range = /Content-Range: bytes (\d+)-(\d+)\/(\d+)/.exec(head)!;
      const start = headEnd + 4;
      const len = Number(range[2]) - Number(range[1]) + 1;
      out.push({ range: `${range[1]}-${range[2]}/${range[3]}`, type: /Content-Type: (.*)/.exec(head)![1].trim(), bytes: body.subarray(start, start + len) });
      const next = start + len;
      expect(body.subarray(next, next + 2).toString()).toBe('\r\n');
      if (body.subarray(next + 2).toString() === `--${boundary}--\r\n`) return out;
      at = next + 2;
    }
    throw new Error('no closing boundary');
  }

  it('several ranges answer a streamed 206 multipart/byteranges with an exact length', async () => {
    const n = data.length;
    const r = await get(file(), { Range: 'bytes=0-9,100-109,-5' });
    expect(r.status).toBe(206);
    const ct = r.headers.get('content-type')!;
    expect(ct).toMatch(/^multipart\/byteranges; boundary=\S+$/);
    const body = await bytesOf(r);
    expect(Number(r.headers.get('content-length'))).toBe(body.length);
    expect(parts(body, ct)).toEqual([
      { range: `0-9/${n}`, type: 'application/octet-stream', bytes: data.subarray(0, 10) },
      { range: `100-109/${n}`, type: 'application/octet-stream', bytes: data.subarray(100, 110) },
      { range: `${n - 5}-${n - 1}/${n}`, type: 'application/octet-stream', bytes: data.subarray(n - 5) },
    ]);
  });

  it('overlapping and adjacent ranges are coalesced (one range: a plain 206)', async () => {
    const r = await get(file(), { Range: 'bytes=10-19,0-9,5-14' });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe(`bytes 0-19/${data.length}`);
    expect((await bytesOf(r)).equals(data.subarray(0, 20))).toBe(true);
  });

  it('more than 16 ranges answer the whole body (200)', async () => {
    const many = 'bytes=' + Array.from({ length: 17 }, (_, i) => `${i * 100}-${i * 100 + 9}`).join(',');
    const r = await get(file(), { Range: many });
    expect(r.status).toBe(200);
    expect((await bytesOf(r)).equals(data)).toBe(true);
    const sixteen = 'bytes=' + Array.from({ length: 16 }, (_, i) => `${i * 100}-${i * 100 + 9}`).join(',');
    const ok = await get(file(), { Range: sixteen });
    expect(ok.status).toBe(206);
    expect(ok.headers.get('content-type')).toMatch(/^multipart\/byteranges/);
    await ok.arrayBuffer();
  });

  it('positions beyond 2^53: a huge first position is 416, a huge last one clamps', async () => {
    const n = data.length;
    for (const range of ['bytes=99999999999999999999-', `bytes=${2 ** 53}-${2 ** 53 + 5}`, `bytes=${n}-`, 'bytes=-0']) {
      const r = await get(file(), { Range: range });
      expect([range, r.status, r.headers.get('content-range')]).toEqual([range, 416, `bytes */${n}`]);
      await r.arrayBuffer();
    }
    const clamped = await get(file(), { Range: `bytes=${n - 3}-${'9'.repeat(30)}` });
    expect(clamped.status).toBe(206);
    expect(clamped.headers.get('content-range')).toBe(`bytes ${n - 3}-${n - 1}/${n}`);
    expect((await bytesOf(clamped)).equals(data.subarray(n - 3))).toBe(true);
  });

  it('HEAD ignores Range (RFC 9110 §14.2)', async () => {
    const r = await get(file(), { Range: 'bytes=0-9' }, 'HEAD');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-length')).toBe(String(data.length));
  });

  it('seeks: small ranges anywhere in the file are its exact bytes (one positional read on fs)', async () => {
    const n = data.length;
    for (const [a, b] of [[0, 0], [1, 4096], [65_536, 131_071], [n - 1000, n - 1]]) {
      const r = await get(file(), { Range: `bytes=${a}-${b}` });
      expect([r.status, r.headers.get('content-range')]).toEqual([206, `bytes ${a}-${b}/${n}`]);
      expect((await bytesOf(r)).equals(data.subarray(a, b + 1))).toBe(true);
    }
  });

  // The fs store reads into a small pool of buffers and reuses each once its socket has taken
  // it: a buffer handed out again too early would put one download's bytes into another's. The
  // stalled readers fill their sockets' kernel buffers (a few MB on loopback), so the server
  // holds chunks it could not write yet while the other requests keep taking buffers.
  it('many downloads and seeks at once, stalled and quick readers, each get their exact bytes', async () => {
    const files = Object.fromEntries(['a.bin', 'b.bin'].map((n) => [n, randomBytes(24 * 1024 * 1024 + 333)]));
    const { share } = await uploadShare(owner.token, files);
    const names = Object.keys(files);
    const fetchBytes = (name: string, headers: Record<string, string>, stallMs: number) =>
      new Promise<Buffer>((resolve, reject) => {
        // Each reader a client of its own: this is about bytes under concurrency, not about one
        // address's download slots (MAX_DOWNLOADS_PER_IP: tests/security-stalled-readers.slow.test.ts).
        http.get(`${base()}/f/${share.id}/${name}`, { headers: { 'X-Forwarded-For': randomIp(), ...headers }, agent: false }, (res) => {
          const chunks: Buffer[] = [];
          res.pause();
          setTimeout(() => res.resume(), stallMs);
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks)));
          res.on('error', reject);
        }).on('error', reject);
      });
    const jobs: Promise<void>[] = [];
    for (let i = 0; i < 6; i++) {
      const name = names[i % 2];
      jobs.push(fetchBytes(name, {}, i % 2 === 0 ? 1500 : 0).then((b) => expect(b.equals(files[name])).toBe(true)));
    }
    for (let i = 0; i < 40; i++) {
      const name = names[i % 2];
      const start = Math.floor(Math.random() * (files[name].length - 2_000_000));
      const end = start + (i % 2 ? 65_535 : 1_500_000);
      jobs.push(fetchBytes(name, { Range: `bytes=${start}-${end}` }, 0).then((b) => expect(b.equals(files[name].subarray(start, end + 1))).toBe(true)));
    }
    await Promise.all(jobs);
  });

  // The fs store's own fault: its file shortened behind the server's back. The record's size
  // promises bytes the disk no longer has; a seek there is the store's failure (502), not a 500.
  // An S3 object cannot be shortened in place: this case is the fs store's.
  (useS3Storage() ? it.skip : it)(`a seek past the end of an object shortened on disk answers 502 storage_unavailable${useS3Storage() ? ' [skipped: the fs store only]' : ''}`, async () => {
    const { share } = await uploadShare(owner.token, { 'short.bin': randomBytes(50_000) });
    const key = `shared/${share.id}/short.bin`;
    await testStore().put(key, randomBytes(10_000));
    const r = await fetch(`${base()}/f/${share.id}/short.bin`, { headers: { Range: 'bytes=20000-20099', Accept: 'application/json' } });
    expect(r.status).toBe(502);
    expect((await r.json()).code).toBe('storage_unavailable');
  });

  it('curl resumes a download with -C - into the exact bytes', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'htmls-resume-'));
    try {
      const out = path.join(dir, 'data.bin');
      await run('curl', ['-sS', '-f', '-r', '0-99999', '-o', out, base() + file()]);
      await run('curl', ['-sS', '-f', '-C', '-', '-o', out, base() + file()]);
      expect((await readFile(out)).equals(data)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('download counts and max_downloads', () => {
  const shareOf = async (id: string) => (await call('GET', `/api/shares/${id}`, { token: owner.token })).json.share;

  it('counts completed downloads per item and share; a Range counts when it reaches the last byte; HEAD and 304 never', async () => {
    const { share } = await uploadShare(owner.token, { 'a.bin': randomBytes(1000), 'b.txt': Buffer.from('b') });
    const fresh = await shareOf(share.id);
    expect(fresh.download_count).toBe(0);
    expect(fresh.max_downloads).toBeNull();
    expect(fresh.items.map((i: { download_count: number }) => i.download_count)).toEqual([0, 0]);
    const a = `/f/${share.id}/a.bin`;
    await (await get(a)).arrayBuffer(); // 1 complete
    await (await get(a, { Range: 'bytes=0-99' })).arrayBuffer(); // not the end
    await (await get(a, { Range: 'bytes=100-' })).arrayBuffer(); // reaches the end: 1
    await (await get(a, {}, 'HEAD')).arrayBuffer(); // never
    const etag = (await get(a, {}, 'HEAD')).headers.get('etag')!;
    await (await get(a, { 'If-None-Match': etag })).arrayBuffer(); // 304: never
    await (await get(`/f/${share.id}/b.txt`)).arrayBuffer(); // 1
    await expect
      .poll(async () => {
        const s = await shareOf(share.id);
        return [s.download_count, ...s.items.map((i: { relative_path: string; download_count: number }) => `${i.relative_path}:${i.download_count}`)];
      }, POLL)
      .toEqual([3, 'a.bin:2', 'b.txt:1']);
  });

  it('a whole ZIP download counts once for the share (not for its items) and max_downloads applies to it', async () => {
    const { share } = await uploadShare(owner.token, { 'z/one.txt': Buffer.from('1'), 'z/two.txt': Buffer.from('2') });
    const zip = `/f/${share.id}/?zip`;
    const head = await get(zip, {}, 'HEAD');
    expect(head.status).toBe(200);
    const size = Number(head.headers.get('content-length'));
    await (await get(zip, { Range: 'bytes=0-9' })).arrayBuffer(); // not the end: no count
    const whole = await get(zip);
    expect(whole.status).toBe(200);
    expect((await bytesOf(whole)).length).toBe(size);
    await expect
      .poll(async () => {
        const s = await shareOf(share.id);
        return [s.download_count, ...s.items.map((i: { download_count: number }) => i.download_count)];
      }, POLL)
      .toEqual([1, 0, 0]);
    // With a limit a download counts when it starts (tests/download-limits.test.ts has the rest).
    await call('PATCH', `/api/shares/${share.id}`, { token: owner.token, body: { max_downloads: 2 } });
    await (await get(`/f/${share.id}/z/one.txt`)).arrayBuffer(); // the second download
    const refused = await get(zip, { Accept: 'application/json' });
    expect(refused.status).toBe(410);
    expect((await refused.json()).code).toBe('download_limit');
  });

  it('validates max_downloads on init and PATCH', async () => {
    for (const bad of [0, -1, 1.5, '3', 2e9]) {
      const init = await call('POST', '/api/shares/upload/init', { token: owner.token, body: { max_downloads: bad, files: [{ clientPath: 'x.txt', size: 1 }] } });
      expect([bad, init.status, init.json.code]).toEqual([bad, 400, 'invalid_request']);
    }
    const { share } = await uploadShare(owner.token, { 'x.txt': Buffer.from('x') }, { max_downloads: 5 });
    expect(share.max_downloads).toBe(5);
    const bad = await call('PATCH', `/api/shares/${share.id}`, { token: owner.token, body: { max_downloads: 0 } });
    expect([bad.status, bad.json.code]).toEqual([400, 'invalid_request']);
    const ok = await call('PATCH', `/api/shares/${share.id}`, { token: owner.token, body: { max_downloads: null } });
    expect([ok.status, ok.json.share.max_downloads]).toEqual([200, null]);
    const set = await call('PATCH', `/api/shares/${share.id}`, { token: owner.token, body: { max_downloads: 7 } });
    expect(set.json.share.max_downloads).toBe(7);
  });

  it('once max_downloads is reached guests get 410 download_limit: JSON for clients, the guest page for browsers', async () => {
    const { share } = await uploadShare(owner.token, { 'once.txt': Buffer.from('only twice') }, { max_downloads: 2 });
    const url = `/f/${share.id}/once.txt`;
    expect((await get(url, {}, 'HEAD')).status).toBe(200); // HEAD does not use one up
    for (let i = 0; i < 2; i++) {
      const r = await get(url);
      expect(r.status).toBe(200);
      expect(await r.text()).toBe('only twice');
    }
    const json = await get(url, { Accept: 'application/json' });
    expect(json.status).toBe(410);
    expect(await json.json()).toEqual({ error: expect.any(String), code: 'download_limit' });
    const page = await get(url, { Accept: 'text/html' });
    expect(page.status).toBe(410);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('Download limit reached');
    // The share page still opens and says why its buttons are off.
    const sharePage = await get(`/f/${share.id}`, { Accept: 'text/html' });
    expect(sharePage.status).toBe(200);
    expect(await sharePage.text()).toContain('can no longer be downloaded');
    // The owner lifts the limit: downloads work again.
    await call('PATCH', `/api/shares/${share.id}`, { token: owner.token, body: { max_downloads: null } });
    const again = await get(url);
    expect(again.status).toBe(200);
    await again.arrayBuffer();
    await expect.poll(async () => (await shareOf(share.id)).download_count, POLL).toBe(3);
  });
});

describe('/api answers are always the JSON contract', () => {
  const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

  it('unknown /api routes: JSON 404 not_found on every method', async () => {
    for (const p of ['/api/nope', '/api/shares/x/y/z', '/api', '/api/', '/api/nope?x=1']) {
      for (const method of METHODS) {
        const r = await fetch(base() + p, { method, headers: { Authorization: `Bearer ${owner.token}` } });
        expect([method, p, r.status]).toEqual([method, p, 404]);
        expect(r.headers.get('content-type'), `${method} ${p}`).toMatch(/^application\/json/);
        if (method !== 'HEAD') expect(await r.json()).toEqual({ error: expect.any(String), code: 'not_found' });
      }
    }
  });

  it('undecodable /api paths: JSON 400 invalid_request on every method', async () => {
    for (const p of ['/api/shares/%E0%A4%A', '/api/%FF', '/api/shares/%']) {
      for (const method of METHODS) {
        const r = await fetch(base() + p, { method, headers: { Authorization: `Bearer ${owner.token}` } });
        expect([method, p, r.status]).toEqual([method, p, 400]);
        expect(r.headers.get('content-type')).toMatch(/^application\/json/);
        if (method !== 'HEAD') expect(await r.json()).toEqual({ error: expect.any(String), code: 'invalid_request' });
      }
    }
  });
});
