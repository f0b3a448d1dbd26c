import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { build } from 'vite';
import { freshServiceEnv } from '../tests/support/services';
import { freePort, startServer, TEST_ADMIN_TOKEN } from '../tests/support/server';
import { makeZip } from '../tests/support/zip';
import { ownClientAddress } from './support/client-address';
import { SHARED_NAME } from './support/chromium';

test.use({ extraHTTPHeaders: ownClientAddress() });

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'vite-app');
const base = () => process.env.E2E_BASE_URL!;
/** The console as a server name, not loopback: sites share one hosted origin there (e2e/support/chromium.ts). */
const shared = () => base().replace('//127.0.0.1:', `//${SHARED_NAME}:`);
const admin = () => process.env.E2E_ADMIN_TOKEN!;

/** Builds the fixture app with the real `vite` package: a React app, base './'. */
async function buildApp(): Promise<string> {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'htmls-vite-'));
  await build({ root: FIXTURE, base: './', logLevel: 'warn', configFile: false, esbuild: { jsx: 'automatic' }, build: { outDir, emptyOutDir: true } });
  return outDir;
}

function filesOf(dir: string, rel = ''): { path: string; data: Buffer }[] {
  return readdirSync(path.join(dir, rel)).flatMap((name) => {
    const p = path.join(rel, name);
    return statSync(path.join(dir, p)).isDirectory() ? filesOf(dir, p) : [{ path: p.split(path.sep).join('/'), data: readFileSync(path.join(dir, p)) }];
  });
}

async function deploy(dir: string, fields: Record<string, string>): Promise<{ slug: string; deploy_id: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of filesOf(dir)) form.append('file', new Blob([new Uint8Array(f.data)]), f.path);
  const r = await fetch(`${base()}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${admin()}` }, body: form });
  expect(r.status).toBe(201);
  return (await r.json()).project;
}

async function signInToConsole(page: Page, origin = shared(), token = admin()) {
  await page.goto(`${origin}/htmls`);
  await page.getByLabel('Admin Token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
}

test('a Vite + React app with a password and SPA mode runs on its own origin, rolls back, and cannot use the console cookie', async ({ browser }) => {
  const dist = await buildApp();
  const slug = `vite-${Date.now().toString(36)}`;
  const v1 = await deploy(dist, { slug, password: 'vite-secret', spa: 'true' });

  // One browser: the administrator is signed in to the console, so its cookie sits in the jar.
  const context = await browser.newContext();
  const consolePage = await context.newPage();
  await signInToConsole(consolePage);

  const visitor = await context.newPage();
  await visitor.goto(`${shared()}/p/${slug}`);
  const hosted = new URL(visitor.url()).origin;
  expect(hosted).not.toBe(new URL(shared()).origin);
  await expect(visitor.getByRole('heading', { name: 'Password required' })).toBeVisible();
  await visitor.getByLabel('Password').fill('vite-secret');
  await visitor.getByRole('button', { name: 'Unlock' }).click();

  // After unlock every subresource got the cookie: styles, the module script, its worker, fetch.
  await expect(visitor.getByRole('heading', { name: 'Vite app' })).toHaveCSS('color', 'rgb(12, 34, 56)');
  await expect(visitor.getByTestId('module')).toHaveText('module script ran');
  await expect(visitor.getByTestId('data')).toHaveText('data from data.json, version 1');
  await expect(visitor.getByTestId('worker')).toHaveText('worker ran');
  await expect(visitor.getByTestId('visits')).toHaveText('visits: 1');
  await visitor.reload();
  await expect(visitor.getByTestId('visits')).toHaveText('visits: 2');

  // The client-side router, then a deep link loaded directly: served by the SPA fallback.
  await visitor.getByRole('link', { name: 'About' }).click();
  await expect(visitor.getByTestId('route')).toHaveText('About page');
  await visitor.goto(`${hosted}/p/${slug}/users/42`);
  await expect(visitor.getByTestId('route')).toHaveText('User 42');
  await expect(visitor.getByRole('heading', { name: 'Vite app' })).toHaveCSS('color', 'rgb(12, 34, 56)');
  await expect(visitor.getByTestId('data')).toHaveText('data from data.json, version 1');

  // A script on the site tries the console's API with the administrator's cookie: refused.
  const attack = await visitor.evaluate(
    async ({ main, slug: s, id }) => {
      const results: string[] = [];
      for (const [method, url] of [
        ['POST', `${main}/api/projects/${s}/deploys/${id}/activate`],
        ['GET', `${main}/api/files`],
        ['DELETE', `${main}/api/projects/${s}`],
        ['GET', '/api/files'],
      ]) {
        try {
          const r = await fetch(url, { method, credentials: 'include' });
          results.push(`${method} ${url}: ${r.status} ${new URL(r.url).pathname} ${(await r.text()).slice(0, 40)}`);
        } catch (e) {
          results.push(`${method} ${url}: blocked (${(e as Error).name})`);
        }
      }
      return results;
    },
    { main: shared(), slug, id: v1.deploy_id },
  );
  expect(attack[0]).toContain('blocked');
  expect(attack[1]).toContain('blocked');
  expect(attack[2]).toContain('blocked');
  // A root path on the hosted origin asked for by the site's page is the site's own (its SPA
  // fallback here), never the console's API.
  expect(attack[3]).toContain(`/p/${slug}/api/files <!doctype html>`);
  const files = await (await fetch(`${base()}/api/files`, { headers: { Authorization: `Bearer ${admin()}` } })).json();
  expect(files.projects.find((p: { slug: string }) => p.slug === slug)).toMatchObject({ deploy_id: v1.deploy_id, note: '' });

  // A second deploy, then a rollback from the console's deploy history.
  writeFileSync(path.join(dist, 'data.json'), JSON.stringify({ message: 'data from data.json, version 2' }));
  const v2 = await deploy(dist, { slug, append: 'true' });
  await visitor.goto(`${hosted}/p/${slug}/`);
  await expect(visitor.getByTestId('data')).toHaveText('data from data.json, version 2');
  await consolePage.reload();
  const card = consolePage.getByTestId(`project-${slug}`);
  await card.getByRole('button', { name: 'Deploys' }).click();
  await expect(card.getByTestId(`deploy-${v2.deploy_id}`)).toContainText('live');
  await card.getByTestId(`deploy-${v1.deploy_id}`).getByRole('button', { name: 'Roll back to this' }).click();
  await expect(card.getByTestId(`deploy-${v1.deploy_id}`)).toContainText('live');
  await visitor.goto(`${hosted}/p/${slug}/`);
  await expect(visitor.getByTestId('data')).toHaveText('data from data.json, version 1');
  await context.close();
});

/** Untouched `npm create vite` builds (scripts/vite-fixtures.sh): base '/', root-absolute paths. */
const BUILDS = path.join(import.meta.dirname, 'fixtures', 'vite-builds');

/**
 * Every request of the sites that failed or answered 400 or more (redirects are fine); the
 * console's own requests (`consoleOrigin`: Next's prefetches, cancelled on navigation) aside.
 */
function failedRequests(context: BrowserContext, consoleOrigin: string): string[] {
  const failed: string[] = [];
  const ours = (url: string) => new URL(url).origin !== consoleOrigin;
  context.on('requestfailed', (r) => {
    if (ours(r.url())) failed.push(`${r.failure()?.errorText} ${r.url()}`);
  });
  context.on('response', (r) => {
    if (r.status() >= 400 && ours(r.url())) failed.push(`${r.status()} ${r.url()}`);
  });
  return failed;
}

/** The build as one .zip with a top folder, as `zip -r dist.zip dist` makes it. */
function zipOf(name: string): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'htmls-vite-zip-')), `${name}.zip`);
  writeFileSync(file, makeZip(filesOf(path.join(BUILDS, name)).map((f) => ({ name: `dist/${f.path}`, data: f.data }))));
  return file;
}

/** The console's words publishAndOpen() goes by, in English and (the console's language picked) German. */
const ENGLISH = { heading: 'Publish a site', spa: 'Single-page app', publish: 'Publish' };
const GERMAN = { heading: 'Website veröffentlichen', spa: 'Single-Page-App', publish: 'Veröffentlichen' };

/**
 * Publishes from the console (a folder or a .zip) and opens the site by the link it shows. A
 * fresh console tab each time: a second directory pick in one page never arrives in Playwright.
 */
async function publishAndOpen(context: BrowserContext, consoleUrl: string, name: string, how: 'folder' | 'zip', opts: { spa?: boolean; words?: typeof ENGLISH } = {}): Promise<{ site: Page; warnings: string[]; texts: string[] }> {
  const words = opts.words ?? ENGLISH;
  const consolePage = await context.newPage();
  await consolePage.goto(`${consoleUrl}/htmls`);
  await expect(consolePage.getByRole('heading', { name: words.heading })).toBeVisible();
  if (how === 'folder') await consolePage.getByTestId('site-folder-input').setInputFiles(path.join(BUILDS, name));
  else await consolePage.getByTestId('site-files-input').setInputFiles(zipOf(name));
  await expect(consolePage.getByTestId('site-picked')).toBeVisible();
  if (opts.spa) await consolePage.getByLabel(words.spa, { exact: false }).check();
  await consolePage.getByRole('button', { name: words.publish, exact: true }).click();
  const link = consolePage.getByTestId('site-link');
  await expect(link).toBeVisible();
  const found = consolePage.getByTestId('site-warning');
  const warnings = await found.evaluateAll((els) => els.map((e) => e.getAttribute('data-code') ?? ''));
  const texts = await found.allTextContents();
  const [site] = await Promise.all([consolePage.waitForEvent('popup'), link.click()]);
  await site.waitForLoadState('load');
  await consolePage.close();
  return { site, warnings, texts };
}

for (const how of ['folder', 'zip'] as const) {
  test(`untouched npm create vite builds (vanilla, react-ts) uploaded as a ${how} run on the shared hosted origin, opened by the console's link, with no failed request`, async ({ browser }) => {
    test.setTimeout(300_000);
    const context = await browser.newContext();
    const failed = failedRequests(context, new URL(shared()).origin);
    const consolePage = await context.newPage();
    await signInToConsole(consolePage);
    await consolePage.close();

    const vanilla = await publishAndOpen(context, shared(), 'vanilla', how);
    expect(vanilla.warnings).toEqual([]);
    const slug = new URL(vanilla.site.url()).pathname.split('/')[2];
    expect(new URL(vanilla.site.url()).pathname).toBe(`/p/${slug}/`);
    await expect(vanilla.site.getByRole('heading', { name: 'Get started' })).toBeVisible();
    await vanilla.site.getByRole('button', { name: /Count is 0/ }).click();
    await expect(vanilla.site.getByRole('button', { name: /Count is 1/ })).toBeVisible();
    // The script's hard-coded /icons.svg (no base rewrites it) and the CSS and images all arrived.
    await expect.poll(() => vanilla.site.evaluate(() => [...document.images].every((i) => i.complete && i.naturalWidth > 0))).toBe(true);
    const icons = await vanilla.site.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('icons.svg')));
    expect(icons.length).toBeGreaterThan(0);
    // Asked by the page (the host name is the browser's alone: e2e/support/chromium.ts).
    expect(await vanilla.site.evaluate((u) => fetch(u).then((r) => r.status), `/p/${slug}/icons.svg`)).toBe(200);

    const react = await publishAndOpen(context, shared(), 'react-ts', how);
    expect(react.warnings).toEqual([]);
    await expect(react.site.getByRole('heading', { name: 'Get started' })).toBeVisible();
    await react.site.getByRole('button', { name: /Count is 0/ }).click();
    await expect(react.site.getByRole('button', { name: /Count is 1/ })).toBeVisible();
    await expect.poll(() => react.site.evaluate(() => [...document.images].every((i) => i.complete && i.naturalWidth > 0))).toBe(true);
    await react.site.reload();
    await expect(react.site.getByRole('heading', { name: 'Get started' })).toBeVisible();

    // A router built for the root cannot work under /p/<slug>/: the console says so at upload.
    const router = await publishAndOpen(context, shared(), 'react-router', how, { spa: true });
    expect(router.warnings).toEqual(['root_router']);
    // It says what to change: an origin per site (and how), or the base and the basename.
    expect(router.texts[0]).toContain('HOSTED_ORIGIN=https://{slug}.');
    expect(router.texts[0]).toContain('/htmls');
    expect(router.texts[0]).toContain('basename');
    // Its files still load: what fails is the route match, not a request.
    await expect.poll(() => router.site.evaluate(() => document.getElementById('root')?.childElementCount ?? 0)).toBeGreaterThan(0);
    if (how === 'folder') {
      // A German console says it in German, from the warning's parts; the settings stay as they are.
      await context.addCookies([{ name: 'htmls_locale', value: 'de', url: shared() }]);
      const german = await publishAndOpen(context, shared(), 'react-router', how, { spa: true, words: GERMAN });
      expect(german.warnings).toEqual(['root_router']);
      expect(german.texts[0]).toMatch(/^assets\/index-[\w-]+\.js ändert die Adresse selbst \(ein clientseitiger Router\)/);
      expect(german.texts[0]).toContain('Oder geben Sie jeder Website einen eigenen Origin');
      expect(german.texts[0]).toContain('HOSTED_ORIGIN=https://{slug}.');
      expect(german.texts[0]).not.toContain('changes the address itself');
      await context.clearCookies({ name: 'htmls_locale' });
    }
    expect(failed).toEqual([]);
    await context.close();
  });
}

test('an untouched React Router 7 app on an origin of its own (HOSTED_ORIGIN with {slug}) starts on /, routes, and deep links, uploaded as a folder and as a zip', async ({ browser }) => {
  test.setTimeout(300_000);
  const port = await freePort();
  const server = await startServer({ ...(await freshServiceEnv()), PORT: String(port), HOSTED_ORIGIN: `http://{slug}.localhost:${port}` });
  try {
    const context = await browser.newContext();
    const failed = failedRequests(context, `http://localhost:${port}`);
    const consolePage = await context.newPage();
    await signInToConsole(consolePage, `http://localhost:${port}`, TEST_ADMIN_TOKEN);
    await consolePage.close();
    for (const how of ['folder', 'zip'] as const) {
      const { site, warnings } = await publishAndOpen(context, `http://localhost:${port}`, 'react-router', how, { spa: true });
      expect(warnings).toEqual([]);
      const url = new URL(site.url());
      expect(url.host).toMatch(new RegExp(`^[a-z0-9]{8}\\.localhost:${port}$`));
      expect(url.pathname).toBe('/');
      await expect(site.getByTestId('route')).toHaveText('Home page');
      await expect(site.getByRole('heading', { name: 'Get started' })).toBeVisible();
      await site.getByRole('link', { name: 'About' }).click();
      await expect(site.getByTestId('route')).toHaveText('About page');
      await site.goto(`${url.origin}/users/42`);
      await expect(site.getByTestId('route')).toHaveText('User 42');
      await site.goto(`${url.origin}/p/${url.host.split('.')[0]}/about`);
      expect(new URL(site.url()).pathname).toBe('/about');
      await expect(site.getByTestId('route')).toHaveText('About page');
      await site.close();
    }
    expect(failed).toEqual([]);
    await context.close();
  } finally {
    await server.stop();
  }
});
