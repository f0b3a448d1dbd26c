import { expect, test } from '@playwright/test';
import { createMember, createShare } from './support/seed';
import { useConsoleSession } from './support/console-session';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

test('/files Settings: add a webhook (its secret shown once), see its delivery log and redeliver', async ({ page, context }) => {
  const member = await createMember();
  await useConsoleSession(context, member);
  await page.goto('/files');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Access tokens' }).click();
  await page.getByLabel('Receiver URL').fill('https://93.184.216.34/hooks/htmls');
  await page.getByText('share.created', { exact: true }).click();
  await page.getByRole('button', { name: 'Add webhook' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'shown only now' })).toContainText('whsec_');
  await expect(page.getByText('https://93.184.216.34/hooks/htmls').first()).toBeVisible();

  // An event for it: a new share (the receiver is not reachable from here: the delivery stays pending, then retries).
  await createShare(member.token, { 'a.txt': Buffer.from('a') });
  await page.reload();
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Access tokens' }).click();
  await page.locator('summary', { hasText: 'Deliveries' }).click();
  const log = page.getByRole('list', { name: 'Deliveries to https://93.184.216.34/hooks/htmls' });
  await expect(log.getByRole('listitem')).toHaveCount(1);
  await expect(log).toContainText('share.created');
  await log.getByRole('button', { name: /^Redeliver share.created/ }).click();
  await expect(log.getByRole('listitem')).toHaveCount(2);
  // The open log reads itself again while a delivery is pending: the redelivery's attempt shows
  // without reopening the panel (issue 41, item 9).
  await expect(log.getByRole('listitem').first()).toContainText('1 attempt', { timeout: 30_000 });

  // Each row shows what was sent and what the receiver answered (issue 41, item 10).
  const first = log.getByRole('listitem').first();
  await first.locator('summary', { hasText: 'Payload and answer' }).click();
  await expect(first).toContainText('"type": "share.created"');

  // Send test event: a webhook.test delivery joins the open log.
  await page.getByRole('button', { name: 'Send a test event to https://93.184.216.34/hooks/htmls' }).click();
  await expect(log.getByRole('listitem')).toHaveCount(3);
  await expect(log.getByRole('listitem').first()).toContainText('webhook.test');
});
