import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createFsStorage } from '../../storage/fs';
import type { ByteRange, StorageDriver } from '../../storage/types';
import { makePoster, POSTER_READ_BUDGET } from './make';

const dir = mkdtempSync(path.join(tmpdir(), 'posters-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fs = createFsStorage(path.join(dir, 'store'));

/** The fs store, counting the bytes its ranged reads hand out. */
function counting(store: StorageDriver): { store: StorageDriver; read: () => number } {
  let n = 0;
  const get = async (key: string, range?: ByteRange) => {
    const r = await store.get(key, range);
    r.body.on('data', (c: Buffer) => (n += c.length));
    return r;
  };
  return { store: { ...store, get } as StorageDriver, read: () => n };
}

describe('makePoster', () => {
  it('makes the poster of a video larger than its read budget, moov at the end, reading a bounded part of it', async () => {
    const file = path.join(dir, 'big.mp4');
    // About 55 MB of noisy H.264, written without faststart (moov after mdat).
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=duration=6:size=640x360:rate=25,noise=alls=60:allf=t', '-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '8', '-pix_fmt', 'yuv420p', file]);
    const size = statSync(file).size;
    expect(size).toBeGreaterThan(POSTER_READ_BUDGET);
    await fs.put('shared/s/big.mp4', readFileSync(file), { size });
    const { store, read } = counting(fs);
    const poster = await makePoster('ffmpeg', store, 'shared/s/big.mp4', size);
    expect(poster).not.toBeNull();
    expect([poster!.width, poster!.height]).toEqual([640, 360]);
    expect(poster!.durationMs).toBe(6000);
    expect((await sharp(poster!.jpeg).metadata()).format).toBe('jpeg');
    expect(read()).toBeLessThanOrEqual(POSTER_READ_BUDGET);
    // About its first second (this noise is ~75 Mbit/s) and its moov: 10.7 of 56.7 MB here.
    expect(read()).toBeLessThan(size / 4);
  }, 120_000);

  it('finds no poster in bytes that are no video', async () => {
    await fs.put('shared/s/zero.mp4', Buffer.alloc(100_000), { size: 100_000 });
    await expect(makePoster('ffmpeg', fs, 'shared/s/zero.mp4', 100_000)).rejects.toThrow(/ffmpeg failed/);
  });
});
