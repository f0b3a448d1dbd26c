import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { ownClientAddress } from './support/client-address';
import { createMember, createShare } from './support/seed';

test.use({ extraHTTPHeaders: ownClientAddress() });

for (const [name, viewport, colorScheme] of [
  ['desktop, light', { width: 1280, height: 800 }, 'light'],
  ['phone, dark', { width: 390, height: 844 }, 'dark'],
] as const) {
  test(`${name}: /htmls shows the audit log, filters it, exports it as CSV, and charts storage by member`, async ({ browser }) => {
    const member = await createMember();
    await createShare(member.token, { 'big.bin': Buffer.alloc(50_000, 2) });
    const context = await browser.newContext({ viewport, colorScheme, extraHTTPHeaders: ownClientAddress(), baseURL: process.env.E2E_BASE_URL, acceptDownloads: true });
    const page = await context.newPage();
    await page.goto('/htmls');
    await page.getByLabel('Admin Token').fill(process.env.E2E_ADMIN_TOKEN!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const table = page.getByRole('table', { name: 'Audit log' });
    await expect(table).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: 'user.created' }).filter({ hasText: member.username })).toHaveCount(1);
    await expect(table.getByRole('row').filter({ hasText: 'admin.login' }).first()).toBeVisible();

    if (viewport.width < 640) {
      // Stacked entries on a phone: short, and never wider than the screen.
      const row = (await page.getByTestId('audit-row').first().boundingBox())!;
      expect(row.height).toBeLessThan(160);
      expect(row.x + row.width).toBeLessThanOrEqual(viewport.width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    }

    await page.getByLabel('Action').selectOption('user.created');
    await expect(table.getByRole('row').filter({ hasText: 'admin.login' })).toHaveCount(0);
    await expect(table.getByRole('row').filter({ hasText: member.username })).toHaveCount(1);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = readFileSync(await download.path()).toString();
    expect(csv.split('\r\n')[0]).toBe('time,actor,action,target,address');
    expect(csv).toContain(`Admin Token,user.created,${member.username}`);
    expect(csv).not.toContain('admin.login');

    const chart = page.getByTestId('storage-chart');
    await expect(chart).toBeVisible();
    // The legend names the largest members (others' uploads in this run may be larger); the data holds this one's bytes.
    await expect(page.locator('figcaption').filter({ hasText: /\d/ }).last()).toBeVisible();
    const h = await (await context.request.get('/api/storage/history?days=30', { headers: { Authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}` } })).json();
    expect(h.members.find((m: { username: string }) => m.username === member.username).bytes.at(-1)).toBe(50_000);
    const box = (await chart.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    await context.close();
  });
}
