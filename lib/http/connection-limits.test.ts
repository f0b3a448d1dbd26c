import http from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { capConnections, createConnectionTable, limitRequestTime } from './connection-limits';

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe('limitRequestTime', () => {
  it('leaves no listener on a keep-alive socket once each request body has arrived', async () => {
    const sockets: Socket[] = [];
    const closeListeners: number[] = [];
    server = http.createServer((req, res) => {
      limitRequestTime(req, res, 60_000);
      req.resume();
      req.on('end', () => {
        closeListeners.push(req.socket.listenerCount('close'));
        res.end('ok');
      });
    });
    server.on('connection', (s: Socket) => sockets.push(s));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 30; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = http.request({ port, host: '127.0.0.1', method: 'POST', agent, headers: { 'Content-Length': '5' } }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end('hello');
      });
    }
    agent.destroy();
    // One connection carried all 30 requests, and its 'close' listeners did not grow with them
    // (before the fix: one more per request, and Node's MaxListenersExceededWarning at 11).
    expect(sockets).toHaveLength(1);
    expect(closeListeners).toHaveLength(30);
    expect(closeListeners[29]).toBe(closeListeners[0]);
  });
});

describe('capConnections', () => {
  const servers: Server[] = [];
  const clients: Socket[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.destroy();
    for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve));
  });

  /** A listener that answers "hi" to what the cap let in, so a client sees it was accepted (and counted). */
  async function listener(table: ReturnType<typeof createConnectionTable>, perIp: number): Promise<number> {
    const s = createServer();
    capConnections(s as unknown as http.Server, { perIp, total: 0 }, table);
    s.on('connection', (socket) => {
      if (!socket.destroyed) socket.write('hi');
    });
    servers.push(s);
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    return (s.address() as { port: number }).port;
  }

  /** Connects from `from`; resolves with the socket once greeted, or null if closed unanswered. */
  const attempt = (port: number, from: string) =>
    new Promise<Socket | null>((resolve) => {
      const socket = connect({ port, host: '127.0.0.1', localAddress: from });
      clients.push(socket);
      socket.on('error', () => {});
      socket.once('data', () => resolve(socket));
      socket.once('close', () => resolve(null));
    });

  it('counts an address over every listener sharing the table, each address on its own, and forgets closed connections', async () => {
    const table = createConnectionTable();
    const one = await listener(table, 2);
    const two = await listener(table, 2);
    const held = [await attempt(one, '127.0.0.1'), await attempt(two, '127.0.0.1')];
    expect(held.every((s) => s !== null)).toBe(true);
    expect(await attempt(one, '127.0.0.1')).toBeNull();
    expect(await attempt(two, '127.0.0.1')).toBeNull();
    // Another address has a count of its own.
    const other = await attempt(two, '127.0.0.2');
    expect(other).not.toBeNull();
    // A closed connection leaves the count (once the listener has seen it close).
    held[0]!.destroy();
    await expect.poll(async () => {
      const s = await attempt(one, '127.0.0.1');
      s?.destroy();
      return s !== null;
    }).toBe(true);
  });
});
