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
