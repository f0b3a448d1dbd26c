import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { call, randomIp } from './support/http';
import { createMember, type Member } from './support/members';
import { uploadShare, type ShareFiles } from './support/shares';

/**
 * max_downloads holds both ways (issue 27 item 1, issue 22 finding 4): opening the page,
 * previews, HEAD, 304 and link unfurlers never count; parallel downloads, ranges split around
 * the last byte and ZIPs never yield the file more often than the limit; a counted download
 * resumes (curl -C -) without counting twice.
 */
// Next's pages: the share page.
useFileServer({}, { pages: true });

const run = promisify(execFile);
let owner: Member;

beforeAll(async () => {
  owner = await createMember();
});

/** A guest: its own address and User-Agent, and (when it keeps them) its cookies. */
function guest(opts: { ua?: string; keepCookies?: boolean } = {}) {
  const ip = randomIp();
  const ua = opts.ua ?? `guest-${ip}`;
  let cookie = '';
  return async (p: string, headers: Record<string, string> = {}, method = 'GET') => {
    const r = await fetch(baseUrl() + p, {
      method,
      redirect: 'manual',
      headers: { 'X-Forwarded-For': ip, 'User-Agent': ua, ...(cookie ? { Cookie: cookie } : {}), ...headers },
    });
    const set = r.headers.getSetCookie().map((c) => c.split(';')[0]);
    if (opts.keepCookies && set.length) cookie = [cookie, ...set].filter(Boolean).join('; ');
    return r;
  };
}

const bytesOf = async (r: Response) => Buffer.from(await r.arrayBuffer());
const shareOf = async (id: string) =>
  (await call('GET', `/api/shares/${id}`, { token: owner.token })).json.share as {
    download_count: number;
    items: { relative_path: string; download_count: number }[];
  };
/** The share's count once it has reached at least `atLeast` (counts without a limit are batched). */
async function countOnce(id: string, atLeast: number) {
  await expect.poll(async () => (await shareOf(id)).download_count, { timeout: 15_000, interval: 100 }).toBeGreaterThanOrEqual(atLeast);
  const s = await shareOf(id);
  return [s.download_count, ...s.items.map((i) => `${i.relative_path}:${i.download_count}`)];
}

async function limited(files: ShareFiles, max: number): Promise<string> {
  const { share } = await uploadShare(owner.token, files, { max_downloads: max });
  return share!.id;
}

describe('what never counts', () => {
  it('opening the page, HEAD, 304, previews (image, text, a player reading an MP4 whose moov is at the end) and link unfurlers', async () => {
    const clip = randomBytes(400_000);
    const id = await limited({ 'photo.jpg': randomBytes(50_000), 'a.txt': Buffer.from('a'.repeat(10_000)), 'clip.mp4': clip }, 1);
    const g = guest();
    for (let i = 0; i < 3; i++) expect((await g(`/f/${id}`, { Accept: 'text/html' })).status).toBe(200);
    expect((await g(`/f/${id}`, {}, 'HEAD')).status).toBe(200);
    // What the page's previews read.
    const photo = await g(`/f/${id}/photo.jpg?preview`);
    expect([photo.status, (await bytesOf(photo)).length]).toEqual([200, 50_000]);
    const text = await g(`/f/${id}/a.txt?preview`, { Range: 'bytes=0-4095' });
    expect([text.status, (await bytesOf(text)).length]).toEqual([206, 4096]);
    // A player's metadata reads: the start, then the moov at the end, then a seek near it.
    const start = await g(`/f/${id}/clip.mp4?preview`, { Range: 'bytes=0-' });
    expect(start.status).toBe(206);
    await bytesOf(start);
    const moov = await g(`/f/${id}/clip.mp4?preview`, { Range: `bytes=${clip.length - 5000}-` });
    expect(moov.status).toBe(206);
    expect((await bytesOf(moov)).equals(clip.subarray(clip.length - 5000))).toBe(true);
    // HEAD and a conditional GET answered 304 send no bytes of the file.
    const head = await g(`/f/${id}/a.txt`, {}, 'HEAD');
    expect(head.status).toBe(200);
    const etag = head.headers.get('etag')!;
    expect((await g(`/f/${id}/a.txt`, { 'If-None-Match': etag })).status).toBe(304);
    expect((await g(`/f/${id}/?zip`, {}, 'HEAD')).status).toBe(200);
    // A chat app unfurling a pasted link gets the page, not the file.
    const bot = await g(`/f/${id}/photo.jpg`, { 'User-Agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' });
    expect([bot.status, bot.headers.get('location')]).toEqual([303, `/f/${id}`]);

    expect((await g(`/f/${id}`, { Accept: 'text/html' }).then((r) => r.text())).replace(/<!-- -->/g, '')).toContain('1 download left');
    // Then the guest downloads one file: that is the one download.
    const a = await g(`/f/${id}/a.txt?download=1`);
    expect([a.status, (await bytesOf(a)).length]).toEqual([200, 10_000]);
    expect(await countOnce(id, 1)).toEqual([1, 'a.txt:1', 'clip.mp4:0', 'photo.jpg:0']);

    // None left: the page still opens and says so; the files are refused with a readable page.
    const page = await g(`/f/${id}`, { Accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('can no longer be downloaded');
    const refused = await guest()(`/f/${id}/a.txt`, { Accept: 'text/html' });
    expect(refused.status).toBe(410);
    expect(await refused.text()).toContain('Download limit reached');
  });

  it('previews of a share with a limit are bounded: no pattern of preview requests yields the file', async () => {
    const clip = randomBytes(800_000);
    const big = randomBytes(9 * 1024 * 1024);
    const id = await limited({ 'clip.mp4': clip, 'notes.txt': randomBytes(20_000), 'big.png': big, 'doc.pdf': randomBytes(1000) }, 1);
    const g = guest();
    const w = clip.length / 8;
    const zeros = (b: Buffer) => b.every((x) => x === 0);
    // The preview keeps the file's size (a player's ranges all work), but only its first and
    // last eighth carry the file's bytes: zeros between, however it is asked for.
    const all = await g(`/f/${id}/clip.mp4?preview`);
    const body = await bytesOf(all);
    expect([all.status, body.length]).toEqual([200, clip.length]);
    expect(body.subarray(0, w).equals(clip.subarray(0, w))).toBe(true);
    expect(body.subarray(clip.length - w).equals(clip.subarray(clip.length - w))).toBe(true);
    expect(zeros(body.subarray(w, clip.length - w))).toBe(true);
    for (const range of [`bytes=${w}-`, `bytes=${w - 10}-${w + 10}`, `bytes=${clip.length / 2}-${clip.length / 2}`]) {
      const r = await g(`/f/${id}/clip.mp4?preview`, { Range: range });
      const part = await bytesOf(r);
      expect([range, r.status]).toEqual([range, 206]);
      expect(zeros(part.subarray(range === `bytes=${w - 10}-${w + 10}` ? 10 : 0, range === `bytes=${w}-` ? clip.length - 2 * w : undefined))).toBe(true);
    }
    // A stale If-Range gets the whole preview, not the file.
    const stale = await g(`/f/${id}/clip.mp4?preview`, { Range: `bytes=${w}-${w + 99}`, 'If-Range': '"stale"' });
    expect(stale.status).toBe(200);
    expect(zeros((await bytesOf(stale)).subarray(w, clip.length - w))).toBe(true);
    // Text: 4 KiB whatever is asked; no preview of a large image or a PDF.
    const text = await g(`/f/${id}/notes.txt?preview`);
    expect([text.status, (await bytesOf(text)).length]).toEqual([200, 4096]);
    const beyond = await g(`/f/${id}/notes.txt?preview`, { Range: 'bytes=4096-' });
    expect(beyond.status).toBe(416);
    await beyond.arrayBuffer();
    for (const f of ['big.png', 'doc.pdf']) {
      const r = await g(`/f/${id}/${f}?preview`, { Accept: 'application/json' });
      expect([f, r.status, (await r.json()).code]).toEqual([f, 404, 'not_found']);
    }
    expect((await shareOf(id)).download_count).toBe(0);
  });
});

describe('the limit holds', () => {
  it('12 parallel whole downloads against max_downloads 1 give bytes to exactly one (item and ZIP)', async () => {
    const data = randomBytes(4 * 1024 * 1024);
    for (const target of ['big.bin', '?zip']) {
      const id = await limited({ 'big.bin': data }, 1);
      const results = await Promise.all(
        Array.from({ length: 12 }, async () => {
          const r = await guest()(`/f/${id}/${target}`, { Accept: 'application/json' });
          return { status: r.status, bytes: (await bytesOf(r)).length };
        }),
      );
      const served = results.filter((r) => r.status === 200);
      expect([target, served.length]).toEqual([target, 1]);
      expect(served[0].bytes).toBeGreaterThanOrEqual(data.length);
      expect(results.filter((r) => r.status === 410).length).toBe(11);
      expect(await countOnce(id, 1)).toEqual(target === '?zip' ? [1, 'big.bin:0'] : [1, 'big.bin:1']);
    }
  });

  it('ranges split around the last byte yield the whole file no more often than the limit (item and ZIP)', async () => {
    const data = randomBytes(300_000);
    for (const target of ['data.bin', '?zip']) {
      const id = await limited({ 'data.bin': data }, 1);
      const url = `/f/${id}/${target}`;
      const n = Number((await guest()(url, {}, 'HEAD')).headers.get('content-length'));
      // The first guest: everything but the last byte, then the last byte (the same download).
      const a = guest({ keepCookies: true });
      const head = await a(url, { Range: `bytes=0-${n - 2}` });
      expect(head.status).toBe(206);
      const body = await bytesOf(head);
      const tail = await a(url, { Range: `bytes=${n - 1}-` });
      expect(tail.status).toBe(206);
      const whole = Buffer.concat([body, await bytesOf(tail)]);
      expect(whole.length).toBe(n);
      if (target === 'data.bin') expect(whole.equals(data)).toBe(true);
      // Nobody else gets either half, and the same guest without its ticket starts a new one.
      for (const [who, range] of [
        [guest(), `bytes=${n - 1}-`],
        [guest(), `bytes=0-${n - 2}`],
        [guest(), 'bytes=1-'],
        [guest(), `bytes=0-0,${n - 1}-`],
        [guest({ ua: 'curl/8' }), `bytes=0-${n - 2}`],
      ] as const) {
        const r = await who(url, { Range: range, Accept: 'application/json' });
        expect([target, range, r.status]).toEqual([target, range, 410]);
        await r.arrayBuffer();
      }
      expect((await shareOf(id)).download_count).toBe(1);
    }
  });

  it('a guest without the cookie but from the same address and client resumes after byte 0 only', async () => {
    const data = randomBytes(100_000);
    const id = await limited({ 'd.bin': data }, 1);
    const first = guest();
    expect((await first(`/f/${id}/d.bin`, { Range: 'bytes=0-999' })).status).toBe(206);
    const resumed = await first(`/f/${id}/d.bin`, { Range: 'bytes=1000-' });
    expect(resumed.status).toBe(206);
    expect((await bytesOf(resumed)).equals(data.subarray(1000))).toBe(true);
    // Byte 0 again without the cookie is a new download: none is left.
    const again = await first(`/f/${id}/d.bin`, { Accept: 'application/json' });
    expect(again.status).toBe(410);
    await again.arrayBuffer();
    expect((await shareOf(id)).download_count).toBe(1);
  });

  it('curl -C - resumes an interrupted counted download byte-identically without counting twice; another client is refused', async () => {
    const data = randomBytes(500_000);
    const dir = await mkdtemp(path.join(tmpdir(), 'htmls-limit-resume-'));
    try {
      for (const [target, name] of [
        ['d.bin', 'd.bin'],
        ['?zip', 'all.zip'],
      ]) {
        const id = await limited({ 'd.bin': data }, 1);
        const url = `${baseUrl()}/f/${id}/${target}`;
        const out = path.join(dir, name);
        // An interrupted download: the first 200,000 bytes arrived.
        await run('curl', ['-sS', '-f', '-r', '0-199999', '-o', out, url]);
        await run('curl', ['-sS', '-f', '-C', '-', '-o', out, url]);
        const whole = await readFile(out);
        if (target === 'd.bin') expect(whole.equals(data)).toBe(true);
        else {
          const check = await run('python3', ['-c', 'import zipfile,sys;z=zipfile.ZipFile(sys.argv[1]);assert z.testzip() is None;sys.stdout.write(str(len(z.read("d.bin"))))', out]);
          expect(check.stdout).toBe(String(data.length));
        }
        expect((await shareOf(id)).download_count).toBe(1);
        // Another client (curl with another User-Agent) gets nothing.
        const other = await run('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code}', '-A', 'other/1', url]).catch((e) => e);
        expect(other.stdout).toBe('410');
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a client holding a ticket may continue after the limit is reached; the owner raising the limit lets others in', async () => {
    const data = randomBytes(50_000);
    const id = await limited({ 'd.bin': data }, 1);
    const a = guest({ keepCookies: true });
    const first = await a(`/f/${id}/d.bin`, { Range: 'bytes=0-99' });
    expect(first.status).toBe(206);
    // A browser's resume: the cookie, a Range and an If-Range with the ETag it saw.
    const rest = await a(`/f/${id}/d.bin`, { Range: 'bytes=100-', 'If-Range': first.headers.get('etag')! });
    expect(rest.status).toBe(206);
    expect((await bytesOf(rest)).equals(data.subarray(100))).toBe(true);
    expect((await a(`/f/${id}/d.bin`, {}, 'HEAD')).status).toBe(200);
    const b = guest();
    expect((await b(`/f/${id}/d.bin`, {}, 'HEAD')).status).toBe(410);
    await call('PATCH', `/api/shares/${id}`, { token: owner.token, body: { max_downloads: 2 } });
    const ok = await b(`/f/${id}/d.bin`);
    expect([ok.status, (await bytesOf(ok)).equals(data)]).toEqual([200, true]);
    expect(await countOnce(id, 2)).toEqual([2, 'd.bin:2']);
  });
});
