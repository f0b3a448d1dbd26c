/**
 * Issue 22, items 1 and 2: clients that stop reading (or trickle an upload) must not take the
 * store or the listeners down. The attack: downloads whose client never reads held every socket
 * of the one S3 pool (other downloads 502, /api/health 503, init 502) and every connection
 * slot, for ever; a member did the same with chunk PUTs sending a byte every few seconds.
 * Short limits here, set by environment for these servers: a 2 s stall timeout and a download
 * pool of 3 sockets (on S3), so a handful of stalled readers reproduce what 128 did. The first
 * runs in this process (the file's server); the other two, with limits of their own, are
 * processes of their own.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, migratedServiceEnv, useFileServer } from './support/file-server';
import { call } from './support/http';
import { startInProcess, type InProcessServer } from './support/in-process';
import { startServer, TEST_ADMIN_TOKEN, type RunningServer } from './support/server';
import { uploadShare } from './support/shares';
import { siteForm } from './support/hosting';

const MiB = 1024 * 1024;
/** The most a kernel lets one TCP socket buffer in the given direction (tcp_rmem's or tcp_wmem's maximum). */
function tcpBufferMax(direction: 'rmem' | 'wmem'): number {
  try {
    return Number(readFileSync(`/proc/sys/net/ipv4/tcp_${direction}`, 'utf8').trim().split(/\s+/)[2]) || 8 * MiB;
  } catch {
    return 8 * MiB;
  }
}
// Larger than all a paused loopback connection can absorb: the client's receive buffer, the
// server's send buffer (both autotuned up to the kernel's maxima; 32 + 4 MiB on some hosts, so a
// fixed 24 MiB file was once delivered whole to a client that never read) and the server's own
// few MiB of stream buffers: a response to a client that reads nothing must stall.
const big = randomBytes(Math.max(24 * MiB, tcpBufferMax('rmem') + tcpBufferMax('wmem') + 8 * MiB));
const small = randomBytes(200 * 1024);

/**
 * Whether the server has closed its end of this client socket's connection, seen in the kernel
 * whether or not the client reads: the server's entry in /proc/net/tcp left ESTABLISHED (a close
 * with unsent bytes waits in FIN_WAIT1 behind them: the client sees nothing until it reads) or is
 * gone. IPv4 loopback, as every server here listens.
 */
function closedByServer(socket: Socket): boolean {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
  const server = `:${hex(socket.remotePort!)}`;
  const client = `:${hex(socket.localPort!)}`;
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const [, localAddr, remoteAddr, state] = line.trim().split(/\s+/);
    if (localAddr?.endsWith(server) && remoteAddr?.endsWith(client)) return state !== '01';
  }
  return true;
}

/** A raw GET whose client reads the response headers, then nothing more. */
interface Stalled {
  socket: Socket;
  /** The response's status, once its headers arrived. */
  status: Promise<number>;
  received: () => number;
  closed: Promise<void>;
}

function rawGet(base: string, path: string, ip: string): Stalled {
  const u = new URL(base);
  const socket = connect(Number(u.port), u.hostname);
  let head = '';
  let bytes = 0;
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  socket.on('error', () => {});
  const status = new Promise<number>((resolve, reject) => {
    socket.once('close', () => reject(new Error(`closed before the headers: ${head}`)));
    socket.on('data', (d: Buffer) => {
      bytes += d.length;
      if (head.includes('\r\n\r\n')) return;
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.pause(); // from here on the client reads nothing: its receive window fills
      resolve(Number(head.slice(9, 12)));
    });
  });
  status.catch(() => {});
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${u.host}\r\nX-Forwarded-For: ${ip}\r\n\r\n`);
  return { socket, status, received: () => bytes, closed };
}

async function stalledGet(base: string, path: string, ip: string): Promise<Stalled> {
  const s = rawGet(base, path, ip);
  await s.status;
  return s;
}

/** A whole download, read as it comes. */
async function download(url: string, ip: string): Promise<Buffer> {
  const r = await fetch(url, { headers: { 'X-Forwarded-For': ip } });
  expect(r.status).toBe(200);
  return Buffer.from(await r.arrayBuffer());
}

async function uploadBigShare(base: string): Promise<string> {
  const r = await uploadShare(TEST_ADMIN_TOKEN, { 'big.bin': big, 'small.bin': small }, { base });
  if (!r.share) throw new Error(`upload failed: ${r.init.status} ${r.init.text} ${r.complete?.text}`);
  return r.share.id as string;
}

useFileServer({ STALL_TIMEOUT_SECONDS: '2', S3_DOWNLOAD_SOCKETS: '3', MAX_DOWNLOADS_PER_IP: '3', UPLOAD_MODE: 'proxy' });

describe('stalled readers against a 2 s stall timeout and 3 download sockets', () => {
  let share: string;
  beforeAll(async () => {
    share = await uploadBigShare(baseUrl());
  });

  it('never-read item and ZIP downloads from two addresses leave /api/health, init and another guest answering, and are cut', { timeout: 120_000 }, async () => {
    const attackers = ['10.66.0.1', '10.66.0.2'];
    // Each address takes all of its 3 download slots.
    const stalled = await Promise.all(
      attackers.flatMap((ip) => [
        stalledGet(baseUrl(), `/f/${share}/big.bin`, ip),
        stalledGet(baseUrl(), `/f/${share}/big.bin`, ip),
        stalledGet(baseUrl(), `/f/${share}/?zip`, ip),
      ]),
    );
    expect(await Promise.all(stalled.map((s) => s.status))).toEqual([200, 200, 200, 200, 200, 200]);

    // The store still answers everything else: health, a new upload, another guest's download.
    const health = await call('GET', '/api/health', { base: baseUrl() });
    expect([health.status, health.json.ok]).toEqual([200, true]);
    const init = await call('POST', '/api/shares/upload/init', { base: baseUrl(), token: TEST_ADMIN_TOKEN, body: { files: [{ clientPath: 'x.txt', size: 3 }] } });
    expect(init.status).toBe(201);
    expect((await download(`${baseUrl()}/f/${share}/big.bin`, '10.66.0.3')).equals(big)).toBe(true);

    // Each attacker address gets 3 whole downloads at once again: its stalled ones were dropped
    // (their slots came back) after the stall timeout.
    for (const ip of attackers) {
      const again = await Promise.all([1, 2, 3].map(() => download(`${baseUrl()}/f/${share}/small.bin`, ip)));
      for (const b of again) expect(b.equals(small)).toBe(true);
    }
    // The server cuts each one while its client still reads nothing: its end of the connection
    // leaves ESTABLISHED. (Seen in the kernel, not by reading on: a ZIP that waited for
    // a store socket while the steps above ran may not have stalled for 2 s yet, and reading on
    // at that moment would fetch it whole — CI saw that, on a loaded machine.)
    await expect.poll(() => stalled.filter((s) => !closedByServer(s.socket)).length, { timeout: 60_000, interval: 100 }).toBe(0);
    // Reading on, each stalled one ends before its whole response.
    for (const s of stalled) s.socket.resume();
    await Promise.all(stalled.map((s) => s.closed));
    for (const s of stalled) expect(s.received()).toBeLessThan(big.length);
  });

  it('a chunk PUT that trickles its body is answered 408 and cut; the part is not stored', { timeout: 120_000 }, async () => {
    const init = await call('POST', '/api/shares/upload/init', { base: baseUrl(), token: TEST_ADMIN_TOKEN, body: { files: [{ clientPath: 'slow.bin', size: MiB }] } });
    expect([init.status, init.json.mode]).toEqual([201, 'proxy']);
    const f = init.json.files[0];
    const q = new URLSearchParams({ groupId: init.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: '1' });
    const u = new URL(baseUrl());
    const socket = connect(Number(u.port), u.hostname);
    let answer = '';
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('error', () => {});
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.write(`PUT /api/shares/upload/chunk?${q} HTTP/1.1\r\nHost: ${u.host}\r\nAuthorization: Bearer ${TEST_ADMIN_TOKEN}\r\nContent-Length: ${MiB}\r\n\r\n`);
    socket.write(Buffer.alloc(1000, 1));
    // A byte every 200 ms, for as long as the server keeps the connection.
    const timer = setInterval(() => socket.destroyed || socket.write(Buffer.alloc(1, 1)), 200);
    await closed;
    clearInterval(timer);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"code":"request_timeout"');
    const status = await call('POST', '/api/shares/upload/status', { base: baseUrl(), token: TEST_ADMIN_TOKEN, body: { groupId: init.json.groupId } });
    expect(status.json.files[0].parts).toEqual([]);
  });
});

describe('a download its client takes nothing of is dropped sooner (issue 39, item 10a)', () => {
  let server: InProcessServer;
  let share: string;
  beforeAll(async () => {
    // A long stall guard and a 1 s first-byte window: only the window can cut these in time.
    // A service of its own beside the file's; this test reads the main listener only.
    server = await startInProcess({
      ...(await migratedServiceEnv()),
      STALL_TIMEOUT_SECONDS: '600',
      FIRST_BYTE_TIMEOUT_SECONDS: '1',
      MAX_DOWNLOADS_PER_IP: '1',
      UPLOAD_MODE: 'proxy',
    });
    share = await uploadBigShare(server.url);
  });
  afterAll(() => server?.stop());

  it('GET /f/:id/:item — a reader that opens and never reads is cut within the window and its download slot comes back; a reader that reads is not', { timeout: 120_000 }, async () => {
    const ip = '10.88.0.1';
    const held = await stalledGet(server.url, `/f/${share}/big.bin`, ip);
    expect(await held.status).toBe(200);
    // Cut by the server while the client still reads nothing (well before the 600 s stall guard).
    await expect.poll(() => closedByServer(held.socket), { timeout: 30_000, interval: 100 }).toBe(true);
    // The address's one download slot is free again: a whole download goes through.
    expect((await download(`${server.url}/f/${share}/big.bin`, ip)).equals(big)).toBe(true);
    held.socket.resume();
    await held.closed;
    expect(held.received()).toBeLessThan(big.length);
  });
});

/**
 * A child server: its hosted listener is the hosted front's thread, as in production (one front
 * per process, and this test process's belongs to the file's own server), so the cap spans the
 * front and the main thread.
 */
describe('downloads per address, both listeners together', () => {
  let server: RunningServer;
  let share: string;
  let slug: string;
  const PER_IP = 3;
  /**
   * DOWNLOAD_SLOT_WAIT_SECONDS, set here to its default: the places in line of the first test
   * must outlast two refusals and a fetch through the front on a loaded machine (4 s did not
   * leave room enough there); the second test waits it out.
   */
  const SLOT_WAIT_SECONDS = 10;
  beforeAll(async () => {
    // The default stall timeout: the held downloads stay held for this test's few steps.
    // (The first-byte window at the stall timeout leaves only the stall guard, as the comment says.)
    server = await startServer({
      ...(await migratedServiceEnv()),
      MAX_DOWNLOADS_PER_IP: String(PER_IP),
      FIRST_BYTE_TIMEOUT_SECONDS: '60',
      DOWNLOAD_SLOT_WAIT_SECONDS: String(SLOT_WAIT_SECONDS),
    });
    share = await uploadBigShare(server.url);
    slug = `stall-${randomBytes(4).toString('hex')}`;
    const site = await call('POST', '/api/upload', { base: server.url, token: TEST_ADMIN_TOKEN, raw: siteForm({ 'index.html': '<p>hi</p>', 'big.bin': big }, { slug }) });
    expect(site.status).toBe(201);
  });
  afterAll(() => server?.stop());

  it(`an address holding ${PER_IP} downloads waits for a slot, on the main and the hosted listener, and past the queue gets 429; another address does not wait`, async () => {
    const ip = '10.77.0.1';
    const held = await Promise.all(Array.from({ length: PER_IP }, (_, i) => stalledGet(i === 0 ? server.hostedUrl! : server.url, i === 0 ? `/p/${slug}/big.bin` : `/f/${share}/big.bin`, ip)));
    expect(await Promise.all(held.map((s) => s.status))).toEqual(Array(PER_IP).fill(200));
    // Another address does not wait.
    expect((await download(`${server.url}/f/${share}/big.bin`, '10.77.0.2')).equals(big)).toBe(true);
    // One may wait per slot, on either listener; of one more, exactly one is refused at once.
    const waiting = Array.from({ length: PER_IP + 1 }, (_, i) => rawGet(i % 2 ? server.hostedUrl! : server.url, i % 2 ? `/p/${slug}/big.bin` : `/f/${share}/big.bin`, ip));
    const first = await Promise.race(waiting.map((w, i) => w.status.then((status) => ({ status, i }))));
    expect(first.status).toBe(429);
    const inLine = waiting.filter((_, i) => i !== first.i);
    const hosted = await fetch(`${server.hostedUrl}/p/${slug}/big.bin`, { headers: { 'X-Forwarded-For': ip } });
    expect(hosted.status).toBe(429);
    await hosted.body?.cancel();
    // A slot that comes back goes to the first in line.
    held[1]!.socket.destroy();
    expect(await Promise.race(inLine.map((w) => w.status))).toBe(200);
    for (const s of [...held, ...waiting]) s.socket.destroy();
  });

  it(`a place in line is not kept for ever: a request that got no slot in DOWNLOAD_SLOT_WAIT_SECONDS (${SLOT_WAIT_SECONDS} s here) is refused, not before`, { timeout: 60_000 }, async () => {
    const ip = '10.77.0.9';
    const held = await Promise.all(Array.from({ length: PER_IP }, () => stalledGet(server.url, `/f/${share}/big.bin`, ip)));
    expect(await Promise.all(held.map((s) => s.status))).toEqual(Array(PER_IP).fill(200));
    const asked = performance.now();
    const waiter = rawGet(server.url, `/f/${share}/big.bin`, ip);
    expect(await waiter.status).toBe(429);
    // It waited in line (there was room: one place per slot), it was not refused at once.
    // (A few milliseconds of margin: the server's timer and this clock round differently.)
    expect(performance.now() - asked).toBeGreaterThanOrEqual(SLOT_WAIT_SECONDS * 1000 - 50);
    for (const s of [...held, waiter]) s.socket.destroy();
  });
});
