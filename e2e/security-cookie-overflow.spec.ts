/**
 * Issue 22, finding 3 in Chromium: a hosted page on a same-site origin floods the cookie jar
 * (Chromium keeps ≈180 cookies per site and evicts the oldest, HttpOnly or not), then plants
 * `htmls_user_session=<attacker's token>`. Cookies cannot be told apart by port or by which
 * sibling host set them, so the console must not take a cookie alone as the signed-in user:
 * the victim's console is then signed out, never signed in as the attacker, and nothing the
 * victim does lands in the attacker's account. Each hosted-origin mode: the default second
 * port, a same-site HOSTED_ORIGIN and per-site `{slug}` origins. Chromium refuses `Domain=localhost`
 * (a top-level name), so the sub-domain modes run under example.localhost, which it accepts.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { freshServiceEnv } from '../tests/support/services';
import { freePorts, startServer, TEST_ADMIN_TOKEN, type RunningServer } from '../tests/support/server';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

interface Mode {
  name: string;
  env: (port: number, hostedPort: number) => Record<string, string>;
  /** The console's host name (a parent of the hosted host names when they are sub-domains). */
  consoleHost: string;
  /** The attack page's address. */
  attackUrl: (port: number, hostedPort: number) => string;
  /** The Domain= the attacker's cookies take (host-only on a sibling port reaches the console already). */
  domain: string;
}

const MODES: Mode[] = [
  {
    name: 'the default second port',
    env: (port, hostedPort) => ({ PORT: String(port), HOSTED_PORT: String(hostedPort) }),
    consoleHost: 'localhost',
    attackUrl: (_port, hostedPort) => `http://localhost:${hostedPort}/p/overflow/`,
    domain: '',
  },
  {
    name: 'a same-site HOSTED_ORIGIN',
    env: (port) => ({ PORT: String(port), HOSTED_ORIGIN: `http://sites.example.localhost:${port}` }),
    consoleHost: 'example.localhost',
    attackUrl: (port) => `http://sites.example.localhost:${port}/p/overflow/`,
    domain: 'example.localhost',
  },
  {
    name: 'same-site {slug} origins',
    env: (port) => ({ PORT: String(port), HOSTED_ORIGIN: `http://{slug}.example.localhost:${port}` }),
    consoleHost: 'example.localhost',
    attackUrl: (port) => `http://overflow.example.localhost:${port}/p/overflow/`,
    domain: 'example.localhost',
  },
];

async function api(server: RunningServer, path: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('Authorization', `Bearer ${init.token}`);
  return fetch(server.url + path, { ...init, headers });
}

async function member(server: RunningServer, username: string) {
  const password = 'a good long password';
  const c = await api(server, '/api/users', { method: 'POST', token: TEST_ADMIN_TOKEN, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username, password, quota_bytes: 1024 ** 3 }) });
  expect(c.status).toBe(201);
  const l = await api(server, '/api/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username, password }) });
  return { username, password, token: (await l.json()).token as string };
}

/** The attack: 200 junk cookies evict the victim's session, the attacker's goes in, the junk goes. */
function overflowPage(attackerToken: string, domain: string): string {
  return `<!doctype html><title>free wallpapers</title><p id="out">…</p><script>
    const d = ${JSON.stringify(domain ? `; domain=${domain}` : '')};
    for (let i = 0; i < 200; i++) document.cookie = 'junk' + i + '=' + 'x'.repeat(20) + '; path=/' + d;
    document.cookie = 'htmls_user_session=${attackerToken}; path=/' + d;
    for (let i = 0; i < 200; i++) document.cookie = 'junk' + i + '=; path=/; max-age=0' + d;
    document.getElementById('out').textContent = 'done';
  </script>`;
}

async function signInThroughConsole(page: Page, base: string, who: { username: string; password: string }) {
  await page.goto(`${base}/files`);
  await page.getByLabel('Username').fill(who.username);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(who.username);
}

const sessionCookies = async (context: BrowserContext, base: string) => (await context.cookies(base)).filter((c) => c.name === 'htmls_user_session');

for (const mode of MODES) {
  test(`cookie-jar overflow on ${mode.name}: the victim's console is signed out, never signed in as the attacker`, async ({ browser }) => {
    const [port, hostedPort] = await freePorts(2);
    const server = await startServer({ ...(await freshServiceEnv()), ...mode.env(port, hostedPort) });
    const context = await browser.newContext();
    try {
      const victim = await member(server, 'victim');
      const attacker = await member(server, 'attacker');
      const form = new FormData();
      form.append('slug', 'overflow');
      form.append('file', new Blob([overflowPage(attacker.token, mode.domain)]), 'index.html');
      expect((await api(server, '/api/upload', { method: 'POST', token: TEST_ADMIN_TOKEN, body: form })).status).toBe(201);

      const page = await context.newPage();
      const base = `http://${mode.consoleHost}:${port}`;
      await signInThroughConsole(page, base, victim);
      await page.goto(mode.attackUrl(port, hostedPort));
      await expect(page.locator('#out')).toHaveText('done');
      // The attack worked on the jar: the victim's cookie is gone, the attacker's is the only one.
      const left = await sessionCookies(context, base);
      expect(left.map((c) => c.value)).toEqual([attacker.token]);

      await page.goto(`${base}/files`);
      await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
      await expect(page.getByTestId('signed-in-as')).toHaveCount(0);
      await expect(page.getByText('attacker')).toHaveCount(0);
      // Nothing reached the attacker's account.
      const theirs = await api(server, '/api/shares', { token: attacker.token });
      expect((await theirs.json()).shares).toHaveLength(0);

      // The victim signs in again and is themself (the planted cookie is cleared on the way).
      await page.getByLabel('Username').fill(victim.username);
      await page.getByLabel('Password').fill(victim.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await expect(page.getByTestId('signed-in-as')).toHaveText(victim.username);
    } finally {
      await context.close();
      await server.stop();
    }
  });
}
