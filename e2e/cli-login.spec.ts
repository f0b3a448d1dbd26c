import { expect, test } from '@playwright/test';
import { ownClientAddress } from './support/client-address';
import { createMember } from './support/seed';

test.use({ extraHTTPHeaders: ownClientAddress() });

// `htmls login --sso`'s page (issue 42): a member signed in to /files opens the page the CLI
// printed, sees the code, approves, and the CLI's poll gets a session of that member.
test('the hand-off page shows the code and approves it for the signed-in member', async ({ page }) => {
  const member = await createMember();
  const start = await page.request.post('/api/auth/cli/handoff');
  expect(start.status()).toBe(201);
  const handoff = (await start.json()) as { device_code: string; user_code: string; verification_url: string };
  const poll = async () => (await (await page.request.post('/api/auth/cli/handoff/poll', { data: { device_code: handoff.device_code } })).json()) as { status: string; user?: { id: string } };

  // Signed out: the page says where to sign in, and approves nothing.
  await page.goto(new URL(handoff.verification_url).pathname + new URL(handoff.verification_url).search);
  await expect(page.getByTestId('handoff-code')).toHaveText(handoff.user_code);
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);

  await page.goto('/files');
  await page.getByLabel('Username').fill(member.username);
  await page.getByLabel('Password').fill(member.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('signed-in-as')).toBeVisible();

  await page.goto(`/cli-login?code=${handoff.user_code}`);
  await expect(page.getByTestId('handoff-code')).toHaveText(handoff.user_code);
  await expect(page.getByText(`signed in as ${member.username}`)).toBeVisible();
  expect(await poll()).toEqual({ status: 'pending' });
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Approved. Go back to your terminal.')).toBeVisible();
  const done = await poll();
  expect(done.status).toBe('approved');
  expect(done.user?.id).toBe(member.id);
});

// The page is in the reader's language, as /files is, and so is why a single sign-on did not
// work (`sso_error`, where the callback sends the browser back), on both pages.
test('a German reader gets the hand-off page, and a failed single sign-on, in German', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'de-DE', extraHTTPHeaders: ownClientAddress(), serviceWorkers: 'block' });
  const page = await context.newPage();
  const start = await page.request.post('/api/auth/cli/handoff');
  const handoff = (await start.json()) as { user_code: string };

  await page.goto(`/cli-login?code=${handoff.user_code}&sso_error=not_linked`);
  await expect(page).toHaveTitle(/Kommandozeile anmelden/);
  await expect(page.getByRole('heading', { name: 'Kommandozeile anmelden' })).toBeVisible();
  await expect(page.getByText('Fahren Sie nur fort, wenn Sie gerade selbst htmls login --sso ausgeführt haben')).toBeVisible();
  await expect(page.getByTestId('handoff-code')).toHaveText(handoff.user_code);
  await expect(page.getByText('Mit dieser Anmeldung ist hier kein Konto verknüpft.')).toBeVisible();
  // The error's code left the address bar: a reload does not show it again.
  expect(new URL(page.url()).searchParams.get('sso_error')).toBeNull();

  await page.goto('/files?sso_error=state_mismatch');
  await expect(page.getByText('Die Anmeldung hat zu lange gedauert oder wurde anderswo begonnen.')).toBeVisible();
  // A code the page does not know reads as "did not work", not as the code.
  await page.goto('/files?sso_error=provider_error');
  await expect(page.getByText('Die Einmalanmeldung hat nicht funktioniert.')).toBeVisible();
  await context.close();
});
