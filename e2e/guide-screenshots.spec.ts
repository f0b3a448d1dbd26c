import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createFileRequest, createMember, createShare, expireShare, updateShare } from './support/seed';
import { useConsoleSession } from './support/console-session';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

/**
 * The README's and the user guide's phone screenshots, taken in mobile emulation (390 × 844,
 * touch) in light and dark mode: /files's Upload (files picked, then the link), Shares, Settings
 * and Requests tabs, the guest pages, and a file request's page before and after sending. They go to this test's output folder on every run; with
 * GUIDE_SCREENSHOTS=1 they replace the published ones in public/guide/.
 */
const publish = process.env.GUIDE_SCREENSHOTS === '1';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });

for (const scheme of ['light', 'dark'] as const) {
  test(`guide screenshots — phone, ${scheme} mode`, async ({ page, browser }, testInfo) => {
    test.setTimeout(120_000);
    const dir = publish ? path.resolve('public/guide') : testInfo.outputPath('guide');
    mkdirSync(dir, { recursive: true });
    const shot = async (p: Page, name: string) => {
      await p.screenshot({ path: path.join(dir, `${name}-${scheme}.png`) });
    };
    await page.emulateMedia({ colorScheme: scheme });
    // Phones have a system share sheet (headless Chromium on Linux has none): show its button.
    await page.addInitScript(() => Object.defineProperty(navigator, 'share', { configurable: true, value: async () => {} }));

    const member = await createMember('Sam Rivera');
    // An earlier share, so the Shares tab lists two.
    await createShare(member.token, { 'itinerary.pdf': Buffer.alloc(200 * 1024, 4) }, { note: 'Tickets', password: 'guest password' });
    await useConsoleSession(page.context(), member);
    await page.goto('/files');
    await expect(page.getByTestId('signed-in-as')).toHaveText('Sam Rivera');
    await page.getByTestId('media-input').setInputFiles([
      { name: 'beach.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(3 * 1024 * 1024, 1) },
      { name: 'sunset.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(800 * 1024, 2) },
    ]);
    await page.getByLabel('Note (optional)').fill('Holiday video');
    await expect(page.getByText('2 files')).toBeVisible();
    await shot(page, 'files-upload');
    await page.getByRole('button', { name: 'Upload and create link' }).click();
    await expect(page.getByTestId('share-link')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('button', { name: 'Share link' }).first()).toBeVisible();
    await shot(page, 'files-link');
    // The other two tabs: the share list, and the account (quota, profile, sign out).
    await page.getByRole('tab', { name: 'Shares' }).tap();
    await expect(page.getByRole('tabpanel', { name: 'Shares' }).getByRole('link', { name: 'Tickets' })).toBeVisible();
    await page.getByRole('tabpanel', { name: 'Shares' }).getByRole('link', { name: 'Holiday video' }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'files-shares');
    await page.getByRole('tab', { name: 'Settings' }).tap();
    await expect(page.getByRole('tabpanel', { name: 'Settings' }).getByTestId('quota')).toContainText('4.0 MB of 1.0 GB used');
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'files-settings');
    // File requests: the owner's Requests tab, the sender's page with files picked, and what the sender sees at the end.
    const fileRequest = await createFileRequest(member.token, { note: 'Send me your photos from the trip', max_files: 20, max_bytes: 2 * 1024 ** 3, allowed_types: ['image/*', 'video/*'] });
    await page.getByRole('tab', { name: 'Requests' }).tap();
    await expect(page.getByRole('tabpanel', { name: 'Requests' }).getByRole('link', { name: 'Send me your photos from the trip' })).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'files-requests');

    const guest = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme: scheme });
    const g = await guest.newPage();
    const share = await createShare(member.token, { 'notes/itinerary.txt': Buffer.from('Day 1: beach\nDay 2: hills\nDay 3: home\n'), 'photos/sunset.jpg': Buffer.alloc(4096, 3) }, { note: 'Trip notes' });
    await g.goto(`/f/${share.id}`);
    await expect(g.getByRole('heading', { name: 'Trip notes' })).toBeVisible();
    await shot(g, 'share-page');
    await updateShare(member.token, share.id, { password: 'guest password' });
    await g.context().clearCookies();
    await g.goto(`/f/${share.id}`);
    await shot(g, 'password-page');
    await expireShare(member.token, share.id, { password: null });
    await g.goto(`/f/${share.id}`);
    await expect(g.getByRole('heading', { name: 'This link has expired' })).toBeVisible();
    await shot(g, 'expired-page');
    await g.goto('/offline');
    await shot(g, 'offline-page');
    await g.goto(fileRequest.url);
    await expect(g.getByRole('heading', { name: 'Send me your photos from the trip' })).toBeVisible();
    await g.getByLabel('Your name (optional)').fill('Dana');
    await g.getByTestId('request-files').setInputFiles([
      { name: 'lake.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(900 * 1024, 5) },
      { name: 'hike.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(2 * 1024 * 1024, 6) },
    ]);
    await expect(g.getByTestId('request-picked')).toContainText('2 files');
    await shot(g, 'request-page');
    await g.getByRole('button', { name: 'Send' }).click();
    await expect(g.getByTestId('request-done')).toContainText('received 2 files', { timeout: 60_000 });
    await shot(g, 'request-done');
    await guest.close();
  });
}
