import { expect, test } from '@playwright/test';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

const unique = () => `tok${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

test('a member makes a token in /files → Access tokens, uploads with it by one PUT, and revokes it', async ({ page, request }) => {
  await page.goto('/files');
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Username').fill(unique());
  await page.getByLabel('Password').fill('a good long password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('signed-in-as')).toBeVisible();

  await page.getByRole('button', { name: 'Access tokens' }).click();
  const form = page.getByRole('form', { name: 'New access token' });
  await form.getByLabel('Token name').fill('laptop');
  await form.getByRole('checkbox', { name: /account:read/ }).check();
  // A member is never offered the administrator's scopes.
  await expect(form.getByRole('checkbox', { name: /sites:deploy/ })).toHaveCount(0);
  await form.getByRole('button', { name: 'Create token' }).click();
  const secret = (await page.getByTestId('token-secret').textContent())!.trim();
  expect(secret).toMatch(/^htmls_pat_/);
  await expect(page.getByTestId('token-laptop')).toContainText('shares:write, account:read');

  const put = await request.put('/api/shares/file/hello.txt', { headers: { Authorization: `Bearer ${secret}` }, data: 'hello from a token' });
  expect(put.status()).toBe(201);
  const { share } = await put.json();
  expect(await (await request.get(`${share.items[0].url}`)).text()).toBe('hello from a token');

  // The ShareX config carries a new shares:write token of its own: the dialog says so and asks
  // how long it lives (issue 41, item 11).
  await page.getByRole('button', { name: 'Download ShareX config' }).click();
  const dialog = page.getByRole('dialog', { name: 'Download ShareX config' });
  await expect(dialog).toContainText('Anyone who has the file can upload as you until the token expires or you revoke it');
  const expiry = dialog.getByLabel('Token expires');
  await expect(expiry).toHaveValue('90');
  await expiry.selectOption({ label: 'Never' });
  await expect(dialog.getByTestId('sharex-never')).toContainText('never expires');
  await expiry.selectOption({ label: '30 days' });
  await expect(dialog.getByTestId('sharex-never')).toHaveCount(0);
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download' }).click();
  const sxcu = JSON.parse(await (await (await download).createReadStream()).toArray().then((c) => Buffer.concat(c).toString()));
  expect(sxcu).toMatchObject({ RequestMethod: 'POST', Body: 'MultipartFormData', FileFormName: 'file' });
  expect(sxcu.Headers.Authorization).toMatch(/^Bearer htmls_pat_/);
  await expect(page.getByTestId('token-ShareX')).toContainText('shares:write');
  await expect(dialog).toBeHidden();
  // The token expires in 30 days, as chosen.
  await expect(page.getByTestId('token-ShareX')).toContainText('expires');
  const tokens = await page.evaluate(async () => {
    const account = JSON.parse(localStorage.getItem('htmls-console-accounts') ?? '{}').member;
    return (await (await fetch('/api/tokens', { headers: { 'X-Htmls-Account': account } })).json()).tokens;
  });
  const sharexToken = tokens.find((t: { name: string }) => t.name === 'ShareX');
  const days = (Date.parse(sharexToken.expires_at) - Date.now()) / 86400_000;
  expect(days).toBeGreaterThan(29.9);
  expect(days).toBeLessThan(30.1);

  await page.getByRole('button', { name: 'Revoke laptop' }).click();
  await page.getByRole('button', { name: 'Revoke token' }).click();
  await expect(page.getByTestId('token-laptop')).toHaveCount(0);
  expect((await request.put('/api/shares/file/again.txt', { headers: { Authorization: `Bearer ${secret}` }, data: 'x' })).status()).toBe(401);
});

test('the administrator mints a deploy token for one project in /htmls', async ({ page, request }) => {
  const slug = `tok-${Date.now().toString(36)}`;
  const made = await request.post('/api/upload', { headers: { Authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}` }, multipart: { slug, file: { name: 'index.html', mimeType: 'text/html', buffer: Buffer.from('<h1>v1</h1>') } } });
  expect(made.status()).toBe(201);
  await page.goto('/htmls');
  await page.getByLabel('Admin Token').fill(process.env.E2E_ADMIN_TOKEN!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId(`project-${slug}`).getByRole('button', { name: 'Deploy token' }).click();
  const secret = (await page.getByTestId('deploy-token-secret').textContent())!.trim();
  expect(secret).toMatch(/^htmls_pat_/);
  const redeploy = await request.post('/api/upload', { headers: { Authorization: `Bearer ${secret}` }, multipart: { slug, replace: 'true', file: { name: 'index.html', mimeType: 'text/html', buffer: Buffer.from('<h1>v2</h1>') } } });
  expect(redeploy.status()).toBe(201);
  const elsewhere = await request.get('/api/files', { headers: { Authorization: `Bearer ${secret}` } });
  expect(elsewhere.status()).toBe(403);
});
