import { expect, test, type Page } from '@playwright/test';
import { ownClientAddress } from './support/client-address';
import { logInToFiles } from './support/console-session';
import { createMember, createShare } from './support/seed';

test.use({ extraHTTPHeaders: ownClientAddress() });

const rows = (page: Page) => page.locator('li[data-testid^="share-"]');

test('/files shows the newest 50 shares first, loads the rest as the list scrolls, and searches on the server', async ({ page }) => {
  test.setTimeout(180_000);
  const m = await createMember();
  // 53 shares, oldest first: "trip 00" … "trip 52"; one page holds 50.
  for (let i = 0; i < 53; i++) await createShare(m.token, { 'a.txt': Buffer.from(`file ${i}`) }, { note: `trip ${String(i).padStart(2, '0')}` });
  const pages: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/shares') pages.push(new URL(r.url()).search);
  });
  await logInToFiles(page, m);
  await expect(rows(page).first()).toContainText('trip 52');
  // The first page arrived alone: 50 rows, the oldest three not yet fetched.
  await expect(rows(page)).toHaveCount(50);
  await expect(page.getByText('trip 02')).toHaveCount(0);
  // Scrolling to the end of the list fetches the next page (the cursor from the first).
  await page.getByTestId('load-more').scrollIntoViewIfNeeded();
  await expect(rows(page)).toHaveCount(53);
  await expect(rows(page).last()).toContainText('trip 00');
  await expect(page.getByTestId('load-more')).toHaveCount(0);
  expect(pages.some((s) => s.includes('cursor='))).toBe(true);

  // A search asks the server, which looks through every share (not only the loaded ones).
  await page.getByLabel('Search shares').fill('trip 01');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText('trip 01');
  expect(pages.some((s) => s.includes('q=trip+01') || s.includes('q=trip%2001'))).toBe(true);
  await page.getByLabel('Search shares').fill('no such trip');
  await expect(page.getByText('No shares match')).toBeVisible();
});
