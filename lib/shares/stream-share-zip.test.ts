import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { ShareItemRow } from '@/db/schema';
import { createFsStorage } from '../storage/fs';
import { planShareZip } from './plan-share-zip';
import { knownCrcs, streamShareZip } from './stream-share-zip';

const dir = mkdtempSync(path.join(tmpdir(), 'stream-zip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const store = createFsStorage(path.join(dir, 'store'));

async function collect(r: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of r) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Items stored in the real fs store, with no CRC known (shares uploaded straight to S3, or older ones). */
async function coldItems(files: Record<string, Buffer>): Promise<ShareItemRow[]> {
  const rows: ShareItemRow[] = [];
  for (const [relativePath, data] of Object.entries(files)) {
    const storageKey = `shared/g1/${relativePath}`;
    await store.put(storageKey, Readable.from([data]), { size: data.length });
    rows.push({
      id: randomBytes(8).toString('hex'),
      groupId: 'g1',
      relativePath,
      pathKey: relativePath.toLowerCase(),
      storageKey,
      size: data.length,
      contentType: 'application/octet-stream',
      etag: '"e"',
      downloadCount: 0,
      crc32: null,
      previewState: 'none',
      previewKey: null,
      previewWidth: null,
      previewHeight: null,
      durationMs: null,
      previewLeasedUntil: null,
      previewAttempts: 0,
      createdAt: new Date('2026-11-01T10:00:00Z'),
    });
  }
  return rows;
}

describe('streamShareZip without known CRC-32s', () => {
  it('a range that starts inside or after files never read whole reads them once, saves their CRCs, and matches the full archive', async () => {
    const files = { 'a.bin': randomBytes(700_000), 'docs/b.txt': Buffer.from('bee'), 'z.bin': randomBytes(1_300_000) };
    const items = await coldItems(files);
    const zip = planShareZip({ id: 'g1', note: '' }, items, null)!;
    const size = zip.plan.total;

    const saved = new Map<string, number>();
    const save = (item: ShareItemRow, crc: number) => saved.set(item.relativePath, crc);
    // Cold: a range in the middle of z.bin through the central directory.
    const from = zip.plan.entries.at(-1)!.dataStart + 1000;
    const tail = await collect(streamShareZip(store, zip, { start: from, end: size - 1 }, knownCrcs(zip), save));
    expect(Object.fromEntries(saved)).toEqual(Object.fromEntries(Object.entries(files).map(([n, b]) => [n, crc32(b)])));

    // A full read with nothing known gives the same bytes, which unzip checks.
    const full = await collect(streamShareZip(store, zip, { start: 0, end: size - 1 }, knownCrcs(zip), () => {}));
    expect(full.length).toBe(size);
    expect(tail.equals(full.subarray(from))).toBe(true);
    const file = path.join(dir, 'x.zip');
    writeFileSync(file, full);
    expect(execFileSync('unzip', ['-t', file]).toString()).toMatch(/No errors detected/);
  });
});

describe('streamShareZip on S3 (issue 22, item 1)', () => {
  it('a ZIP whose reader stops holds one store read: reads ahead are small and read whole at once', async () => {
    const files = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`f${i}.bin`, randomBytes(i === 3 ? 2_000_000 : 100_000)]));
    const items = await coldItems(files);
    const zip = planShareZip({ id: 'g1', note: '' }, items, null)!;
    // The fs store's streams, counted while open, under S3's read-ahead (kind 's3', no pooled ranges).
    const open = new Set<Readable>();
    const s3Like = {
      ...store,
      kind: 's3' as const,
      capabilities: { ...store.capabilities, pooledRange: null },
      async get(key: string, range?: { start: number; end: number }) {
        const got = await store.get(key, range);
        // Held like an S3 socket: until its reader has taken every byte, or it is destroyed.
        open.add(got.body);
        got.body.once('end', () => open.delete(got.body));
        got.body.once('close', () => got.body.destroyed && !got.body.readableEnded && open.delete(got.body));
        return got;
      },
    };
    const body = streamShareZip(s3Like, zip, { start: 0, end: zip.plan.total - 1 }, knownCrcs(zip), () => {});
    // The client reads into the first file, then nothing more: the stream is paused (backpressure).
    let got = 0;
    await new Promise<void>((resolve) => {
      const onData = (c: Buffer) => {
        got += c.length;
        if (got < 50_000) return;
        body.pause();
        body.off('data', onData);
        resolve();
      };
      body.on('data', onData);
    });
    // Whatever was sent ahead has been read whole by now (or is still arriving): wait until the
    // open store reads settle, then no more than the one being streamed may remain.
    await expect.poll(() => open.size, { timeout: 10_000 }).toBeLessThanOrEqual(1);
    body.destroy();
    await expect.poll(() => open.size).toBe(0);
  });
});
