import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { build } from 'vite';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'vite-app');
const base = () => process.env.E2E_BASE_URL!;
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

async function signInToConsole(page: Page) {
  await page.goto(`${base()}/htmls`);
  await page.getByLabel('Admin Token').fill(admin());
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
  await visitor.goto(`${base()}/p/${slug}`);
  const hosted = new URL(visitor.url()).origin;
  expect(hosted).not.toBe(new URL(base()).origin);
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
          results.push(`${method} ${url}: ${r.status} ${(await r.text()).slice(0, 40)}`);
        } catch (e) {
          results.push(`${method} ${url}: blocked (${(e as Error).name})`);
        }
      }
      return results;
    },
    { main: base(), slug, id: v1.deploy_id },
  );
  expect(attack[0]).toContain('blocked');
  expect(attack[1]).toContain('blocked');
  expect(attack[2]).toContain('blocked');
  expect(attack[3]).toMatch(/: 404 /);
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
