import http from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { limitRequestTime } from './connection-limits';

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
