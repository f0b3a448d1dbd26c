import { createServer, request, type Server } from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFast, type FastReply } from './fast';

let server: Server;
let port: number;
let next: () => Promise<FastReply>;

beforeAll(async () => {
  server = createServer((req, res) => runFast(res, req.method ?? 'GET', next));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function get(): Promise<{ status: number; body: string } | 'reset'> {
  return new Promise((resolve) => {
    const req = request({ port, host: '127.0.0.1', path: '/', agent: false }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
      res.on('error', () => resolve('reset'));
    });
    req.on('error', () => resolve('reset'));
    req.end();
  });
}

describe('fast-path replies always end', () => {
  it('a header Node refuses (a character above U+00FF) becomes a 500, not a hung request', async () => {
    next = async () => ({ status: 303, headers: { Location: '/p/x/日本' }, body: null });
    expect(await get()).toEqual({ status: 500, body: 'Internal error' });
  });

  it('a handler that rejects becomes a 500', async () => {
    next = async () => {
      throw new Error('boom');
    };
    expect(await get()).toEqual({ status: 500, body: 'Internal error' });
  });

  it('a body stream that fails after the headers closes the connection', async () => {
    next = async () => ({
      status: 200,
      headers: { 'Content-Length': '100' },
      body: new Readable({
        read() {
          this.push('partial');
          this.destroy(new Error('store went away'));
        },
      }),
    });
    const r = await get();
    expect(r === 'reset' || (r.status === 200 && r.body.length < 100)).toBe(true);
  });
});

describe('a reply that comes after a guard answered', () => {
  it('is dropped with its body closed: the guard\'s answer stands and nothing is logged as an error', async () => {
    const plain = createServer((req, res) => {
      // What lib/http/stalls.ts does to an upload arriving too slowly, before the handler is done.
      res.writeHead(408, { 'Content-Type': 'application/json' });
      res.end('{"code":"request_timeout"}');
      const body = new Readable({ read() {} });
      runFast(res, 'GET', async () => ({ status: 200, headers: { 'Content-Length': '5' }, body }));
      body.once('close', () => closed.push(true));
    });
    const closed: boolean[] = [];
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
      const at = (plain.address() as { port: number }).port;
      const status = await new Promise<number>((resolve, reject) => {
        request({ port: at, host: '127.0.0.1', path: '/', agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        })
          .on('error', reject)
          .end();
      });
      expect(status).toBe(408);
      await expect.poll(() => closed.length).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      console.error = original;
      await new Promise<void>((r) => plain.close(() => r()));
    }
  });
});
