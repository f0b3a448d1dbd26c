import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { useS3Storage } from './support/env';
import { baseUrl, useFileServer } from './support/file-server';
import { call, randomIp } from './support/http';
import { createMember, type Member } from './support/members';
import { requires } from './support/requires';
import { uploadShare, type ShareFiles } from './support/shares';

/**
 * DOWNLOAD_MODE=redirect (issue 28 item 3): S3 only — with the fs store the setting is refused
 * at boot, so this file runs on the S3 configuration.
 */
const s3 = useS3Storage();
useFileServer(s3 ? { DOWNLOAD_MODE: 'redirect', DOWNLOAD_URL_SECONDS: '120' } : {});

const run = promisify(execFile);
let owner: Member;
const data = randomBytes(700_000);

beforeAll(async () => {
  owner = await createMember();
});

const get = (p: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(baseUrl() + p, { method, redirect: 'manual', headers: { 'X-Forwarded-For': randomIp(), ...headers } });
const bytesOf = async (r: Response) => Buffer.from(await r.arrayBuffer());
const countOf = async (id: string) =>
  (await call('GET', '/api/shares', { token: owner.token })).json.shares.find((s: { id: string }) => s.id === id).download_count as number;
const share = async (files: ShareFiles, max?: number) => (await uploadShare(owner.token, files, max ? { max_downloads: max } : {})).share!.id as string;

requires('s3').describe('DOWNLOAD_MODE=redirect', () => {
  it('an item answers 302 to a short-lived presigned GET that serves its bytes under the same names and type', async () => {
    const name = 'résumé 東京 "final".txt';
    const id = await share({ [name]: Buffer.from('curriculum vitae'), 'data.bin': data });
    const r = await get(`/f/${id}/${encodeURIComponent(name)}?download=1`);
    expect(r.status).toBe(302);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const location = new URL(r.headers.get('location')!);
    expect(location.origin).toBe(process.env.S3_ENDPOINT);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('120');
    expect(location.searchParams.get('response-content-type')).toBe('text/plain; charset=utf-8');
    const store = await fetch(location);
    expect(store.status).toBe(200);
    expect(store.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(store.headers.get('content-disposition')).toBe(
      `attachment; filename="resume _ _final_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E6%9D%B1%E4%BA%AC%20%22final%22.txt`,
    );
    expect(await store.text()).toBe('curriculum vitae');
    // Range then works against the store.
    const bin = await get(`/f/${id}/data.bin`);
    const ranged = await fetch(bin.headers.get('location')!, { headers: { Range: 'bytes=100-199' } });
    expect(ranged.status).toBe(206);
    expect((await bytesOf(ranged)).equals(data.subarray(100, 200))).toBe(true);
  });

  it('HEAD, a 304 and an unsatisfiable range are answered by the server and never count; a redirect from byte 0 counts once, a resume none', async () => {
    const id = await share({ 'data.bin': data });
    const url = `/f/${id}/data.bin`;
    const head = await get(url, {}, 'HEAD');
    expect([head.status, head.headers.get('content-length')]).toEqual([200, String(data.length)]);
    expect((await get(url, { 'If-None-Match': head.headers.get('etag')! })).status).toBe(304);
    expect((await get(url, { Range: `bytes=${data.length}-` })).status).toBe(416);
    expect((await get(url, { Range: 'bytes=1000-' })).status).toBe(302); // a resume
    expect((await get(url)).status).toBe(302); // a download
    await expect.poll(() => countOf(id), { timeout: 15_000 }).toBe(1);
    expect((await get(url, { Range: 'bytes=0-' })).status).toBe(302); // another, from the start
    await expect.poll(() => countOf(id), { timeout: 15_000 }).toBe(2);
  });

  it('with a limit the ticket is reserved when the redirect is issued: 12 parallel requests against 1 get one redirect', async () => {
    const id = await share({ 'data.bin': data }, 1);
    const answers = await Promise.all(Array.from({ length: 12 }, () => get(`/f/${id}/data.bin`, { Accept: 'application/json' })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([302, ...Array(11).fill(410)]);
    const redirect = answers.find((r) => r.status === 302)!;
    expect((await bytesOf(await fetch(redirect.headers.get('location')!))).equals(data)).toBe(true);
    expect(await countOf(id)).toBe(1);
  });

  it('the ZIP and previews stay relayed', async () => {
    const id = await share({ 'a.txt': Buffer.from('aaa') });
    const zip = await get(`/f/${id}/?zip`);
    expect([zip.status, zip.headers.get('content-type'), zip.headers.get('location')]).toEqual([200, 'application/zip', null]);
    await zip.arrayBuffer();
    const preview = await get(`/f/${id}/a.txt?preview`);
    expect([preview.status, await preview.text()]).toEqual([200, 'aaa']);
  });

  it('curl -L -C -, wget -c and aria2c -c resume byte-identically through the redirect, each one download of a limited share', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'htmls-redirect-'));
    try {
      const clients: [string, (url: string, out: string) => Promise<unknown>][] = [
        ['curl', (url, out) => run('curl', ['-sS', '-f', '-L', '-C', '-', '-o', out, url])],
        ['wget', (url, out) => run('wget', ['-q', '-c', '-O', out, url])],
        ['aria2c', (url, out) => run('aria2c', ['-q', '-c', '--allow-overwrite=false', '--auto-file-renaming=false', '-d', path.dirname(out), '-o', path.basename(out), url])],
      ];
      for (const [client, resume] of clients) {
        const id = await share({ 'data.bin': data }, 1);
        const url = `${baseUrl()}/f/${id}/data.bin`;
        const out = path.join(dir, `${client}.bin`);
        // An interrupted download: the first 300,000 bytes arrived.
        await writeFile(out, data.subarray(0, 300_000));
        await resume(url, out);
        expect([client, (await readFile(out)).equals(data)]).toEqual([client, true]);
        expect([client, await countOf(id)]).toEqual([client, 1]);
      }
      // curl: a counted download cut short, resumed by the same client without counting again.
      const id = await share({ 'data.bin': data }, 1);
      const url = `${baseUrl()}/f/${id}/data.bin`;
      const out = path.join(dir, 'curl2.bin');
      await run('curl', ['-sS', '-f', '-L', '-r', '0-99999', '-o', out, url]);
      await run('curl', ['-sS', '-f', '-L', '-C', '-', '-o', out, url]);
      expect((await readFile(out)).equals(data)).toBe(true);
      expect(await countOf(id)).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('DOWNLOAD_BASE_URL', () => {
  it('puts the presigned path and query on the CDN origin (and its path prefix)', async () => {
    const { onBase } = await import('../lib/http/guest/redirect-download');
    const signed = 'http://127.0.0.1:7480/bucket/shared/x/a.bin?X-Amz-Signature=abc&response-content-type=text%2Fplain';
    expect(onBase(signed, 'https://cdn.example.com')).toBe('https://cdn.example.com/bucket/shared/x/a.bin?X-Amz-Signature=abc&response-content-type=text%2Fplain');
    expect(onBase(signed, 'https://example.com/files/')).toBe('https://example.com/files/bucket/shared/x/a.bin?X-Amz-Signature=abc&response-content-type=text%2Fplain');
  });
});
