import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator } from '@playwright/test';
import { useS3Storage } from '../tests/support/env';
import { ownClientAddress } from './support/client-address';
import { createMember, createShare, useOwnServer } from './support/seed';

/** DOWNLOAD_MODE=redirect is S3 only: this spec runs on the S3 configuration. */
test.skip(!useS3Storage(), 'DOWNLOAD_MODE=redirect needs STORAGE=s3');
test.use({ extraHTTPHeaders: ownClientAddress() });

const clip = readFileSync(join(import.meta.dirname, 'fixtures', 'media', 'moov-at-end.mp4'));
const ownServer = useOwnServer({ DOWNLOAD_MODE: 'redirect' });

async function countOf(token: string, id: string): Promise<number> {
  const r = await fetch(`${ownServer().url}/api/shares`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await r.json()).shares as { id: string; download_count: number }[]).find((s) => s.id === id)!.download_count;
}

/** Plays a little, seeks near the end and back: each seek is a Range request to the store. */
async function playAndSeek(video: Locator) {
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    void v.play().catch(() => undefined);
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0.3);
  for (const at of [3.5, 1]) {
    await video.evaluate((v: HTMLVideoElement, t: number) => new Promise((done) => ((v.onseeked = done), (v.currentTime = t))), at);
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(2);
  }
}

test('a video opened by its link follows the redirect to the store, plays and seeks', async ({ page }) => {
  const member = await createMember();
  const share = await createShare(member.token, { 'clip.mp4': clip });
  const store: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(process.env.S3_ENDPOINT!)) store.push(r.headers()['range'] ?? '');
  });
  // Chromium's own player for a video URL.
  await page.goto(`${ownServer().url}/f/${share.id}/clip.mp4`);
  const video = page.locator('video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(4);
  await playAndSeek(video);
  expect(store.length).toBeGreaterThan(0);
});

test('playing a video of a share with a limit on its page redirects to the store once: one download', async ({ page }) => {
  const member = await createMember();
  const share = await createShare(member.token, { 'clip.mp4': clip }, { max_downloads: 3 });
  const store: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(process.env.S3_ENDPOINT!)) store.push(r.url());
  });
  await page.goto(`${ownServer().url}/f/${share.id}`);
  await expect(page.getByTestId('download-limit')).toContainText('3 downloads left');
  const video = page.locator('video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => (v.readyState >= 1 ? Math.round(v.duration) : -1))).toBe(4);
  expect(store).toEqual([]); // the preview is relayed
  await playAndSeek(video);
  expect(store.length).toBeGreaterThan(0);
  expect(await countOf(member.token, share.id)).toBe(1);
});
