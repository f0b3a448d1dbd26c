import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { HtmlsClient } from '../lib/client/sdk';
import { call } from './support/http';
import { ROOT, tempDir } from './support/server';
import { tcpProxy } from './support/tcp-proxy';
import { makeZip } from './support/zip';

/** Runs the real CLI as a user would: its own config dir, secrets from the environment. */
function htmls(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const proc = spawn(process.execPath, [path.join(ROOT, 'bin/htmls.mjs'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: env.HTMLS_CONFIG_DIR, HTMLS_NO_KEYRING: '1', ...env } as unknown as NodeJS.ProcessEnv,
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => (stdout += d));
    proc.stderr.on('data', (d) => (stderr += d));
    proc.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function newMember(quota = 2 * 1024 ** 3) {
  const username = `cli${randomBytes(4).toString('hex')}`;
  const password = `pw-${randomBytes(6).toString('hex')}`;
  const r = await call('POST', '/api/users', { token: inject('adminToken'), body: { username, password, quota_bytes: quota } });
  expect(r.status).toBe(201);
  const env = { HTMLS_CONFIG_DIR: tempDir('htmls-cli-'), HTMLS_PASSWORD: password };
  const login = await htmls(['login', '--url', inject('baseUrl'), '--username', username], env);
  expect(login.code, login.stderr).toBe(0);
  return { username, password, env };
}

const partSize = async (env: Record<string, string>) => {
  const me = await newTokenOf(env);
  return (await call('GET', '/api/shares/upload/capabilities', { token: me })).json.partSize as number;
};
async function newTokenOf(env: Record<string, string>): Promise<string> {
  const { readFileSync } = await import('node:fs');
  return JSON.parse(readFileSync(path.join(env.HTMLS_CONFIG_DIR, 'credentials.json'), 'utf8')).token;
}

describe('htmls CLI', () => {
  it('logs in (token in a 0600 file, not on the command line) and shows the account', async () => {
    const m = await newMember();
    const file = path.join(m.env.HTMLS_CONFIG_DIR, 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const me = await htmls(['me', '--json'], m.env);
    expect(me.code).toBe(0);
    expect(JSON.parse(me.stdout)).toMatchObject({ role: 'member', user: { username: m.username } });
    const bad = await htmls(['login', '--url', inject('baseUrl'), '--username', m.username], { ...m.env, HTMLS_PASSWORD: 'wrong password' });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/invalid credentials/);
  });

  it('shares a folder with a multi-part file, prints a link that serves the bytes, and edits the share', async () => {
    const m = await newMember();
    const size = await partSize(m.env);
    const dir = path.join(tempDir('htmls-cli-share-'), 'holiday');
    mkdirSync(path.join(dir, 'sub'), { recursive: true });
    const big = randomBytes(size + 1); // two parts, the second of one byte
    writeFileSync(path.join(dir, 'video.bin'), big);
    writeFileSync(path.join(dir, 'sub', 'a.txt'), 'A');
    writeFileSync(path.join(dir, 'b.txt'), 'B');
    const r = await htmls(['share', dir, '--note', 'From the CLI', '--expires', '7d', '--json'], m.env);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const share = JSON.parse(r.stdout);
    expect(share).toMatchObject({ note: 'From the CLI', file_count: 3, total_bytes: big.length + 2 });
    expect(share.items.map((i: { relative_path: string }) => i.relative_path)).toEqual(['holiday/b.txt', 'holiday/sub/a.txt', 'holiday/video.bin']);
    const got = await fetch(`${share.link}/holiday/video.bin`);
    expect(Buffer.from(await got.arrayBuffer()).equals(big)).toBe(true);

    const set = await htmls(['share-set', share.id, '--password', 'guest-pass', '--expires', '2d', '--json'], m.env);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ has_password: true });
    expect(Date.parse(JSON.parse(set.stdout).expires_at) - Date.now()).toBeLessThan(2 * 86400_000 + 60_000);
    expect((await fetch(`${share.link}/holiday/b.txt`)).status).toBe(401);
    expect((await fetch(share.link)).status).toBe(401);
    const list = await htmls(['shares'], m.env);
    expect(list.stdout).toContain(share.id);
    const off = await htmls(['share-set', share.id, '--offline'], m.env);
    expect(off.stdout).toMatch(/offline/);
    expect((await htmls(['share-rm', share.id], m.env)).code).toBe(0);
    expect((await fetch(`${share.link}/holiday/b.txt`)).status).toBe(404);
  });

  it('resumes an upload after the CLI is killed mid-way, sending only the missing parts', { timeout: 180_000 }, async () => {
    const m = await newMember();
    const size = await partSize(m.env);
    const dir = path.join(tempDir('htmls-cli-resume-'), 'big');
    mkdirSync(dir);
    const data = randomBytes(2 * size + 777);
    writeFileSync(path.join(dir, 'movie.bin'), data);
    const token = await newTokenOf(m.env);
    // The CLI SIGKILLs itself right after the store confirmed its first part.
    const killed = await htmls(['share', dir], { ...m.env, HTMLS_CRASH_AFTER_PARTS: '1' });
    expect(killed.code).toBeNull();
    const stateDir = path.join(m.env.HTMLS_CONFIG_DIR, 'uploads');
    const states = readdirSync(stateDir);
    expect(states).toHaveLength(1);
    const groupId = JSON.parse(readFileSync(path.join(stateDir, states[0]), 'utf8')).groupId;
    const before = await call('POST', '/api/shares/upload/status', { token, body: { groupId } });
    expect(before.json.files[0].parts.length).toBeGreaterThanOrEqual(1);
    const second = await htmls(['share', dir, '--json'], m.env);
    expect(second.code, second.stderr).toBe(0);
    const storedBefore = before.json.files[0].parts.length;
    expect(second.stderr).toMatch(new RegExp(`resuming: ${storedBefore} of 3 parts already uploaded`));
    const share = JSON.parse(second.stdout);
    // Only the parts the store lacked went over the wire again.
    expect(share.upload).toEqual({ parts_total: 3, parts_resumed: storedBefore, parts_sent: 3 - storedBefore });
    expect(readdirSync(stateDir)).toHaveLength(0);
    expect(share.id).toBe(groupId);
    const got = await fetch(`${share.link}/big/movie.bin`);
    expect(Buffer.from(await got.arrayBuffer()).equals(data)).toBe(true);
    expect((await call('GET', '/api/auth/me', { token })).json.user.used_bytes).toBe(data.length);
  });

  it('htmls deploy — leaves .git/, .env*, node_modules/ home unless --include-dotfiles; deploys a .zip', async () => {
    const env = { HTMLS_CONFIG_DIR: tempDir('htmls-cli-dot-'), HTMLS_ADMIN_TOKEN: inject('adminToken') };
    expect((await htmls(['login', '--url', inject('baseUrl'), '--admin'], env)).code).toBe(0);
    const site = path.join(tempDir('htmls-cli-wc-'), 'working-copy');
    for (const dir of ['.git', 'node_modules/lib', 'css']) mkdirSync(path.join(site, dir), { recursive: true });
    writeFileSync(path.join(site, 'index.html'), '<h1>wc</h1>');
    writeFileSync(path.join(site, 'css/app.css'), 'h1{}');
    writeFileSync(path.join(site, '.git/config'), '[remote "origin"] url = https://ghp_secret@github.example/x');
    writeFileSync(path.join(site, '.env'), 'API_KEY=secret');
    writeFileSync(path.join(site, '.env.production'), 'API_KEY=secret');
    writeFileSync(path.join(site, 'node_modules/lib/index.js'), 'x');
    const slug = `cli-dot-${randomBytes(3).toString('hex')}`;
    const d = await htmls(['deploy', site, '--slug', slug, '--json'], env);
    expect(d.code, d.stderr).toBe(0);
    expect(JSON.parse(d.stdout).files.map((f: { path: string }) => f.path).sort()).toEqual(['css/app.css', 'index.html']);
    const all = await htmls(['deploy', site, '--slug', slug, '--replace', '--include-dotfiles', '--json'], env);
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout).files.map((f: { path: string }) => f.path)).toContain('.git/config');

    const zipFile = path.join(tempDir('htmls-cli-zip-'), 'site.zip');
    writeFileSync(zipFile, makeZip([{ name: 'site/index.html', data: '<h1>zipped</h1>' }]));
    const z = await htmls(['deploy', zipFile, '--slug', `${slug}-z`, '--spa', '--json'], env);
    expect(z.code, z.stderr).toBe(0);
    expect(JSON.parse(z.stdout)).toMatchObject({ spa: true, files: [{ path: 'index.html' }] });
  });

  it('deploys a site as the administrator, and deletes a member account', async () => {
    const env = { HTMLS_CONFIG_DIR: tempDir('htmls-cli-admin-'), HTMLS_ADMIN_TOKEN: inject('adminToken') };
    expect((await htmls(['login', '--url', inject('baseUrl'), '--admin'], env)).code).toBe(0);
    const site = path.join(tempDir('htmls-cli-site-'), 'site');
    mkdirSync(site);
    writeFileSync(path.join(site, 'index.html'), '<h1>Deployed by the CLI</h1>');
    const slug = `cli-${randomBytes(3).toString('hex')}`;
    const d = await htmls(['deploy', site, '--slug', slug, '--note', 'cli site', '--json'], env);
    expect(d.code, d.stderr).toBe(0);
    expect(JSON.parse(d.stdout)).toMatchObject({ slug, file_count: 1 });
    const page = await fetch(`${inject('baseUrl')}/p/${slug}/`);
    expect(await page.text()).toContain('Deployed by the CLI');
    const again = await htmls(['deploy', site, '--slug', slug], env);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/--append/);

    const m = await newMember();
    const del = await htmls(['account', 'delete', '--yes'], m.env);
    expect(del.code, del.stderr).toBe(0);
    const relogin = await htmls(['login', '--url', inject('baseUrl'), '--username', m.username], m.env);
    expect(relogin.code).not.toBe(0);
    const after = await htmls(['me'], m.env);
    expect(after.code).toBe(3);
    expect(after.stderr).toMatch(/Not signed in/);
  });

  it('prints a link for people, and explains refusals with distinct exit codes', async () => {
    const m = await newMember(1024);
    const dir = tempDir('htmls-cli-small-');
    writeFileSync(path.join(dir, 'note.txt'), 'hello from the CLI');
    const r = await htmls(['share', path.join(dir, 'note.txt')], m.env);
    expect(r.code, r.stderr).toBe(0);
    const link = r.stdout.trim().split('\n')[0];
    expect(link).toMatch(new RegExp(`^${inject('baseUrl')}/f/[^/]+$`));
    expect(await (await fetch(`${link}/note.txt`)).text()).toBe('hello from the CLI');

    writeFileSync(path.join(dir, 'big.bin'), randomBytes(4096));
    const over = await htmls(['share', path.join(dir, 'big.bin'), '--json'], m.env);
    expect(over.code).toBe(1);
    expect(JSON.parse(over.stdout)).toMatchObject({ code: 'quota_exceeded' });
    expect((await htmls(['share', path.join(dir, 'big.bin')], m.env)).stderr).toMatch(/quota/i);

    const usage = await htmls(['shares', '--bogus'], m.env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/bogus/);

    // A session the server has revoked: the CLI says to log in again, exit code 3.
    const saved = readFileSync(path.join(m.env.HTMLS_CONFIG_DIR, 'credentials.json'));
    expect((await htmls(['logout'], m.env)).code).toBe(0);
    writeFileSync(path.join(m.env.HTMLS_CONFIG_DIR, 'credentials.json'), saved, { mode: 0o600 });
    const stale = await htmls(['me'], m.env);
    expect(stale.code).toBe(3);
    expect(stale.stderr).toMatch(/htmls login/);
  });

  it('SDK: a part whose connection drops mid-way is sent again, progress rolls back, the bytes arrive intact', async (ctx) => {
    const m = await newMember();
    const token = await newTokenOf(m.env);
    const caps = (await call('GET', '/api/shares/upload/capabilities', { token })).json;
    // In direct mode the bytes go to the bucket, not through this relay.
    if (caps.mode !== 'proxy') return ctx.skip();
    const base = new URL(inject('baseUrl'));
    const relay = await tcpProxy({ host: base.hostname, port: Number(base.port) });
    try {
      const dir = tempDir('htmls-sdk-retry-');
      const data = randomBytes(caps.partSize + 100);
      writeFileSync(path.join(dir, 'clip.bin'), data);
      const client = new HtmlsClient({ baseUrl: `http://127.0.0.1:${relay.port}`, token });
      let cut = false;
      let last = 0;
      let rolledBack = false;
      const share = await client.uploadShare([path.join(dir, 'clip.bin')], {
        stateDir: tempDir('htmls-sdk-state-'),
        backoffMs: () => 300,
        onProgress: (p) => {
          if (p.loaded < last) rolledBack = true;
          last = p.loaded;
          expect(p.loaded).toBeLessThanOrEqual(p.total);
          if (!cut && p.loaded > 8 * 1024 * 1024) {
            cut = true;
            void relay.cut().then(() => relay.restore());
          }
        },
      });
      expect(cut).toBe(true);
      expect(rolledBack).toBe(true);
      expect(last).toBe(data.length);
      const got = await fetch(`${inject('baseUrl')}${share.url}/clip.bin`);
      expect(Buffer.from(await got.arrayBuffer()).equals(data)).toBe(true);
    } finally {
      await relay.close();
    }
  });
});
