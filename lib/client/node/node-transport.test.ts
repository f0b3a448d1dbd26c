import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeTransport } from './node-transport';

// A bare local server that takes any PUT and answers with the body's length.
let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let n = 0;
    req.on('data', (c) => (n += c.length));
    req.on('end', () => res.writeHead(200, { ETag: `"${n}"`, 'Content-Type': 'application/json' }).end(JSON.stringify({ etag: `"${n}"` })));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

/** A server that keeps each PUT's body, in order. */
async function echoServer(): Promise<{ url: string; received: Buffer[]; close: () => Promise<void> }> {
  const received: Buffer[] = [];
  const echo = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push(Buffer.concat(chunks));
      res.end('{}');
    });
  });
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(echo.address() as { port: number }).port}`, received, close: () => new Promise((r) => echo.close(() => r())) };
}

describe('nodeTransport.put', () => {
  it('streams a file range with its exact length and lets go of the signal once done (no listener piles up)', async () => {
    const file = path.join(os.tmpdir(), `htmls-range-${process.pid}.bin`);
    writeFileSync(file, Buffer.alloc(3000, 7));
    const t = nodeTransport(base, 'token');
    const signal = new AbortController().signal;
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 20; i++) {
        let sent = 0;
        const r = await t.put({ url: '/x', api: true, headers: {}, body: { file, start: i * 100, end: i * 100 + 250 }, length: 250, signal, onProgress: (n) => (sent = n) });
        expect([r.etag, sent]).toEqual(['"250"', 250]);
      }
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('sends exactly the range asked for, a small one read at once and a large one streamed; a file that shrank is a local error', async () => {
    const { url, received, close } = await echoServer();
    const file = path.join(os.tmpdir(), `htmls-range-bytes-${process.pid}.bin`);
    const bytes = randomBytes(3 * 1024 * 1024);
    writeFileSync(file, bytes);
    try {
      const t = nodeTransport(url, undefined);
      const put = (start: number, end: number) => t.put({ url: '/x', api: true, headers: {}, body: { file, start, end }, length: end - start, signal: new AbortController().signal, onProgress: () => {} });
      for (const [start, end] of [
        [5, 10_005],
        [1000, 1000 + 1.5 * 1024 * 1024],
      ]) {
        await put(start, end);
        expect(received.at(-1)!.equals(bytes.subarray(start, end))).toBe(true);
      }
      for (const [start, end] of [
        [bytes.length - 10, bytes.length + 10],
        [bytes.length - 1024 * 1024, bytes.length + 1024 * 1024],
      ]) {
        await expect(put(start, end)).rejects.toMatchObject({ status: -1, code: 'local_file_error' });
      }
    } finally {
      await close();
      rmSync(file, { force: true });
    }
  });

  it('a part read ahead is sent with the bytes the file holds; a read ahead that failed is tried again at the put', async () => {
    const { url, received, close } = await echoServer();
    const dir = path.join(os.tmpdir(), `htmls-ahead-${process.pid}`);
    const a = `${dir}-a.bin`;
    const later = `${dir}-later.bin`;
    const bytes = randomBytes(20_000);
    writeFileSync(a, bytes);
    try {
      const t = nodeTransport(url, undefined);
      const put = (file: string, start: number, end: number) => t.put({ url: '/x', api: true, headers: {}, body: { file, start, end }, length: end - start, signal: new AbortController().signal, onProgress: () => {} });
      t.prefetch!({ file: a, start: 100, end: 10_100 }, 10_000);
      t.prefetch!({ file: later, start: 0, end: 5 }, 5);
      await put(a, 100, 10_100);
      expect(received.at(-1)!.equals(bytes.subarray(100, 10_100))).toBe(true);
      // Missing when it was read ahead, there when its turn came.
      writeFileSync(later, 'hello');
      await put(later, 0, 5);
      expect(received.at(-1)!.toString()).toBe('hello');
      // Read ahead and then changed: the put of a range read ahead once is read again when sent again.
      writeFileSync(later, 'HELLO');
      await put(later, 0, 5);
      expect(received.at(-1)!.toString()).toBe('HELLO');
      // Read ahead for a run that then stopped: a later run sends what the file holds by then.
      t.prefetch!({ file: later, start: 0, end: 5 }, 5);
      t.dropPrefetched!();
      writeFileSync(later, 'world');
      await put(later, 0, 5);
      expect(received.at(-1)!.toString()).toBe('world');
    } finally {
      await close();
      rmSync(a, { force: true });
      rmSync(later, { force: true });
    }
  });

  it('an unreadable file is a local error (status -1), not a network error to retry', async () => {
    const t = nodeTransport(base, undefined);
    await expect(
      t.put({ url: '/x', api: true, headers: {}, body: { file: '/nonexistent/file', start: 0, end: 10 }, length: 10, signal: new AbortController().signal, onProgress: () => {} }),
    ).rejects.toMatchObject({ status: -1, code: 'local_file_error' });
  });
});
