import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { createMember, createShare, updateShare } from './support/seed';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A visitor in Tokyo with a small window: local times, lazy previews, and "Download all" in Chromium. */
test.use({ locale: 'en-US', timezoneId: 'Asia/Tokyo', viewport: { width: 800, height: 600 } });

test('guest page: who and when, expiry in the visitor zone, previews only when visible, Download all saves the ZIP', async ({ page }) => {
  const member = await createMember('Grace Hopper');
  const files: Record<string, Buffer> = {};
  for (let i = 0; i < 24; i++) files[`notes/n${String(i).padStart(2, '0')}.txt`] = Buffer.from(`note ${i} `.repeat(1500) + 'END-OF-FILE');
  files['top.bin'] = Buffer.alloc(3000, 7);
  const share = await createShare(member.token, files, { note: 'Quarterly notes' });
  const expires = new Date(Date.now() + 3 * 86_400_000 + 3_600_000);
  await updateShare(member.token, share.id, { expires_at: expires.toISOString() });

  const previews: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes(`/f/${share.id}/notes/`)) previews.push(`${r.url()} ${r.headers()['range'] ?? ''}`);
  });
  await page.goto(`/f/${share.id}`);
  await expect(page.getByRole('heading', { name: 'Quarterly notes' })).toBeVisible();
  await expect(page.getByTestId('shared-by')).toContainText('Shared by Grace Hopper');
  await expect(page.getByTestId('expiry')).toContainText('expires in 3 days');
  // The local date is Tokyo's, not the server's UTC text.
  const tokyo = expires.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Tokyo' });
  await expect(page.getByTestId('expiry')).toContainText(tokyo);

  // The first rows' text previews load by Range; the last row's waits until it is scrolled to.
  const first = page.locator('li', { hasText: 'n00.txt' }).locator('pre');
  await expect(first).toContainText('note 0 note 0');
  await expect(first).not.toContainText('END-OF-FILE');
  const last = page.locator('li', { hasText: 'n23.txt' }).locator('[data-preview]');
  await expect(last).toHaveAttribute('data-loaded', '0');
  expect(previews.some((p) => p.includes('n23.txt'))).toBe(false);
  expect(previews.every((p) => p.endsWith('bytes=0-4095'))).toBe(true);
  await last.scrollIntoViewIfNeeded();
  await expect(last.locator('pre')).toContainText('note 23');
  expect(previews.some((p) => p.includes('n23.txt'))).toBe(true);

  await page.evaluate(() => window.scrollTo(0, 0));
  const button = page.getByRole('link', { name: /^Download all \(25 files, / });
  await expect(button).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  // Named after the note, not the share id.
  expect(download.suggestedFilename()).toBe('Quarterly notes.zip');
  const saved = join(mkdtempSync(join(tmpdir(), 'e2e-zip-')), 'all.zip');
  await download.saveAs(saved);
  const script = [
    'import zipfile,json,sys,hashlib',
    'z=zipfile.ZipFile(sys.argv[1])',
    'assert z.testzip() is None',
    'print(json.dumps({i.filename: hashlib.sha256(z.read(i)).hexdigest() for i in z.infolist() if not i.is_dir()}))',
  ].join('\n');
  const listed = JSON.parse(execFileSync('python3', ['-c', script, saved]).toString());
  expect(listed).toEqual(Object.fromEntries(Object.entries(files).map(([p, b]) => [p, sha(b)])));

  // The folder's own button names what it holds.
  await expect(page.getByRole('link', { name: /^Download folder \(24 files, .*\) notes as ZIP$/ })).toHaveAttribute(
    'href',
    `/f/${share.id}/?zip&folder=notes`,
  );
});
