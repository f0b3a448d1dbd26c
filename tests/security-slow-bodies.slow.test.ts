/**
 * Slow bodies and connection floods against the real server, from raw
 * sockets. Before the fix a trickled login body held its socket (and up to 1 MiB) for 31
 * minutes and one address could open any number of connections.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedServiceEnv } from './support/file-server';
import { startServer, type RunningServer } from './support/server';
import { rawRequest } from './support/raw-http';

let server: RunningServer;
const PER_IP = 8;
beforeAll(async () => {
  // No proxy in front: the socket's peer is the client, and the per-address cap applies.
  server = await startServer({ ...(await migratedServiceEnv()), TRUST_PROXY: '0', MAX_CONNECTIONS_PER_IP: String(PER_IP), REQUEST_TIMEOUT_SECONDS: '3' });
});
afterAll(() => server?.stop());

interface Raw {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
  isClosed: () => boolean;
}

/**
 * A raw connection to the server. `from`: the client's address, any of loopback's 127.0.0.0/8 —
 * the per-address cap counts each apart, so cases that do not fill 127.0.0.1's run side by side.
 */
function open(port = server.port, from?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    let data = '';
    let done = false;
    const closed = new Promise<void>((r) => socket.once('close', () => ((done = true), r())));
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, received: () => data, closed, isClosed: () => done }));
    socket.once('error', reject);
  });
}

/** Writes a byte of a chunked body every 250 ms until the socket closes: the slow-body attack. */
function trickle(raw: Raw): void {
  const timer = setInterval(() => {
    if (raw.isClosed() || raw.socket.destroyed) return clearInterval(timer);
    raw.socket.write('1\r\n \r\n');
  }, 250);
  raw.closed.then(
    () => clearInterval(timer),
    () => clearInterval(timer),
  );
}

const head = (path: string, extra = '') => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extra}\r\n`;

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

describe('slow bodies (item 5)', () => {
  // First, while no earlier socket of this file may still be counted by the server.
  it('the cap counts both listeners together: with the cap held on the main port, the hosted port closes the next one unanswered, and the other way round', async () => {
    // The hosted port's listener runs in the hosted front's worker thread: its count must be the main thread's.
    const hostedPort = Number(new URL(server.hostedUrl!).port);
    for (const [holdOn, tryOn] of [
      [server.port, hostedPort],
      [hostedPort, server.port],
    ]) {
      const held = await Promise.all(Array.from({ length: PER_IP }, () => open(holdOn)));
      for (const raw of held) {
        raw.socket.write(head('/api/auth/login', 'Transfer-Encoding: chunked\r\nExpect: 100-continue\r\n'));
        trickle(raw);
      }
      // A connection is counted when its listener accepts it, which a client's "connected" does
      // not show (the kernel completes the handshake): the 100 Continue does.
      for (const raw of held) await expect.poll(() => raw.received(), { timeout: 10_000 }).toContain('100 Continue');
      const extra = await open(tryOn);
      await extra.closed;
      expect(extra.received()).toBe('');
      expect(held.filter((r) => r.isClosed())).toHaveLength(0);
      // The server closes them (the time limit): then it has counted them out, too.
      await Promise.all(held.map((r) => r.closed));
    }
    // Closed connections leave the count: both ports answer again (on connections that close
    // after the answer: a kept-alive one would count against this file's next case).
    expect((await rawRequest(server.url, 'GET', '/api/health')).status).toBe(200);
    expect((await rawRequest(server.hostedUrl!, 'GET', '/p/none/')).status).toBe(404);
  });

  it(`one address holds at most ${PER_IP} connections; the next is closed unanswered; later ones work again`, async () => {
    const held = await Promise.all(Array.from({ length: PER_IP }, () => open()));
    for (const raw of held) {
      raw.socket.write(head('/api/auth/login', 'Transfer-Encoding: chunked\r\n'));
      trickle(raw);
    }
    const extra = await open();
    await extra.closed;
    expect(extra.received()).toBe('');
    expect(held.filter((r) => r.isClosed())).toHaveLength(0); // the cap, not a timeout, closed it
    await Promise.all(held.map((r) => r.closed));
    const ok = await fetch(`${server.url}/api/health`);
    expect(ok.status).toBe(200);
  });
});

// Each of these waits out the 3 s time limit (or not at all): they run together, each from a
// loopback address of its own, so none counts against another's connections (or 127.0.0.1's,
// which the cases above fill).
describe.concurrent('slow bodies, each from an address of its own (item 5)', () => {
  it('a login body trickled byte by byte gets 408 and its socket is closed', async () => {
    const raw = await open(server.port, '127.0.0.11');
    raw.socket.write(head('/api/auth/login', 'Transfer-Encoding: chunked\r\n') + '1\r\n{\r\n');
    trickle(raw);
    await raw.closed;
    expect(raw.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(raw.received()).toContain('"code":"request_timeout"');
  });

  it('a login body declared larger than a few KB is refused before a byte of it is read', async () => {
    const raw = await open(server.port, '127.0.0.12');
    raw.socket.write(head('/api/auth/login', 'Content-Length: 20000\r\n'));
    await expect.poll(() => raw.received(), { timeout: 10_000 }).toMatch(/^HTTP\/1\.1 413 /);
    expect(raw.received()).toContain('"code":"body_too_large"');
    raw.socket.destroy();
  });

  it('a client that keeps its socket after an early refusal is cut off at the time limit, and the server lives on', async () => {
    // The 413 leaves before the body; the client sends nothing more and keeps the socket: the
    // connection is closed and the process keeps serving. (A CI run once saw the cut-off timer
    // find req.socket null — an uncaught exception; the timer now keeps the socket it started with.)
    const raw = await open(server.port, '127.0.0.13');
    raw.socket.write(head('/api/auth/login', 'Content-Length: 20000\r\n'));
    await expect.poll(() => raw.received(), { timeout: 10_000 }).toMatch(/^HTTP\/1\.1 413 /);
    await raw.closed;
    expect(server.proc.exitCode).toBeNull();
    expect(server.output()).not.toContain('uncaughtException');
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it('a chunked register body past the limit is refused while reading', async () => {
    const raw = await open(server.port, '127.0.0.14');
    raw.socket.write(head('/api/auth/register', 'Transfer-Encoding: chunked\r\n'));
    const chunk = 'x'.repeat(1000);
    for (let i = 0; i < 6; i++) raw.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    await expect.poll(() => raw.received(), { timeout: 10_000 }).toMatch(/^HTTP\/1\.1 413 /);
    raw.socket.destroy();
  });

  it('memory stays flat under waves of slow bodies', async () => {
    const before = rssOf(server.proc.pid!);
    // Two rounds, one after the other (memory must come back between them, not just peak once),
    // of five waves of a full cap each from five addresses at once (five waves one after another
    // waited out the time limit five times).
    const wave = async (from: string) => {
      const wave8 = await Promise.all(Array.from({ length: PER_IP }, () => open(server.port, from)));
      for (const raw of wave8) {
        // Each tries to push 1 MiB to the login route, a KB at a time.
        raw.socket.write(head('/api/auth/login', 'Content-Length: 1048576\r\n'));
        raw.socket.write('{"token":"' + 'x'.repeat(1000));
      }
      await Promise.all(wave8.map((r) => r.closed.then(() => undefined, () => undefined).then(() => r.socket.destroy())));
    };
    for (let round = 0; round < 2; round++) await Promise.all(Array.from({ length: 5 }, (_, i) => wave(`127.0.1.${i + 1}`)));
    const after = rssOf(server.proc.pid!);
    console.log(`[slow bodies] server RSS ${Math.round(before / 2 ** 20)} MiB -> ${Math.round(after / 2 ** 20)} MiB`);
    expect(after - before).toBeLessThan(64 * 2 ** 20);
  });
});
