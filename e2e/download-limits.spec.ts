import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createMember, createShare } from './support/seed';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

/** A phone-style MP4 (ffmpeg's default: the moov after the media data) and a small JPEG. */
const MEDIA = join(import.meta.dirname, 'fixtures', 'media');
const clip = readFileSync(join(MEDIA, 'moov-at-end.mp4'));
const photo = readFileSync(join(MEDIA, 'photo.jpg'));

async function countOf(token: string, id: string): Promise<number> {
  const r = await fetch(`${process.env.E2E_BASE_URL}/api/shares`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await r.json()).shares as { id: string; download_count: number }[]).find((s) => s.id === id)!.download_count;
}

/** Until the page's video has read its metadata (its duration), from the moov at the end. */
async function metadataRead(page: Page) {
  const video = page.locator('video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => (v.readyState >= 1 ? Math.round(v.duration) : -1))).toBe(4);
}

test('opening a share with a limit of 1, with previews of a photo, a text and a phone MP4, uses none; one download uses it; then the page says so', async ({ page }) => {
  const member = await createMember();
  const share = await createShare(member.token, { 'photo.jpg': photo, 'notes.txt': Buffer.from('hello from the notes\n'), 'clip.mp4': clip }, { max_downloads: 1 });
  const previews: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes(`/f/${share.id}/`)) previews.push(r.url());
  });
  await page.goto(`/f/${share.id}`);
  await expect(page.getByTestId('download-limit')).toContainText('1 download left');
  await expect.poll(() => page.locator('img').evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(64);
  await expect(page.locator('pre')).toContainText('hello from the notes');
  await metadataRead(page);
  expect(previews.length).toBeGreaterThanOrEqual(3);
  expect(previews.every((u) => u.endsWith('?preview'))).toBe(true);
  expect(await countOf(member.token, share.id)).toBe(0);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download notes.txt' }).click()]);
  expect(readFileSync(await download.path()).toString()).toBe('hello from the notes\n');
  await expect.poll(() => countOf(member.token, share.id)).toBe(1);

  // The page follows without a reload (issue 41 item 9), and after one.
  for (const reload of [false, true]) {
    if (reload) await page.reload();
    await expect(page.getByTestId('download-limit')).toContainText('can no longer be downloaded');
    await expect(page.getByRole('button', { name: 'Download notes.txt: no downloads are left' })).toBeDisabled();
    await expect(page.getByRole('button', { name: /^Download all/ })).toBeDisabled();
  }
  // The previews still show, and still count nothing.
  await expect(page.locator('pre')).toContainText('hello from the notes');
  await metadataRead(page);
  expect(await countOf(member.token, share.id)).toBe(1);
});

test('playing a video of a share with a limit uses one download; seeking in it continues that one', async ({ page }) => {
  const member = await createMember();
  const share = await createShare(member.token, { 'clip.mp4': clip }, { max_downloads: 2 });
  await page.goto(`/f/${share.id}`);
  await expect(page.getByTestId('download-limit')).toContainText('2 downloads left');
  await metadataRead(page);
  expect(await countOf(member.token, share.id)).toBe(0);

  const video = page.locator('video');
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    void v.play().catch(() => undefined);
  });
  // The player switched to the file itself and plays it.
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.currentSrc.endsWith('?preview') && v.currentTime > 0.3)).toBe(true);
  // The count on the page follows without a reload (issue 41 item 9).
  await expect(page.getByTestId('download-limit')).toContainText('1 download left');
  await video.evaluate((v: HTMLVideoElement) => new Promise((done) => ((v.onseeked = done), (v.currentTime = 3.5))));
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 2 && v.currentTime >= 3.5)).toBe(true);
  await video.evaluate((v: HTMLVideoElement) => new Promise((done) => ((v.onseeked = done), (v.currentTime = 0.5))));
  expect(await countOf(member.token, share.id)).toBe(1);
  await page.reload();
  await expect(page.getByTestId('download-limit')).toContainText('1 download left');
});

test('when someone else takes the last download after the page loaded, the Download click explains instead of failing silently', async ({ page }) => {
  const member = await createMember();
  const share = await createShare(member.token, { 'notes.txt': Buffer.from('notes') }, { max_downloads: 1 });
  await page.goto(`/f/${share.id}`);
  await expect(page.getByTestId('download-limit')).toContainText('1 download left');
  // Another guest, elsewhere, downloads first.
  const other = await fetch(`${process.env.E2E_BASE_URL}/f/${share.id}/notes.txt`, { headers: { 'X-Forwarded-For': '10.200.0.9' } });
  expect(other.status).toBe(200);
  await other.arrayBuffer();
  await page.getByRole('link', { name: 'Download notes.txt' }).click();
  await expect(page.getByRole('heading', { name: 'Download limit reached' })).toBeVisible();
});
