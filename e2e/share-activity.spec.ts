import { expect, test } from '@playwright/test';
import { createMember, createShare } from './support/seed';
import { useConsoleSession } from './support/console-session';
import { ownClientAddress } from './support/client-address';

const address = ownClientAddress();
test.use({ extraHTTPHeaders: address });

/** A share downloaded once whole and once in part, by a guest with a known network and browser. */
async function downloadedShare() {
  const member = await createMember();
  const share = await createShare(member.token, { 'report.pdf': Buffer.alloc(20_000, 3) }, { note: 'activity' });
  const url = `${process.env.E2E_BASE_URL}/f/${share.id}/report.pdf`;
  const headers = { ...address, 'User-Agent': 'GuestBrowser/1.0' };
  await (await fetch(url, { headers })).arrayBuffer();
  // Another browser of the guest's (a second client): one client's ranges within a short window
  // are one download (docs/downloads.md), and both answers may land in one batch.
  await (await fetch(url, { headers: { ...headers, 'User-Agent': 'GuestPhone/2.0', Range: 'bytes=0-999' } })).arrayBuffer();
  // The counts and the activity are written in one batch a second later.
  await expect
    .poll(async () => {
      const r = await fetch(`${process.env.E2E_BASE_URL}/api/shares/${share.id}/activity`, { headers: { Authorization: `Bearer ${member.token}` } });
      return (await r.json()).activity.downloads.length;
    })
    .toBe(2);
  return { member, share };
}

for (const [name, viewport, colorScheme] of [
  ['desktop, light', { width: 1280, height: 800 }, 'light'],
  ['phone, dark', { width: 390, height: 844 }, 'dark'],
] as const) {
  test(`${name}: a share's Activity shows the chart of downloads per day and who downloaded what`, async ({ browser }) => {
    const { member } = await downloadedShare();
    const context = await browser.newContext({ viewport, colorScheme, extraHTTPHeaders: address, baseURL: process.env.E2E_BASE_URL });
    await useConsoleSession(context, member);
    const page = await context.newPage();
    await page.goto('/files');
    if (viewport.width < 640) await page.getByRole('tablist', { name: 'Sections' }).getByRole('tab', { name: 'Shares' }).click();
    const activity = page.locator('summary', { hasText: 'Activity' }).first();
    await activity.click();
    const chart = page.getByTestId('downloads-chart');
    await expect(chart).toBeVisible();
    await expect(chart).toHaveAttribute('aria-label', /2 in all, 1 completed/);
    // Today's bar: one completed download drawn solid, over the lighter bar of both.
    await expect(chart.locator('rect[data-completed="1"]')).toHaveCount(1);
    const box = (await chart.boundingBox())!;
    expect(box.height).toBeGreaterThan(40);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    const list = page.getByRole('list', { name: 'Downloads, newest first' });
    await expect(list.getByText('Completed')).toHaveCount(1);
    await expect(list.getByText('Partial')).toHaveCount(1);
    await expect(list.getByText('GuestBrowser/1.0').first()).toBeVisible();
    // The guest's network, not their address.
    const net = address['X-Forwarded-For'].replace(/\.\d+$/, '.0');
    await expect(list.getByText(net).first()).toBeVisible();
    if (colorScheme === 'dark') {
      const fill = await chart.evaluate((el) => getComputedStyle(el).color);
      expect(fill).not.toBe('rgb(0, 0, 0)');
    }
    await context.close();
  });
}
