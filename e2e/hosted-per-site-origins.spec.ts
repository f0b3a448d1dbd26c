import { expect, test } from '@playwright/test';
import { freshServiceEnv } from '../tests/support/services';
import { freePort, startServer, TEST_ADMIN_TOKEN, type RunningServer } from '../tests/support/server';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

let server: RunningServer;
let port: number;
test.beforeAll(async () => {
  port = await freePort();
  server = await startServer({ ...(await freshServiceEnv()), PORT: String(port), HOSTED_ORIGIN: `http://{slug}.localhost:${port}` });
});
test.afterAll(async () => server?.stop());

async function publish(slug: string, html: string) {
  const form = new FormData();
  form.append('slug', slug);
  form.append('file', new Blob([html]), 'index.html');
  const r = await fetch(`${server.url}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, body: form });
  expect(r.status).toBe(201);
}

test('HOSTED_ORIGIN with {slug}: each site on its own origin, no shared storage or cookies, no console authority', async ({ browser }) => {
  const main = `http://localhost:${port}`;
  await publish('site-a', `<!doctype html><title>A</title><p id="out">A</p><script>localStorage.setItem('who', 'A'); document.cookie = 'from=A; path=/'; document.getElementById('out').dataset.done = '1';</script>`);
  await publish(
    'site-b',
    `<!doctype html><title>B</title><p id="out">waiting</p><script>document.getElementById('out').textContent = 'storage: ' + (localStorage.getItem('who') ?? 'none') + ', cookies: ' + (document.cookie || 'none');</script>`,
  );
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${main}/htmls`);
  await page.getByLabel('Admin Token').fill(TEST_ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();

  await page.goto(`${main}/p/site-a`);
  expect(new URL(page.url()).host).toBe(`site-a.localhost:${port}`);
  await expect(page.locator('#out[data-done="1"]')).toBeVisible();
  await page.goto(`${main}/p/site-b`);
  expect(new URL(page.url()).host).toBe(`site-b.localhost:${port}`);
  await expect(page.locator('#out')).toHaveText('storage: none, cookies: none');

  // Site B's script tries to delete site A through the console's API, with the admin cookie.
  const tried = await page.evaluate(async (origin) => {
    try {
      const r = await fetch(`${origin}/api/projects/site-a`, { method: 'DELETE', credentials: 'include' });
      return `answered ${r.status}`;
    } catch (e) {
      return `blocked (${(e as Error).name})`;
    }
  }, main);
  expect(tried).toMatch(/^blocked/);
  const posted = await page.evaluate(async (origin) => {
    try {
      await fetch(`${origin}/api/auth/token`, { method: 'POST', credentials: 'include', body: '{"token":"owned-owned-owned"}' });
      return 'sent';
    } catch {
      return 'blocked';
    }
  }, main);
  expect(posted).toBe('blocked');
  const a = await fetch(`${server.url}/api/files`, { headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
  expect((await a.json()).projects.map((p: { slug: string }) => p.slug)).toContain('site-a');
  await context.close();
});
