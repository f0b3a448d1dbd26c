import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ownClientAddress } from './support/client-address';
import { createMember, useOwnServer } from './support/seed';

/**
 * Without ffmpeg on the server (FFMPEG_PATH=off), the member console's upload captures each
 * video's poster frame in the browser (<video> + canvas) and sends it (docs/link-previews.md):
 * the share page then shows it.
 */
test.use({ extraHTTPHeaders: ownClientAddress() });

const clip = join(import.meta.dirname, 'fixtures', 'media', 'moov-at-end.mp4');
const ownServer = useOwnServer({ FFMPEG_PATH: 'off' });

test("a video uploaded from /files gets its poster from the uploader's browser", async ({ page }) => {
  expect(readFileSync(clip).length).toBeGreaterThan(1000);
  const m = await createMember();
  await page.goto(`${ownServer().url}/files`);
  await page.getByLabel('Username').fill(m.username);
  await page.getByLabel('Password').fill(m.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
  await page.getByTestId('file-input').setInputFiles(clip);
  await page.getByRole('button', { name: 'Upload and create link' }).click();
  const link = page.getByTestId('share-link');
  await expect(link).toBeVisible({ timeout: 60_000 });
  const id = new URL((await link.textContent())!).pathname.split('/').pop()!;
  await expect
    .poll(async () => (await page.request.get(`${ownServer().url}/f/${id}/moov-at-end.mp4?poster`)).status(), { timeout: 30_000 })
    .toBe(200);
  const poster = await page.request.get(`${ownServer().url}/f/${id}/moov-at-end.mp4?poster`);
  expect(poster.headers()['content-type']).toBe('image/jpeg');
  // The guest's page: the thumbnail in the list and the poster on the player.
  await page.goto(`${ownServer().url}/f/${id}`);
  await expect(page.locator(`img[src="/f/${id}/moov-at-end.mp4?poster"]`)).toBeVisible();
  await expect(page.locator('video')).toHaveAttribute('poster', `/f/${id}/moov-at-end.mp4?poster`);
});
