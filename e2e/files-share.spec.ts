import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';

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

test('a member shares a folder with a video; a guest streams, seeks and downloads; password and offline work', async ({ page, request, browser }) => {
  test.setTimeout(120_000);
  const username = `share${Date.now().toString(36)}`;
  expect(
    (
      await request.post('/api/users', {
        headers: { Authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}` },
        data: { username, password: 'member password', quota_bytes: 1024 ** 3 },
      })
    ).status(),
  ).toBe(201);

  await page.goto('/files');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('member password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('No shares yet.')).toBeVisible();

  const video = Buffer.from(await recordWebm(page));
  expect(video.length).toBeGreaterThan(1000);
  // A folder on disk, picked with "Choose folder": the video, a text file in a sub-folder, and
  // a bigger file so the progress bar has something to show.
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'htmls-e2e-')), 'trip');
  mkdirSync(path.join(dir, 'notes'), { recursive: true });
  writeFileSync(path.join(dir, 'clip.webm'), video);
  writeFileSync(path.join(dir, 'notes', 'readme.txt'), 'Hello from the trip');
  writeFileSync(path.join(dir, 'data.bin'), Buffer.alloc(20 * 1024 * 1024, 7));
  await page.getByTestId('folder-input').setInputFiles(dir);
  await expect(page.getByText('3 files')).toBeVisible();
  await page.getByLabel('Note (optional)').fill('Holiday video');
  await page.getByRole('button', { name: 'Upload and create link' }).click();
  await expect(page.getByTestId('upload-progress')).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
  const link = page.getByTestId('share-link');
  await expect(link).toBeVisible({ timeout: 60_000 });
  const url = (await link.textContent())!;
  expect(url).toMatch(/\/f\/[A-Za-z0-9]+$/);
  await expect(page.getByTestId('quota')).toContainText('20 MB of 1.0 GB');
  await expect(page.getByTestId('quota-free')).not.toContainText('held');

  // A guest in a fresh browser context: the page, the player, a Range request, a seek, a download.
  const guestCtx = await browser.newContext();
  const guest = await guestCtx.newPage();
  const ranges: string[] = [];
  guest.on('request', (r) => {
    if (r.url().includes('clip.webm') && r.headers()['range']) ranges.push(r.headers()['range']);
  });
  await guest.goto(url);
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

  // Lock it with a password: the guest must unlock. Only the password changes: the expiry
  // keeps its exact time (the edit dialog once rewrote it to the end of the day).
  const expiryOf = async () => ((await (await page.request.get('/api/shares')).json()).shares as { note: string; expires_at: string }[]).find((s) => s.note === 'Holiday video')!.expires_at;
  const expiresBefore = await expiryOf();
  const row = page.locator('[data-testid^="share-"]').filter({ hasText: 'Holiday video' });
  await row.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('dialog').getByLabel('Password (optional)').fill('guest password');
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(row.getByText('🔒 password')).toBeVisible();
  expect(await expiryOf()).toBe(expiresBefore);
  const locked = await guestCtx.newPage();
  const res = await locked.goto(url);
  expect(res!.status()).toBe(401);
  await locked.getByLabel('Password').fill('wrong one');
  await locked.getByRole('button', { name: 'Unlock' }).click();
  await expect(locked.getByRole('alert')).toContainText('Wrong password');
  await locked.getByLabel('Password').fill('guest password');
  await locked.getByRole('button', { name: 'Unlock' }).click();
  await expect(locked.getByRole('heading', { name: 'Holiday video' })).toBeVisible();

  // Offline: the guest gets 404.
  await row.getByRole('button', { name: 'Take offline' }).click();
  await expect(row.getByText('offline')).toBeVisible();
  const gone = await locked.goto(url);
  expect(gone!.status()).toBe(404);
  await guestCtx.close();
});
