import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, expect, it } from 'vitest';
import { EPOCH, readEpoch } from '@/db/queries/settings';
import { shareGroups, shareItems } from '@/db/schema';
import { useMigratedDb } from '../../../tests/support/migrated-db';
import type { Runtime } from '../../runtime';
import { createFsStorage } from '../../storage/fs';
import { startPreviewWorker, stopPreviewWorker } from './worker';

// The worker moves the shares epoch once per claimed batch, after its pictures are recorded:
// each move empties every instance's cache of share rows, and a move per picture did that once
// for each picture of a large share.
const dbh = useMigratedDb();
const dir = mkdtempSync(path.join(tmpdir(), 'preview-worker-'));
const storage = createFsStorage(path.join(dir, 'store'));
const rt = { get db() { return dbh.db; }, storage, env: { ffmpegPath: undefined }, state: {} } as unknown as Runtime;
afterAll(async () => {
  await stopPreviewWorker(rt);
  rmSync(dir, { recursive: true, force: true });
});

it('records a batch of thumbnails with one move of the shares epoch, made after the last of them', async () => {
  const id = `w${randomBytes(6).toString('hex')}`;
  const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#0a0' } }).png().toBuffer();
  await dbh.db.insert(shareGroups).values({ id, status: 'online', uploadState: 'complete' });
  const items = Array.from({ length: 5 }, (_, i) => ({ name: `p${i}.png`, key: `shared/${id}/p${i}.png` }));
  for (const it of items) await storage.put(it.key, png, { size: png.length, contentType: 'image/png' });
  const rows = await dbh.db
    .insert(shareItems)
    .values(items.map((it) => ({ groupId: id, relativePath: it.name, pathKey: it.name, storageKey: it.key, size: png.length, contentType: 'image/png', etag: '"e"' })))
    .returning({ id: shareItems.id });
  const before = Number(await readEpoch(dbh.db, EPOCH.shares));

  startPreviewWorker(rt, () => {});
  const states = async () =>
    (await dbh.db.select({ state: shareItems.previewState }).from(shareItems).where(inArray(shareItems.id, rows.map((r) => r.id)))).map((r) => r.state);
  await expect.poll(states, { timeout: 30_000, interval: 50 }).toEqual(['ready', 'ready', 'ready', 'ready', 'ready']);
  // The move follows the batch's last record: poll until it lands, then check it came once.
  await expect.poll(async () => Number(await readEpoch(dbh.db, EPOCH.shares)), { timeout: 10_000, interval: 50 }).toBeGreaterThan(before);
  await stopPreviewWorker(rt);
  expect(Number(await readEpoch(dbh.db, EPOCH.shares))).toBe(before + 1);
});
