import { randomBytes } from 'node:crypto';
import { readdirSync, readlinkSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedServiceEnv } from './support/file-server';
import { call } from './support/http';
import { startServer, TEST_ADMIN_TOKEN, type RunningServer } from './support/server';
import { putPart, uploadShare } from './support/shares';

// A server of its own, to read its log and count its open files. Proxy mode, so every part
// goes through the server's chunk path, whatever store this run tests.
let server: RunningServer;
let token: string;
beforeAll(async () => {
  server = await startServer({ ...(await migratedServiceEnv()), UPLOAD_MODE: 'proxy' });
  const username = `rob${Date.now().toString(36)}`;
  await call('POST', '/api/users', { base: server.url, token: TEST_ADMIN_TOKEN, body: { username, password: 'long enough', quota_bytes: 1024 ** 3 } });
  token = (await call('POST', '/api/auth/login', { base: server.url, body: { username, password: 'long enough' } })).json.token;
});
afterAll(() => server?.stop());

/**
 * The server's open file descriptors, less the embedded database's own relation files: PGlite,
 * like PostgreSQL, keeps a descriptor open per table and index it has touched (bounded by
 * max_files_per_process), so a code path that first reaches another index adds one — no leak.
 * Store files, sockets and pipes all count.
 */
const openFds = () =>
  readdirSync(`/proc/${server.proc.pid}/fd`).filter((fd) => {
    try {
      return !/\/pglite\/(base|global|pg_wal)\//.test(readlinkSync(`/proc/${server.proc.pid}/fd/${fd}`));
    } catch {
      return false; // closed meanwhile
    }
  }).length;
const MiB = 1024 * 1024;

/** Sends the headers and part of a chunk's body, then drops the connection. */
function cancelledPart(path: string, length: number, sent: number): Promise<void> {
  return new Promise((resolve) => {
    const u = new URL(server.url + path);
    const socket = net.connect(Number(u.port), u.hostname, () => {
      socket.write(`PUT ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${length}\r\n\r\n`);
      socket.write(randomBytes(sent), () => setTimeout(() => socket.destroy(), 50));
    });
    socket.on('close', () => resolve());
    socket.on('error', () => {});
  });
}

/** Starts a download and drops it after the first bytes. */
function cancelledDownload(url: string, range?: string): Promise<void> {
  return new Promise((resolve) => {
    const req = http.get(url, { headers: range ? { Range: range } : {} }, (res) => {
      res.once('data', () => req.destroy());
      res.on('close', () => resolve());
    });
    req.on('error', () => resolve());
  });
}

/** Sends a GET and drops the connection at once: gone before the server has answered. */
function droppedRequest(url: string, range: string): Promise<void> {
  return new Promise((resolve) => {
    const u = new URL(url);
    const socket = net.connect(Number(u.port), u.hostname, () => {
      socket.write(`GET ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nRange: ${range}\r\n\r\n`, () => socket.destroy());
    });
    socket.on('close', () => resolve());
    socket.on('error', () => {});
  });
}

describe('uploads and downloads under cancellation', () => {
  it('PUT /api/shares/upload/chunk — a client that goes away is neither a 5xx nor a logged database outage', async () => {
    const init = await call('POST', '/api/shares/upload/init', { base: server.url, token, body: { files: [{ clientPath: 'big.bin', size: 8 * MiB }] } });
    const f = init.json.files[0];
    const q = new URLSearchParams({ groupId: init.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: '1' });
    for (let i = 0; i < 10; i++) await cancelledPart(`/api/shares/upload/chunk?${q}`, 8 * MiB, 2 * MiB);
    // The upload is still usable: the part arrives whole on the next try.
    const r = await putPart(token, { groupId: init.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 }, randomBytes(8 * MiB), 'proxy', server.url);
    expect(r.status).toBe(200);
    expect(server.output()).not.toMatch(/database unavailable|internal error|ECONNRESET/);
  });

  it('many cancelled and completed uploads and range reads leave no file descriptor open (no DEP0137)', { timeout: 180_000 }, async () => {
    const data = randomBytes(3 * MiB);
    const { share } = await uploadShare(token, { 'warm.bin': data }, { base: server.url });
    await fetch(server.url + share.items[0].url).then((r) => r.arrayBuffer());
    const baseline = openFds();
    for (let round = 0; round < 5; round++) {
      const { share: s } = await uploadShare(token, { 'a.bin': randomBytes(MiB), 'b/c.bin': Buffer.from('c') }, { base: server.url });
      const { init } = await uploadShare(token, { 'x.bin': Buffer.alloc(5 * MiB) }, { base: server.url, noComplete: true });
      const f = init.json.files[0];
      const q = new URLSearchParams({ groupId: init.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: '1' });
      await cancelledPart(`/api/shares/upload/chunk?${q}`, 5 * MiB, MiB);
      await call('POST', '/api/shares/upload/abort', { base: server.url, token, body: { groupId: init.json.groupId } });
      for (let i = 0; i < 10; i++) {
        const res = await fetch(server.url + share.items[0].url, { headers: { Range: `bytes=${i * 1000}-${i * 1000 + 999}` } });
        expect(res.status).toBe(206);
        await res.arrayBuffer();
        await cancelledDownload(server.url + share.items[0].url);
        await cancelledDownload(server.url + share.items[0].url, `bytes=${i}-`);
        await Promise.all(Array.from({ length: 5 }, (_, j) => droppedRequest(server.url + share.items[0].url, `bytes=${i * 10 + j}-`)));
        // The share ZIP reads the next file ahead: a client that leaves must close both.
        await cancelledDownload(`${server.url}/f/${s.id}/?zip`);
        await cancelledDownload(`${server.url}/f/${s.id}/?zip`, `bytes=${i * 100}-`);
      }
      // A HEAD, a conditional GET answered 304: bodies never read at all.
      const head = await fetch(server.url + s.items[0].url, { method: 'HEAD' });
      expect(head.status).toBe(200);
      const again = await fetch(server.url + s.items[0].url, { headers: { 'If-None-Match': head.headers.get('etag')! } });
      expect(again.status).toBe(304);
    }
    // On S3 the SDK keeps idle keep-alive sockets, and the ZIP's read-ahead may leave a few more in
    // its pool (bounded; a leaked body would hold one per cancelled download: 20 here).
    const slack = process.env.STORAGE === 's3' ? 5 : 2;
    await expect.poll(openFds, { timeout: 20_000, interval: 100 }).toBeLessThanOrEqual(baseline + slack);
    expect(server.output()).not.toMatch(/DEP0137|Closing file descriptor/);
  });
});
