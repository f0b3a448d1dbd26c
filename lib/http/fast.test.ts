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
