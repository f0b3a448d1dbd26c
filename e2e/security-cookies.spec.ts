/**
 * In Chromium: cookie tossing from a same-site hosted page, reading
 * another unlocked project from a hosted page, and a cross-site form that logs the user out.
 * The default setup: hosted sites on a second port of the same host name (same site, other
 * origin), so a hosted page can set cookies the main origin receives.
 */
import { expect, test, type Page } from '@playwright/test';
import { freshServiceEnv } from '../tests/support/services';
import { freePort, freePorts, startServer, TEST_ADMIN_TOKEN, type RunningServer } from '../tests/support/server';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

let server: RunningServer;
let port: number;
let hostedPort: number;
const main = () => `http://localhost:${port}`;

test.beforeAll(async () => {
  [port, hostedPort] = await freePorts(2);
  server = await startServer({ ...(await freshServiceEnv()), PORT: String(port), HOSTED_PORT: String(hostedPort) });
});
test.afterAll(async () => server?.stop());

async function api(path: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('Authorization', `Bearer ${init.token}`);
  return fetch(server.url + path, { ...init, headers });
}

async function publish(slug: string, html: string, password?: string) {
  const form = new FormData();
  form.append('slug', slug);
  if (password) form.append('password', password);
  form.append('file', new Blob([html]), 'index.html');
  const r = await api('/api/upload', { method: 'POST', token: TEST_ADMIN_TOKEN, body: form });
  expect(r.status).toBe(201);
}

async function member(): Promise<{ username: string; password: string; token: string }> {
  const username = `m${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const password = 'a good long password';
  const c = await api('/api/users', { method: 'POST', token: TEST_ADMIN_TOKEN, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username, password, quota_bytes: 1024 ** 3 }) });
  expect(c.status).toBe(201);
  const l = await api('/api/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username, password }) });
  return { username, password, token: (await l.json()).token };
}

/** Signs in on the main origin through the console's form (it remembers whom it signed in). */
async function signIn(page: Page, who: { username: string; password: string }) {
  await page.goto(`${main()}/files`);
  await page.getByLabel('Username').fill(who.username);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(who.username);
}

/** A fetch as the console makes it: with the X-Htmls-Account it keeps in this origin's storage. */
const consoleFetch = (page: Page, path: string, init: { method?: string; body?: string } = {}) =>
  page.evaluate(
    async ({ path, init }) => {
      const member = JSON.parse(localStorage.getItem('htmls-console-accounts') ?? '{}').member ?? '';
      const r = await fetch(path, { ...init, headers: { 'Content-Type': 'application/json', 'X-Htmls-Account': member } });
      return { status: r.status, body: await r.json().catch(() => null) };
    },
    { path, init },
  );

test('cookie tossing: a hosted page plants a session cookie for /api/shares; the victim\'s upload is refused, not filed under the attacker', async ({ browser }) => {
  const victim = await member();
  const attacker = await member();
  await publish('tosser', `<!doctype html><title>t</title><p id="out">…</p><script>document.cookie = 'htmls_user_session=${attacker.token}; path=/api/shares'; document.getElementById('out').textContent = 'planted';</script>`);
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, victim);
  // The shared form of the hosted port (what a host name other than localhost gets).
  await page.goto(`http://localhost:${hostedPort}/p/tosser`);
  await expect(page.locator('#out')).toHaveText('planted');
  // The browser now holds two htmls_user_session cookies for localhost and sends both.
  expect((await context.cookies()).filter((c) => c.name === 'htmls_user_session' && c.domain === 'localhost')).toHaveLength(2);

  await page.goto(`${main()}/files`);
  const init = await consoleFetch(page, '/api/shares/upload/init', { method: 'POST', body: JSON.stringify({ files: [{ clientPath: 'secret.txt', size: 5 }] }) });
  expect(init.status).toBe(401);
  // Nothing landed in the attacker's account.
  const theirs = await api('/api/shares', { token: attacker.token });
  expect((await theirs.json()).shares).toHaveLength(0);
  // Both copies were cleared: the victim signs in again and is themself.
  expect((await context.cookies()).filter((c) => c.name === 'htmls_user_session')).toHaveLength(0);
  await signIn(page, victim);
  expect((await consoleFetch(page, '/api/auth/me')).body.user.username).toBe(victim.username);
  await context.close();
});

test('a hosted page can read another project the visitor unlocked on a shared hosted origin (documented); per-project origins stop it', async ({ browser }) => {
  const snoop = `<!doctype html><title>s</title><p id="out">…</p><script>
    fetch(VAULT_URL, { credentials: 'include' }).then((r) => r.text()).then((t) => { document.getElementById('out').textContent = t.includes('vault-secret-42') ? 'read the vault' : 'no secret'; }, (e) => { document.getElementById('out').textContent = 'blocked ' + e.name; });
  </script>`;
  const vault = '<!doctype html><title>v</title><p>vault-secret-42</p>';

  // A shared hosted origin (the hosted port by a host name other than localhost): one origin for every project.
  await publish('vault', vault, 'vault password');
  await publish('snoop', snoop.replace('VAULT_URL', "'/p/vault/'"));
  const context = await browser.newContext();
  const page = await context.newPage();
  const shared = `http://localhost:${hostedPort}`;
  await page.goto(`${shared}/p/vault/`);
  await page.getByLabel('Password').fill('vault password');
  await page.getByRole('button', { name: 'Unlock' }).click();
  await expect(page.getByText('vault-secret-42')).toBeVisible();
  await page.goto(`${shared}/p/snoop/`);
  await expect(page.locator('#out')).toHaveText('read the vault');
  await context.close();

  // The default setup reached as localhost: every project at <slug>.localhost, so the same page is refused.
  await publish('snoop2', snoop.replace('VAULT_URL', `'http://vault.localhost:${hostedPort}/'`));
  const c1 = await browser.newContext();
  const p1 = await c1.newPage();
  await p1.goto(`${main()}/p/vault/`);
  expect(new URL(p1.url()).host).toBe(`vault.localhost:${hostedPort}`);
  await p1.getByLabel('Password').fill('vault password');
  await p1.getByRole('button', { name: 'Unlock' }).click();
  await expect(p1.getByText('vault-secret-42')).toBeVisible();
  await p1.goto(`${main()}/p/snoop2/`);
  expect(new URL(p1.url()).host).toBe(`snoop2.localhost:${hostedPort}`);
  await expect(p1.locator('#out')).toHaveText(/^blocked/);
  await c1.close();

  // HOSTED_ORIGIN with {slug}: every project its own origin; the same page is refused.
  const p2 = await freePort();
  const perSite = await startServer({ ...(await freshServiceEnv()), PORT: String(p2), HOSTED_ORIGIN: `http://{slug}.localhost:${p2}` });
  try {
    const upload = async (slug: string, html: string, password?: string) => {
      const form = new FormData();
      form.append('slug', slug);
      if (password) form.append('password', password);
      form.append('file', new Blob([html]), 'index.html');
      const r = await fetch(`${perSite.url}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, body: form });
      expect(r.status).toBe(201);
    };
    await upload('vault', vault, 'vault password');
    await upload('snoop', snoop.replace('VAULT_URL', `'http://vault.localhost:${p2}/p/vault/'`));
    const c2 = await browser.newContext();
    const pg = await c2.newPage();
    await pg.goto(`http://localhost:${p2}/p/vault/`);
    expect(new URL(pg.url()).host).toBe(`vault.localhost:${p2}`);
    await pg.getByLabel('Password').fill('vault password');
    await pg.getByRole('button', { name: 'Unlock' }).click();
    await expect(pg.getByText('vault-secret-42')).toBeVisible();
    await pg.goto(`http://localhost:${p2}/p/snoop/`);
    expect(new URL(pg.url()).host).toBe(`snoop.localhost:${p2}`);
    await expect(pg.locator('#out')).toHaveText(/^blocked/);
    await c2.close();
  } finally {
    await perSite.stop();
  }
});

test("cookie tossing from <slug>.localhost (the default reached as localhost): a page cannot plant a cookie the console receives", async ({ browser }) => {
  const victim = await member();
  const attacker = await member();
  await publish('tosser2', `<!doctype html><title>t</title><p id="out">…</p><script>for (const d of ['', '; domain=localhost', '; domain=.localhost']) document.cookie = 'htmls_user_session=${attacker.token}; path=/api/shares' + d; document.getElementById('out').textContent = 'tried';</script>`);
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, victim);
  await page.goto(`${main()}/p/tosser2`);
  expect(new URL(page.url()).host).toBe(`tosser2.localhost:${hostedPort}`);
  await expect(page.locator('#out')).toHaveText('tried');
  // Only the victim's own cookie is sent to the console: the page's stayed on its own host.
  expect((await context.cookies(main())).filter((c) => c.name === 'htmls_user_session')).toHaveLength(1);
  await page.goto(`${main()}/files`);
  expect((await consoleFetch(page, '/api/auth/me')).body.user.username).toBe(victim.username);
  await context.close();
});

test('logout CSRF: a form on another site, or on a same-site hosted page, posting to /api/auth/logout leaves the user signed in', async ({ browser }) => {
  const victim = await member();
  await publish('csrf', `<!doctype html><title>c</title><form method="post" action="${main()}/api/auth/logout"><button>Claim your prize</button></form>`);
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, victim);
  // 127.0.0.1 is another site than localhost; localhost on the hosted port is the same site.
  for (const attacker of [`http://127.0.0.1:${hostedPort}/p/csrf/`, `http://localhost:${hostedPort}/p/csrf/`]) {
    await page.goto(attacker);
    // Hosted pages open links and forms in a new tab (<base target="_blank">).
    const [result] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Claim your prize' }).click()]);
    await expect(result).toHaveURL(`${main()}/api/auth/logout`);
    await expect(result.locator('body')).toContainText('"code":"forbidden"');
    await result.close();
    expect((await context.cookies(main())).filter((c) => c.name === 'htmls_user_session'), attacker).toHaveLength(1);
  }
  await page.goto(`${main()}/files`);
  expect((await consoleFetch(page, '/api/auth/me')).status).toBe(200);
  // Our own pages still sign out.
  const out = await page.evaluate(async () => (await fetch('/api/auth/logout', { method: 'POST' })).status);
  expect(out).toBe(200);
  expect((await context.cookies(main())).filter((c) => c.name === 'htmls_user_session')).toHaveLength(0);
  await context.close();
});
