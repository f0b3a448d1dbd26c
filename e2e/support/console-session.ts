import { expect, type BrowserContext, type Page } from '@playwright/test';

/**
 * Signs a browser context in as the console would after a login: the session cookie, and the
 * account in the origin's localStorage that the console names in X-Htmls-Account
 * (lib/client/console-session.ts) — a cookie alone signs nobody in. Seeded once per tab, so a
 * test that signs out and reloads stays signed out.
 */
export async function useConsoleSession(context: BrowserContext, member: { id: string; token: string }, base = process.env.E2E_BASE_URL!) {
  await context.addCookies([{ name: 'htmls_user_session', value: member.token, url: base }]);
  await context.addInitScript(
    ({ origin, value }) => {
      if (location.origin !== origin || sessionStorage.getItem('e2e-console-seeded')) return;
      localStorage.setItem('htmls-console-accounts', value);
      sessionStorage.setItem('e2e-console-seeded', '1');
    },
    { origin: new URL(base).origin, value: JSON.stringify({ admin: false, member: member.id }) },
  );
}

/** The header a console of this member sends with the cookie, for API calls a test makes beside it. */
export const consoleHeader = (member: { id: string }) => ({ 'X-Htmls-Account': member.id });

/** Logs in on /files through its form, as a person would, and waits until the console says who is signed in. */
export async function logInToFiles(page: Page, who: { username: string; password: string }) {
  await page.goto('/files');
  await page.getByLabel('Username').fill(who.username);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
}
