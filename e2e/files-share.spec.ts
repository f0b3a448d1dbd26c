import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ownClientAddress } from './support/client-address';
import { createMember, createShare } from './support/seed';
import { consoleHeader, logInToFiles } from './support/console-session';

test.use({ extraHTTPHeaders: ownClientAddress() });

/** A short real WebM recorded in the browser itself (no video fixture, no ffmpeg needed). */
async function recordWebm(page: Page): Promise<number[]> {
  return page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 160;
    canvas.height = 120;
    const g = canvas.getContext('2d')!;
    const stream = canvas.captureStream(25);
    const rec = new MediaRecorder(stream, { mimeType: 'video/webm' });
    const chunks: Blob[] = [];
    rec.ondataavailable = (e) => chunks.push(e.data);
    const stopped = new Promise((r) => (rec.onstop = r));
    rec.start(100);
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      const draw = () => {
        const t = performance.now() - t0;
        g.fillStyle = `hsl(${(t / 10) % 360} 80% 50%)`;
        g.fillRect(0, 0, 160, 120);
        g.fillStyle = '#fff';
        g.fillText(String(Math.floor(t)), 10, 60);
        if (t < 2500) requestAnimationFrame(draw);
        else resolve();
      };
      draw();
    });
    rec.stop();
    await stopped;
    return [...new Uint8Array(await new Blob(chunks).arrayBuffer())];
  });
}

/**
 * A share's life in the browser, one test per part so a failure names the part: the member's
 * folder upload, what a guest sees and streams, the password, going offline. Each test seeds
 * what it needs through the API (e2e/support/seed.ts) instead of inheriting the previous one's.
 */

test('a member uploads a folder from /files: progress, a share link, the quota counts it', async ({ page }) => {
  const m = await createMember();
  await logInToFiles(page, m);
  await expect(page.getByText('No shares yet.')).toBeVisible();
  // A folder on disk, picked with "Choose folder": two text files, one in a sub-folder, and a
  // bigger file so the progress bar has something to show.
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'htmls-e2e-')), 'trip');
  mkdirSync(path.join(dir, 'notes'), { recursive: true });
  writeFileSync(path.join(dir, 'plan.txt'), 'Day 1: beach');
  writeFileSync(path.join(dir, 'notes', 'readme.txt'), 'Hello from the trip');
  writeFileSync(path.join(dir, 'data.bin'), Buffer.alloc(20 * 1024 * 1024, 7));
  await page.getByTestId('folder-input').setInputFiles(dir);
  await expect(page.getByText('3 files')).toBeVisible();
  await page.getByLabel('Note (optional)').fill('Holiday files');
  await page.getByRole('button', { name: 'Upload and create link' }).click();
  await expect(page.getByTestId('upload-progress')).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
  const link = page.getByTestId('share-link');
  await expect(link).toBeVisible({ timeout: 60_000 });
  const url = (await link.textContent())!;
  expect(url).toMatch(/\/f\/[A-Za-z0-9]+$/);
  await expect(page.getByTestId('quota')).toContainText('20 MB of 1.0 GB');
  await expect(page.getByTestId('quota-free')).not.toContainText('held');
  // The folder arrived as it was on disk.
  const id = new URL(url).pathname.split('/').pop()!;
  const items = (await (await page.request.get(`/api/shares/${id}`, { headers: consoleHeader(m) })).json()).share.items as { relative_path: string; url: string }[];
  expect(items.map((i) => i.relative_path).sort()).toEqual(['trip/data.bin', 'trip/notes/readme.txt', 'trip/plan.txt']);
  const readme = await page.request.get(items.find((i) => i.relative_path.endsWith('readme.txt'))!.url);
  expect([readme.status(), await readme.text()]).toEqual([200, 'Hello from the trip']);
});

test('a guest opens a share: the note and a text preview, a video streamed with Range and seekable, a download', async ({ page, browser }) => {
  await page.goto('/');
  const video = Buffer.from(await recordWebm(page));
  expect(video.length).toBeGreaterThan(1000);
  const m = await createMember();
  const share = await createShare(m.token, { 'clip.webm': video, 'notes/readme.txt': Buffer.from('Hello from the trip') }, { note: 'Holiday video' });

  // A guest in a fresh browser context.
  const guestCtx = await browser.newContext();
  const guest = await guestCtx.newPage();
  const ranges: string[] = [];
  guest.on('request', (r) => {
    if (r.url().includes('clip.webm') && r.headers()['range']) ranges.push(r.headers()['range']);
  });
  await guest.goto(`/f/${share.id}`);
  await expect(guest.getByRole('heading', { name: 'Holiday video' })).toBeVisible();
  await expect(guest.getByText('Hello from the trip')).toBeVisible();
  const player = guest.locator('video');
  await expect(player).toBeVisible();
  await guest.waitForFunction(() => (document.querySelector('video') as HTMLVideoElement).readyState >= 1, undefined, { timeout: 20_000 });
  const seeked = await player.evaluate(
    (v: HTMLVideoElement) =>
      new Promise<number>((resolve) => {
        v.addEventListener('seeked', () => resolve(v.currentTime), { once: true });
        v.currentTime = 1;
      }),
  );
  expect(seeked).toBeGreaterThan(0);
  expect(ranges.length).toBeGreaterThan(0);
  const download = guest.waitForEvent('download');
  await guest.getByRole('link', { name: 'Download readme.txt' }).click();
  expect((await download).suggestedFilename()).toBe('readme.txt');
  await guestCtx.close();
});

test('the member sets a password from /files: the expiry keeps its exact time, the guest must unlock', async ({ page, browser }) => {
  const m = await createMember();
  // An expiry with seconds in it: the edit dialog once rewrote it to the end of the day.
  const expires = new Date(Date.now() + 3 * 86_400_000 + 4321_000).toISOString();
  const share = await createShare(m.token, { 'readme.txt': Buffer.from('Hello from the trip') }, { note: 'Locked trip', expires_at: expires });
  await logInToFiles(page, m);
  const row = page.locator('[data-testid^="share-"]').filter({ hasText: 'Locked trip' });
  await expect(row).toBeVisible();
  const expiryOf = async () => ((await (await page.request.get('/api/shares', { headers: consoleHeader(m) })).json()).shares as { id: string; expires_at: string }[]).find((s) => s.id === share.id)!.expires_at;
  const expiresBefore = await expiryOf();
  expect(new Date(expiresBefore).getTime()).toBe(new Date(expires).getTime());
  await row.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('dialog').getByLabel('Password (optional)').fill('guest password');
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(row.locator('svg[data-icon="lock"]')).toBeVisible();
  expect(await expiryOf()).toBe(expiresBefore);

  const guestCtx = await browser.newContext();
  const locked = await guestCtx.newPage();
  const res = await locked.goto(`/f/${share.id}`);
  expect(res!.status()).toBe(401);
  await locked.getByLabel('Password').fill('wrong one');
  await locked.getByRole('button', { name: 'Unlock' }).click();
  await expect(locked.getByRole('alert')).toContainText('Wrong password');
  await locked.getByLabel('Password').fill('guest password');
  await locked.getByRole('button', { name: 'Unlock' }).click();
  await expect(locked.getByRole('heading', { name: 'Locked trip' })).toBeVisible();
  await guestCtx.close();
});

test('the member takes a share offline from /files: a guest who had it open gets 404', async ({ page, browser }) => {
  const m = await createMember();
  const share = await createShare(m.token, { 'readme.txt': Buffer.from('Hello from the trip') }, { note: 'Short-lived trip' });
  const guestCtx = await browser.newContext();
  const guest = await guestCtx.newPage();
  expect((await guest.goto(`/f/${share.id}`))!.status()).toBe(200);
  await logInToFiles(page, m);
  const row = page.locator('[data-testid^="share-"]').filter({ hasText: 'Short-lived trip' });
  await row.getByRole('button', { name: 'Take offline' }).click();
  // The row changes once the server has answered ('offline' alone would match the button just clicked).
  await expect(row.getByRole('button', { name: 'Put online' })).toBeVisible();
  await expect(row.getByText('offline', { exact: true })).toBeVisible();
  expect((await guest.goto(`/f/${share.id}`))!.status()).toBe(404);
  await guestCtx.close();
});
