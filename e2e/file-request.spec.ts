import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser } from '@playwright/test';
import { gateChunks } from './support/chunk-gate';
import { ownClientAddress } from './support/client-address';
import { useConsoleSession } from './support/console-session';
import { createMember } from './support/seed';

test.use({ extraHTTPHeaders: ownClientAddress() });

test("a guest sends a folder through a file request, reloads mid-way, resumes, and the owner receives byte-identical files marked with the sender", async ({ browser, request }) => {
  test.setTimeout(240_000);
  const admin = { Authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}` };
  const username = `req${Date.now().toString(36)}`;
  const password = 'member password';
  expect((await request.post('/api/users', { headers: admin, data: { username, password, quota_bytes: 1024 ** 3 } })).status()).toBe(201);
  const token = (await (await request.post('/api/auth/login', { data: { username, password } })).json()).token as string;
  const owner = { Authorization: `Bearer ${token}` };
  const made = await request.post('/api/requests', { headers: owner, data: { note: 'Send me the trip', max_files: 10, max_bytes: 200 * 1024 * 1024 } });
  expect(made.status()).toBe(201);
  const { request: fileRequest } = await made.json();

  // A folder of three files: one of two parts (48 MB + 12 MB through the server), two small.
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'htmls-request-')), 'trip');
  mkdirSync(path.join(dir, 'notes'), { recursive: true });
  writeFileSync(path.join(dir, 'big.bin'), randomBytes(60 * 1024 * 1024));
  writeFileSync(path.join(dir, 'small.bin'), randomBytes(300 * 1024));
  writeFileSync(path.join(dir, 'notes', 'readme.txt'), 'Hello from the trip');

  // The guest: another browser context, no account. One part goes through, the next waits.
  const context = await browser.newContext({ extraHTTPHeaders: ownClientAddress(), serviceWorkers: 'block' });
  const gate = await gateChunks(context);
  const page = await context.newPage();
  await page.goto(fileRequest.url);
  await expect(page.getByRole('heading', { name: 'Send me the trip' })).toBeVisible();
  await expect(page.getByTestId('request-owner')).toContainText(username);
  await expect(page.getByTestId('request-limits')).toHaveText('Up to 10 files, 200 MB in all.');
  await page.getByLabel('Your name (optional)').fill('Dana');
  await page.getByLabel('Message (optional)').fill('The whole trip');
  await page.getByTestId('request-folder').setInputFiles(dir);
  await expect(page.getByTestId('request-picked')).toContainText('3 files');
  // The chosen files are listed by name and size, each with its remove button.
  const list = page.getByTestId('request-list');
  await expect(list.getByTestId('request-file')).toHaveCount(3);
  await expect(list.getByTestId('request-file').filter({ hasText: 'trip/big.bin' })).toContainText('60 MB');
  await expect(list.getByRole('button', { name: 'Remove trip/notes/readme.txt' })).toBeVisible();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('upload-progress')).toBeVisible();
  await expect.poll(() => gate.held.length, { timeout: 60_000 }).toBe(1);

  // A reload while bytes are in flight: the page asks first, then offers to continue.
  page.on('dialog', (d) => void d.accept());
  await page.reload();
  // It names the files to choose again, and the name and message are still there.
  await expect(page.getByTestId('request-resume')).toContainText('3 files');
  await expect(page.getByTestId('request-resume-files')).toContainText('trip/big.bin');
  await expect(page.getByTestId('request-resume-files')).toContainText('trip/notes/readme.txt');
  await expect(page.getByLabel('Your name (optional)')).toHaveValue('Dana');
  await expect(page.getByLabel('Message (optional)')).toHaveValue('The whole trip');
  gate.allow = Infinity;
  await page.getByTestId('request-folder').setInputFiles(dir);
  await page.getByRole('button', { name: 'Resume sending' }).click();
  await expect(page.getByTestId('request-done')).toContainText(`${username} received 3 files`, { timeout: 90_000 });

  // Four parts in all, each sent once: the reload resumed, it did not start over.
  expect(gate.sent).toHaveLength(4);
  expect(new Set(gate.sent).size).toBe(4);

  // The owner: one offline share, marked with who sent it; published, its files are the same bytes.
  const shares = (await (await request.get('/api/shares', { headers: owner })).json()).shares as any[];
  expect(shares).toHaveLength(1);
  expect(shares[0]).toMatchObject({ status: 'offline', upload_state: 'complete', file_count: 3, received: { request_id: fileRequest.id, name: 'Dana', message: 'The whole trip' } });
  expect((await request.patch(`/api/shares/${shares[0].id}`, { headers: owner, data: { status: 'online' } })).status()).toBe(200);
  for (const file of ['big.bin', 'small.bin', 'notes/readme.txt']) {
    const res = await request.get(`${shares[0].url}/trip/${file}`);
    expect(res.status()).toBe(200);
    expect(Buffer.from(await res.body()).equals(readFileSync(path.join(dir, file))), file).toBe(true);
  }
  const after = (await (await request.get(`/api/requests/${fileRequest.id}`, { headers: owner })).json()).request;
  expect(after).toMatchObject({ upload_count: 1 });
  await context.close();
});

test('a file request page on a 390 px phone in dark mode: no sideways scroll, the real space left, wrong files flagged as they are picked and removed by keyboard, the server\'s reason shown', async ({ browser, request }) => {
  const admin = { Authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}` };
  const username = `reqp${Date.now().toString(36)}`;
  const password = 'member password';
  expect((await request.post('/api/users', { headers: admin, data: { username, password, quota_bytes: 1024 ** 3 } })).status()).toBe(201);
  const token = (await (await request.post('/api/auth/login', { data: { username, password } })).json()).token as string;
  const made = await request.post('/api/requests', { headers: { Authorization: `Bearer ${token}` }, data: { max_files: 1, allowed_types: ['.pdf', 'video/*'], require_name: true } });
  const { request: fileRequest } = await made.json();
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark', extraHTTPHeaders: ownClientAddress() });
  const page = await context.newPage();
  await page.goto(fileRequest.url);
  // No size limit of its own: the owner's 1 GB quota is the space left, not the service's 50 GB.
  await expect(page.getByTestId('request-limits')).toHaveText('Up to 1 file, 1.0 GB in all (the space left), PDF or video.');
  // What an unfinished upload holds is not free either: 100 MB held leaves 924 MB.
  const held = await request.post(`/api/requests/${fileRequest.id}/upload`, { data: { name: 'Held', files: [{ clientPath: 'held.pdf', size: 100 * 1024 * 1024 }] } });
  expect(held.status()).toBe(201);
  await page.reload();
  await expect(page.getByTestId('request-limits')).toHaveText('Up to 1 file, 924 MB in all (the space left), PDF or video.');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const files = page.getByTestId('request-files');
  await expect(files).toHaveAttribute('accept', '.pdf,video/*');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'htmls-request-phone-'));
  writeFileSync(path.join(dir, 'notes.txt'), 'not a pdf');
  // A PNG renamed .pdf: its name passes the page's check, its bytes do not pass the server's.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  writeFileSync(path.join(dir, 'scan.pdf'), png);
  await files.setInputFiles(path.join(dir, 'notes.txt'));
  const list = page.getByTestId('request-list');
  await expect(list.getByTestId('request-file').filter({ hasText: 'notes.txt' }).getByTestId('request-file-refused')).toHaveText('Not a type this request takes (PDF or video).');
  await expect(page.getByTestId('request-picked')).toContainText('1 this request does not take');
  // A second pick adds to the list: two files where one is taken is said at once.
  await files.setInputFiles(path.join(dir, 'scan.pdf'));
  await expect(list.getByTestId('request-file')).toHaveCount(2);
  await expect(page.getByTestId('request-list-refused')).toHaveText('This request takes at most 1 file; you chose 2. Remove 1.');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByLabel('Your name').fill('Sam');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.locator('form [role="alert"]')).toHaveText('notes.txt: Not a type this request takes (PDF or video). Remove it to send the others.');
  // Removed by keyboard: the refusals go with it.
  await list.getByRole('button', { name: 'Remove notes.txt' }).focus();
  await page.keyboard.press('Enter');
  await expect(list.getByTestId('request-file')).toHaveCount(1);
  await expect(page.getByTestId('request-list-refused')).toHaveCount(0);
  await expect(list.getByTestId('request-file-refused')).toHaveCount(0);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.locator('form [role="alert"]')).toContainText('scan.pdf is really image/png');
  await context.close();
});

test('the owner makes a request in /files, copies its link and QR code, sees what arrived and who sent it, closes, reopens and deletes it', async ({ browser, request }) => {
  const member = await createMember('Robin Owner');
  const context = await browser.newContext({ extraHTTPHeaders: ownClientAddress() });
  await useConsoleSession(context, member);
  const page = await context.newPage();
  await page.goto('/files');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Requests' }).click();
  await expect(page.getByTestId('requests-empty')).toBeVisible();
  await page.getByRole('button', { name: 'New request' }).click();
  const form = page.getByTestId('request-form');
  await form.getByLabel('What you ask for (shown to senders)').fill('Contract scans');
  await form.getByLabel('Most files per upload').fill('5');
  await form.getByLabel('Allowed types (optional)').fill('.pdf, image/*');
  await form.getByRole('button', { name: 'Create request link' }).click();
  const row = page.locator('[data-testid^="request-"]').filter({ hasText: 'Contract scans' });
  await expect(row.getByText('open', { exact: true })).toBeVisible();
  await expect(row).toContainText('up to 5 files');
  await row.getByRole('button', { name: 'QR code' }).click();
  await expect(row.getByRole('img')).toBeVisible();
  const href = await row.getByRole('link', { name: 'Contract scans' }).getAttribute('href');
  const id = href!.split('/').pop()!;

  // A guest sends a scan through the API (as the page or the CLI would).
  const scan = Buffer.from('%PDF-1.4\n%%EOF\n');
  const init = await request.post(`/api/requests/${id}/upload`, { data: { name: 'Dana', message: 'Signed', files: [{ clientPath: 'contract.pdf', size: scan.length }] } });
  expect(init.status()).toBe(201);
  const { groupId, uploadToken, files } = await init.json();
  const guest = { Authorization: `Bearer ${uploadToken}` };
  const q = new URLSearchParams({ groupId, uploadId: files[0].uploadId, storageKey: files[0].storageKey, partNumber: '1' });
  const part = await request.put(`/api/shares/upload/chunk?${q}`, { headers: guest, data: scan });
  expect(part.status()).toBe(200);
  const done = await request.post('/api/shares/upload/complete', { headers: guest, data: { groupId, files: [{ uploadId: files[0].uploadId, storageKey: files[0].storageKey, parts: [{ partNumber: 1, etag: (await part.json()).etag }] }] } });
  expect(done.status()).toBe(200);

  await page.reload();
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Requests' }).click();
  await expect(row).toContainText('1 upload');
  await row.getByRole('button', { name: 'Uploads' }).click();
  await expect(row.getByTestId('request-uploads')).toContainText('Dana · 1 file');
  await row.getByRole('button', { name: 'Close' }).click();
  await expect(row.getByText('closed', { exact: true })).toBeVisible();
  expect((await request.get(`/r/${id}`)).status()).toBe(404);
  await row.getByRole('button', { name: 'Reopen' }).click();
  await expect(row.getByText('open', { exact: true })).toBeVisible();

  // The received share is in Shares, marked with who sent it, offline until published.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Shares' }).click();
  const share = page.locator('[data-testid^="share-"]').filter({ hasText: 'Contract scans' });
  await expect(share.getByTestId('received-from')).toHaveText('received from Dana');
  await expect(share).toContainText('“Signed”');

  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Requests' }).click();
  await row.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete request' }).click();
  await expect(page.getByTestId('requests-empty')).toBeVisible();
  await context.close();
});

/** A member signed in to /files who has just made a request: its row in Requests and its id. */
async function newRequestInConsole(browser: Browser, owner: string, note: string) {
  const member = await createMember(owner);
  const context = await browser.newContext({ extraHTTPHeaders: ownClientAddress() });
  await useConsoleSession(context, member);
  const page = await context.newPage();
  await page.goto('/files');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Requests' }).click();
  await page.getByRole('button', { name: 'New request' }).click();
  const form = page.getByTestId('request-form');
  await form.getByLabel('What you ask for (shown to senders)').fill(note);
  await form.getByRole('button', { name: 'Create request link' }).click();
  const row = page.locator('[data-testid^="request-"]').filter({ hasText: note });
  const id = (await row.getByRole('link', { name: note }).getAttribute('href'))!.split('/').pop()!;
  return { member, context, page, row, id };
}

test("an unfinished guest upload is worded as the guest's: no Resume, and Discard names the guest (issue 41, item 4)", async ({ browser, request }) => {
  const { member, context, page, row, id } = await newRequestInConsole(browser, 'Olivia Owner', 'Tax papers');
  // A guest starts an upload and goes away.
  const init = await request.post(`/api/requests/${id}/upload`, { data: { name: 'Dana', files: [{ clientPath: 'return.pdf', size: 2000 }] } });
  expect(init.status()).toBe(201);
  const { groupId } = await init.json();

  await page.reload();
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Shares' }).click();
  const notice = page.getByTestId('interrupted-notice');
  await expect(notice).toContainText('A guest’s upload to your file request is unfinished: only the sender can resume it');
  await expect(notice).not.toContainText('Resume or discard');
  const share = page.getByTestId(`share-${groupId}`);
  await expect(share.getByTestId('received-from')).toHaveText('arriving from Dana');
  await expect(share.getByRole('button', { name: 'Resume' })).toHaveCount(0);
  await share.getByRole('button', { name: 'Discard' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Discard “Dana”’s upload?');
  await expect(dialog).not.toContainText(member.username);
  await dialog.getByRole('button', { name: 'Discard' }).click();
  await expect(share).toHaveCount(0);
  await expect(notice).toHaveCount(0);
  await context.close();
});

test("the owner discards every guest's unfinished upload on the request's view with Discard all, after a confirm (issue 39, item 1)", async ({ browser, request }) => {
  const { member, context, page, row, id } = await newRequestInConsole(browser, 'Uma Owner', 'Holiday photos');
  // Two guests start uploads and go away.
  for (const name of ['Dana', 'Eli']) {
    const init = await request.post(`/api/requests/${id}/upload`, { data: { name, files: [{ clientPath: `${name}.jpg`, size: 3000 }] } });
    expect(init.status()).toBe(201);
  }

  await row.getByRole('button', { name: 'Uploads' }).click();
  const unfinished = row.getByTestId('request-unfinished');
  await expect(unfinished).toContainText('2 guests’ uploads are unfinished, holding');
  await expect(unfinished).toContainText('only the sender can resume them');
  // Cancelling the confirm keeps them.
  await unfinished.getByRole('button', { name: 'Discard all' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Discard 2 guests’ unfinished uploads?');
  await expect(dialog).not.toContainText(member.username);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(row.getByTestId('request-uploads')).toContainText('Dana');
  await unfinished.getByRole('button', { name: 'Discard all' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Discard all' }).click();
  await expect(unfinished).toHaveCount(0);
  await expect(row.getByTestId('request-uploads')).toContainText('Nothing received yet.');
  const left = await request.get(`/api/shares?request=${id}`, { headers: { Authorization: `Bearer ${member.token}` } });
  expect((await left.json()).shares).toEqual([]);
  await context.close();
});
