/**
 * The hosted origin's settings that show at the process's boot (split from
 * hosting-origins.test.ts, whose services run in the test's own process): HOSTED_PORT=0 (the
 * sandbox opt-out) on a child server, whose /htmls page is Next's and whose boot warns, with the
 * CLI's warning against it; and the configurations `npm start` refuses, with its exit code.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmls } from './support/cli';
import { migratedServiceEnv } from './support/file-server';
import { uploadSite } from './support/hosting';
import { call } from './support/http';
import { freePort, ROOT, startServer, tempDir, TEST_ADMIN_TOKEN, type RunningServer } from './support/server';

const SANDBOX = 'sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads';

describe('HOSTED_PORT=0: the sandbox opt-out', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ ...(await migratedServiceEnv()), HOSTED_PORT: '0' });
  });
  afterAll(() => server?.stop());

  it('serves /p/ on the main origin under the sandbox CSP, and warns at boot', async () => {
    const slug = (await uploadSite({ 'index.html': '<p>sandboxed</p>' }, {}, server.url)).json.project.slug;
    const r = await call('GET', `/p/${slug}/`, { base: server.url });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-security-policy')).toBe(SANDBOX);
    expect(server.output()).toMatch(/WARNING: HOSTED_PORT=0/);
  });

  it('htmls deploy of a build made for the root prints the warning on stderr, saying what to change', async () => {
    const dir = tempDir('htmls-cli-sandbox-');
    writeFileSync(path.join(dir, 'credentials.json'), JSON.stringify({ url: server.url, store: 'file', role: 'admin', username: null, token: TEST_ADMIN_TOKEN }), { mode: 0o600 });
    const site = path.join(dir, 'site');
    mkdirSync(path.join(site, 'assets'), { recursive: true });
    writeFileSync(path.join(site, 'index.html'), '<script type="module" src="/assets/app.js"></script>');
    writeFileSync(path.join(site, 'assets', 'app.js'), 'history.pushState(null, "", "/about")');
    const r = await htmls(['deploy', site, '--spa'], { HTMLS_CONFIG_DIR: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^Warning: index\.html loads \/assets\/app\.js from the root of the origin.*HOSTED_PORT=0.*base: '\.\/'.*HOSTED_ORIGIN with \{slug\}/m);
  });

  it('GET /htmls — shows the warning (about the setup, not an account: with the login form too)', async () => {
    const page = await call('GET', '/htmls', { base: server.url });
    expect(page.text).toContain('sandbox');
    expect(page.text).toContain('HOSTED_ORIGIN');
  });
});

/** Runs the server as npm start does, with this environment; it must exit on its own with a configuration error. */
function bootError(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ['scripts/start.mjs', '--no-build'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', DATA_DIR: tempDir(), ADMIN_TOKEN: TEST_ADMIN_TOKEN, ...env },
    });
    let output = '';
    proc.stdout.on('data', (d) => (output += d));
    proc.stderr.on('data', (d) => (output += d));
    proc.on('exit', (code) => resolve({ code, output }));
  });
}

describe('boot behind a TLS proxy without HOSTED_ORIGIN', () => {
  it.each<Record<string, string>>([{ PUBLIC_URL: 'https://files.example.com' }, { TRUST_PROXY: 'true' }])('refuses to start with %j, naming HOSTED_ORIGIN and the proxy line', async (extra) => {
    const r = await bootError({ PORT: String(await freePort()), ...extra });
    expect(r.code).toBe(1);
    expect(r.output).toContain('HOSTED_ORIGIN');
    expect(r.output).toContain('reverse_proxy');
    expect(r.output).toContain('HOSTED_PORT=0');
  });
});
