import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HtmlsClient } from '../lib/client/node/sdk';
import { baseUrl, hostedUrl, useFileServer } from './support/file-server';
import { call, callAs } from './support/http';
import { ROOT, tempDir, TEST_ADMIN_TOKEN } from './support/server';
import { tcpProxy } from './support/tcp-proxy';
import { expireShare, uploadShare } from './support/shares';
import { htmls, startCli } from './support/cli';
import { writeTree } from './support/write-tree';
import { makeZip } from './support/zip';

// Parts of 5 MiB (the smallest PROXY_PART_SIZE), not 48: the multi-part cases below (a resume
// after a kill, a dropped connection, a link to a multi-part file) are about how parts are sent,
// and move 3–4 parts each, which at 48 MiB was 300 MiB up and 200 MiB down, most of this file's time.
useFileServer({ PROXY_PART_SIZE: String(5 * 1024 * 1024) });


/**
 * A member signed in for the CLI. `viaCli` runs `htmls login`; otherwise the session is taken
 * from its own address and written as the CLI's file store does (every CLI login comes from
 * 127.0.0.1, and the login limit allows 10 per 5 minutes per address).
 */
async function newMember(quota = 2 * 1024 ** 3, { viaCli = false } = {}) {
  const username = `cli${randomBytes(4).toString('hex')}`;
  const password = `pw-${randomBytes(6).toString('hex')}`;
  const r = await call('POST', '/api/users', { token: TEST_ADMIN_TOKEN, body: { username, password, quota_bytes: quota } });
  expect(r.status).toBe(201);
  const env = { HTMLS_CONFIG_DIR: tempDir('htmls-cli-'), HTMLS_PASSWORD: password };
  if (viaCli) {
    const login = await htmls(['login', '--url', baseUrl(), '--username', username], env);
    expect(login.code, login.stderr).toBe(0);
  } else {
    const login = await call('POST', '/api/auth/login', { body: { username, password } });
    expect(login.status).toBe(200);
    seedCredentials(env, { role: 'member', username, token: login.json.token });
  }
  return { username, password, env };
}

function seedCredentials(env: Record<string, string>, c: { role: string; username: string | null; token: string }) {
  writeFileSync(path.join(env.HTMLS_CONFIG_DIR, 'credentials.json'), JSON.stringify({ url: baseUrl(), store: 'file', ...c }), { mode: 0o600 });
}

async function newAdmin() {
  const env = { HTMLS_CONFIG_DIR: tempDir('htmls-cli-admin-') };
  const login = await call('POST', '/api/auth/login', { body: { token: TEST_ADMIN_TOKEN } });
  expect(login.status).toBe(200);
  seedCredentials(env, { role: 'admin', username: null, token: login.json.token });
  return env;
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
    const m = await newMember(undefined, { viaCli: true });
    const file = path.join(m.env.HTMLS_CONFIG_DIR, 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const me = await htmls(['me', '--json'], m.env);
    expect(me.code).toBe(0);
    expect(JSON.parse(me.stdout)).toMatchObject({ role: 'member', user: { username: m.username } });
    const bad = await htmls(['login', '--url', baseUrl(), '--username', m.username], { ...m.env, HTMLS_PASSWORD: 'wrong password' });
    expect(bad.code).toBe(3);
    // It says the password was wrong, not "Not signed in: run htmls login" (the command just run).
    expect(bad.stderr.trim()).toBe(`htmls: Wrong username or password for ${baseUrl()}.`);
  });

  it('with no keyring on the machine, keeps the session in the 0600 file and says so', async () => {
    const username = `kr${randomBytes(4).toString('hex')}`;
    const password = `pw-${randomBytes(6).toString('hex')}`;
    expect((await call('POST', '/api/users', { token: TEST_ADMIN_TOKEN, body: { username, password, quota_bytes: 1024 } })).status).toBe(201);
    const dir = tempDir('htmls-cli-keyring-');
    // The keyring library is tried (no HTMLS_NO_KEYRING); this machine has no Secret Service.
    const env = { HTMLS_CONFIG_DIR: dir, HTMLS_PASSWORD: password, HTMLS_NO_KEYRING: '0' };
    const login = await htmls(['login', '--url', baseUrl(), '--username', username, '--json'], env);
    expect(login.code, login.stderr).toBe(0);
    const { stored_in } = JSON.parse(login.stdout);
    const file = path.join(dir, 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved).toMatchObject({ url: baseUrl(), username, store: stored_in });
    // The token is in the file exactly when no keyring took it.
    if (stored_in === 'file') expect(saved.token).toMatch(/.{20,}/);
    else expect(saved.token).toBeUndefined();
    expect((await htmls(['me'], env)).stdout).toContain(username);
    expect((await htmls(['logout'], env)).code).toBe(0);
    expect(() => statSync(file)).toThrow();
    expect((await htmls(['me'], env)).code).toBe(3);
  });

  it('prints --help for each command from its declaration, and usage errors exit 2', async () => {
    const env = { HTMLS_CONFIG_DIR: tempDir('htmls-cli-help-') };
    const all = await htmls(['--help'], env);
    expect(all.code).toBe(0);
    for (const c of ['login', 'logout', 'me', 'share', 'shares', 'share-set', 'share-rm', 'deploy', 'account']) expect(all.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    const deploy = await htmls(['deploy', '--help'], env);
    expect(deploy.code).toBe(0);
    expect(deploy.stdout).toMatch(/^htmls deploy <folder or site\.zip> \[options\]/);
    expect(deploy.stdout).toMatch(/--include-dotfiles +Also send \.git\//);
    expect(deploy.stdout).toMatch(/--slug NAME/);
    expect((await htmls(['help', 'share-set'], env)).stdout).toMatch(/--no-expiry/);
    const unknown = await htmls(['sahre'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown command "sahre"/);
  });

  it('the hidden password prompt: typed text never shows; Ctrl-C cancels (exit 130) and gives the terminal back', async () => {
    const home = tempDir('htmls-cli-tty-');
    const cli = path.join(ROOT, 'bin/htmls.mjs');
    /** Runs the login in a real terminal (script(1) makes a pty); stty reports its state before and after. */
    const inTerminal = async (keys: string) => {
      const mode = `stty -a | grep -o -- '-\\?echo ' | head -1; stty -a | grep -o -- '-\\?icanon' | head -1`;
      const shell = `${mode}; "${process.execPath}" "${cli}" login --url ${baseUrl()} --username nobody-${randomBytes(3).toString('hex')}; echo "exit=$?"; ${mode}`;
      const term = spawn('script', ['-qfec', shell, '/dev/null'], {
        env: { PATH: process.env.PATH, HOME: home, HTMLS_CONFIG_DIR: home, HTMLS_NO_KEYRING: '1', TERM: 'xterm' } as unknown as NodeJS.ProcessEnv,
      });
      let screen = '';
      term.stdout.on('data', (d) => (screen += d));
      const exited = new Promise((r) => term.on('exit', r));
      await expect.poll(() => screen, { timeout: 30_000, interval: 50 }).toMatch(/Password/);
      term.stdin.write(keys);
      await exited;
      const text = screen.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
      const [before, after] = text.split(/exit=\d+/);
      return { screen, text, code: Number(/exit=(\d+)/.exec(text)?.[1]), before, after };
    };

    const typed = await inTerminal('typed-secret-pw\r');
    expect(typed.code).toBe(3);
    expect(typed.text).toMatch(/Wrong username or password/);
    expect(typed.text).not.toContain('typed-secret-pw');

    const cancelled = await inTerminal('half-typed\u0003');
    expect(cancelled.code).toBe(130);
    expect(cancelled.text).not.toContain('half-typed');
    // Echo and line mode are on again as they were before, and the cursor is shown again.
    expect(cancelled.before).toMatch(/(^|\s)echo\s[\s\S]*(^|\s)icanon/);
    expect(cancelled.after).toMatch(/(^|\s)echo\s[\s\S]*(^|\s)icanon/);
    expect(cancelled.after).not.toMatch(/-echo|-icanon/);
    expect(cancelled.screen.lastIndexOf('\u001b[?25h')).toBeGreaterThan(cancelled.screen.lastIndexOf('\u001b[?25l'));
  });

  it('htmls share leaves .git/, .env*, node_modules/ home and says so, unless --include-dotfiles', async () => {
    const m = await newMember();
    const dir = path.join(tempDir('htmls-cli-share-dot-'), 'project');
    writeTree(dir, {
      'docs/readme.txt': 'read me',
      '.git/config': '[remote "origin"] url = https://ghp_secret@github.example/x',
      '.env.local': 'API_KEY=secret',
      'node_modules/x/index.js': 'x',
      '.editorconfig': 'root = true',
    });
    const r = await htmls(['share', dir, '--json'], m.env);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).items.map((i: { relative_path: string }) => i.relative_path).sort()).toEqual(['project/.editorconfig', 'project/docs/readme.txt']);
    expect(r.stderr).toMatch(/Left out 3 private paths \(project\/\.env\.local, project\/\.git, project\/node_modules\): add --include-dotfiles/);
    const all = await htmls(['share', dir, '--include-dotfiles', '--json'], m.env);
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout).items.map((i: { relative_path: string }) => i.relative_path)).toEqual(
      expect.arrayContaining(['project/.git/config', 'project/.env.local', 'project/node_modules/x/index.js']),
    );
    expect(all.stderr).not.toMatch(/Left out/);
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

    const set = await htmls(['share-set', share.id, '--password', '--expires', '2d', '--json'], { ...m.env, HTMLS_GUEST_PASSWORD: 'guest-pass' });
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ has_password: true });
    expect(Date.parse(JSON.parse(set.stdout).expires_at) - Date.now()).toBeLessThan(2 * 86400_000 + 60_000);
    expect((await fetch(`${share.link}/holiday/b.txt`)).status).toBe(401);
    expect((await fetch(share.link)).status).toBe(401);
    // The password came from HTMLS_GUEST_PASSWORD, not from an argument.
    expect((await call('POST', `/f/${share.id}/unlock`, { body: { password: 'guest-pass' } })).status).toBe(200);
    const list = await htmls(['shares'], m.env);
    expect(list.stdout).toContain(share.id);
    const off = await htmls(['share-set', share.id, '--offline'], m.env);
    expect(off.stdout).toMatch(/offline/);
    expect((await htmls(['share-rm', share.id], m.env)).code).toBe(0);
    expect((await fetch(`${share.link}/holiday/b.txt`)).status).toBe(404);
  });

  it('htmls shares: the newest 50 and a note that more exist; --all pages through every one; --search asks the server', { timeout: 300_000 }, async () => {
    const m = await newMember();
    const { token } = JSON.parse(readFileSync(path.join(m.env.HTMLS_CONFIG_DIR, 'credentials.json'), 'utf8'));
    // One request each (PUT /api/shares/file/<name>, not init, part and complete): the listing is
    // what this case is about, not how the shares were made.
    for (let i = 0; i < 51; i++) expect((await call('PUT', `/api/shares/file/a.txt?note=${encodeURIComponent(`batch ${i}`)}`, { token, raw: 'a' })).status).toBe(201);
    const first = await htmls(['shares'], m.env);
    expect(first.code, first.stderr).toBe(0);
    const lines = first.stdout.trim().split('\n');
    expect(lines.filter((l) => l.includes('/f/'))).toHaveLength(50);
    expect(lines[0]).toContain('batch 50');
    expect(lines.at(-1)).toMatch(/More shares exist: htmls shares --all/);
    const all = await htmls(['shares', '--all', '--json'], m.env);
    expect((JSON.parse(all.stdout) as { note: string }[]).map((s) => s.note)).toEqual(Array.from({ length: 51 }, (_, i) => `batch ${50 - i}`));
    const found = await htmls(['shares', '--search', 'BATCH 7', '--json'], m.env);
    expect((JSON.parse(found.stdout) as { note: string }[]).map((s) => s.note)).toEqual(['batch 7']);
    expect((await htmls(['shares', '--search', 'nothing like it'], m.env)).stdout).toMatch(/No shares match/);
  });

  it('resumes an upload after the CLI is killed mid-way, sending only the missing parts', { timeout: 180_000 }, async () => {
    const m = await newMember();
    const size = await partSize(m.env);
    const dir = path.join(tempDir('htmls-cli-resume-'), 'big');
    mkdirSync(dir);
    // Three full parts and a small one: when the first part is stored, others are still on the way.
    const data = randomBytes(3 * size + 777);
    writeFileSync(path.join(dir, 'movie.bin'), data);
    const token = await newTokenOf(m.env);
    const stateDir = path.join(m.env.HTMLS_CONFIG_DIR, 'uploads');
    const storedInState = () => {
      try {
        const [file] = readdirSync(stateDir).filter((f) => f.endsWith('.json'));
        return file ? ((JSON.parse(readFileSync(path.join(stateDir, file), 'utf8')).stored ?? []) as string[]).length : 0;
      } catch {
        return 0;
      }
    };
    // Killed from outside, the hard way (as a laptop dies), once its state file shows a stored part.
    const cli = startCli(['share', dir], m.env);
    await expect.poll(storedInState, { timeout: 120_000, interval: 10 }).toBeGreaterThanOrEqual(1);
    cli.proc.kill('SIGKILL');
    const killed = await cli.done;
    expect(killed.signal).toBe('SIGKILL');
    const states = readdirSync(stateDir).filter((f) => f.endsWith('.json'));
    expect(states).toHaveLength(1);
    const groupId = JSON.parse(readFileSync(path.join(stateDir, states[0]), 'utf8')).groupId;
    const before = await call('POST', '/api/shares/upload/status', { token, body: { groupId } });
    expect(before.json.files[0].parts.length).toBeGreaterThanOrEqual(1);
    const second = await htmls(['share', dir, '--json'], m.env);
    expect(second.code, second.stderr).toBe(0);
    const storedBefore = before.json.files[0].parts.length;
    expect(storedBefore).toBeLessThan(4);
    // The part in flight at the kill may still be stored after that reading: its whole body can
    // be in the socket's buffers (a 5 MiB part easily is). The resume asks the server again, so
    // it finds at least as many, and never all four.
    expect(second.stderr).toMatch(/resuming: \d of 4 parts already uploaded/);
    const resumed = Number(/resuming: (\d) of 4 parts already uploaded/.exec(second.stderr)?.[1]);
    expect(resumed).toBeGreaterThanOrEqual(storedBefore);
    expect(resumed).toBeLessThan(4);
    const share = JSON.parse(second.stdout);
    // Only the parts the store lacked went over the wire again.
    expect(share.upload).toEqual({ parts_total: 4, parts_resumed: resumed, parts_sent: 4 - resumed });
    expect(readdirSync(stateDir).filter((f) => f.endsWith('.json'))).toHaveLength(0);
    expect(share.id).toBe(groupId);
    const got = await fetch(`${share.link}/big/movie.bin`);
    expect(Buffer.from(await got.arrayBuffer()).equals(data)).toBe(true);
    expect((await call('GET', '/api/auth/me', { token })).json.user.used_bytes).toBe(data.length);
  });

  it('htmls deploy — leaves .git/, .env*, node_modules/ home unless --include-dotfiles; deploys a .zip', async () => {
    const env = { HTMLS_CONFIG_DIR: tempDir('htmls-cli-dot-'), HTMLS_ADMIN_TOKEN: TEST_ADMIN_TOKEN };
    expect((await htmls(['login', '--url', baseUrl(), '--admin'], env)).code).toBe(0);
    const site = path.join(tempDir('htmls-cli-wc-'), 'working-copy');
    writeTree(site, {
      'index.html': '<h1>wc</h1>',
      'css/app.css': 'h1{}',
      '.git/config': '[remote "origin"] url = https://ghp_secret@github.example/x',
      '.env': 'API_KEY=secret',
      '.env.production': 'API_KEY=secret',
      'node_modules/lib/index.js': 'x',
    });
    const slug = `cli-dot-${randomBytes(3).toString('hex')}`;
    const d = await htmls(['deploy', site, '--slug', slug, '--json'], env);
    expect(d.code, d.stderr).toBe(0);
    expect(JSON.parse(d.stdout).files.map((f: { path: string }) => f.path).sort()).toEqual(['css/app.css', 'index.html']);
    expect(d.stderr).toMatch(/Left out 4 private paths .*--include-dotfiles/);
    expect((await fetch(`${hostedUrl()}/p/${slug}/.git/config`)).status).toBe(404);
    const all = await htmls(['deploy', site, '--slug', slug, '--replace', '--include-dotfiles', '--json'], env);
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout).files.map((f: { path: string }) => f.path)).toContain('.git/config');

    const zipFile = path.join(tempDir('htmls-cli-zip-'), 'site.zip');
    writeFileSync(
      zipFile,
      makeZip([
        { name: 'site/index.html', data: '<h1>zipped</h1><script type="module" src="/assets/app.js"></script>' },
        { name: 'site/assets/app.js', data: 'history.pushState(null, "", "/about")' },
        { name: 'site/.env', data: 'API_KEY=secret' },
      ]),
    );
    const z = await htmls(['deploy', zipFile, '--slug', `${slug}-z`, '--spa', '--json'], env);
    expect(z.code, z.stderr).toBe(0);
    expect(JSON.parse(z.stdout)).toMatchObject({ spa: true, files: [{ path: 'assets/app.js' }, { path: 'index.html' }] });
    // The server left the zip's .env out and says so on stderr.
    expect(z.stderr).toMatch(/Left out 1 private path \(site\/\.env\).*--include-dotfiles/);
    // Reached as 127.0.0.1, the server gives the project an origin of its own (<slug>.localhost),
    // where this router build runs as it is: nothing to warn of (a warning printed:
    // tests/hosting-origins.test.ts, the sandbox opt-out).
    expect(z.stderr).not.toMatch(/Warning:/);
    expect(JSON.parse(z.stdout).warnings).toEqual([]);
  });

  it('deploys a site as the administrator, and deletes a member account', async () => {
    const env = await newAdmin();
    const site = path.join(tempDir('htmls-cli-site-'), 'site');
    mkdirSync(site);
    writeFileSync(path.join(site, 'index.html'), '<h1>Deployed by the CLI</h1>');
    const slug = `cli-${randomBytes(3).toString('hex')}`;
    const d = await htmls(['deploy', site, '--slug', slug, '--note', 'cli site', '--json'], env);
    expect(d.code, d.stderr).toBe(0);
    expect(JSON.parse(d.stdout)).toMatchObject({ slug, file_count: 1 });
    // Live at the project's own origin (<slug>.localhost on the hosted port: browsers resolve
    // *.localhost to loopback, Node does not, so the request names the host itself).
    const hostedPort = new URL(hostedUrl()).port;
    const moved = await fetch(`${baseUrl()}/p/${slug}/`, { redirect: 'manual' });
    expect(moved.headers.get('location')).toBe(`http://${slug}.localhost:${hostedPort}/`);
    const page = await callAs(`${slug}.localhost:${hostedPort}`, 'GET', `${hostedUrl()}/`);
    expect(page.text).toContain('Deployed by the CLI');
    const again = await htmls(['deploy', site, '--slug', slug], env);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/--append/);

    const m = await newMember();
    const del = await htmls(['account', 'delete', '--yes'], m.env);
    expect(del.code, del.stderr).toBe(0);
    const relogin = await htmls(['login', '--url', baseUrl(), '--username', m.username], m.env);
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
    expect(link).toMatch(new RegExp(`^${baseUrl()}/f/[^/]+$`));
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

  it('says what went wrong for a person: a missing path, an expiry already past; --max-downloads and a generated password', async () => {
    const m = await newMember();
    const dir = tempDir('htmls-cli-human-');
    writeFileSync(path.join(dir, 'a.txt'), 'a');
    for (const args of [['share', path.join(dir, 'nope.txt')], ['deploy', path.join(dir, 'no-site')]]) {
      const r = await htmls(args, m.env);
      expect([r.code, r.stderr.trim()], args.join(' ')).toEqual([2, `htmls: No such file or folder: ${args[1]}`]);
      expect(r.stderr).not.toMatch(/ENOENT/);
    }
    const past = await htmls(['share', path.join(dir, 'a.txt'), '--expires', '2020-01-01T00:00:00Z'], m.env);
    expect(past.code).toBe(2);
    expect(past.stderr).toMatch(/The expiry "2020-01-01T00:00:00Z" has already passed/);
    const mistyped = await htmls(['share', path.join(dir, 'a.txt'), '--max-download', '1'], m.env);
    expect([mistyped.code, mistyped.stderr.split('\n')[0]]).toEqual([2, 'htmls: htmls share has no option --max-download (did you mean --max-downloads?).']);
    const argSecret = await htmls(['share', path.join(dir, 'a.txt'), '--password', 'hunter2'], m.env);
    expect(argSecret.code).toBe(2);
    expect(argSecret.stderr).toMatch(/--password takes no value/);
    const token = await newTokenOf(m.env);
    expect((await call('GET', '/api/shares', { token })).json.shares).toEqual([]);

    const r = await htmls(['share', path.join(dir, 'a.txt'), '--max-downloads', '1', '--generate-password'], m.env);
    expect(r.code, r.stderr).toBe(0);
    const [link, passwordLine] = r.stdout.trim().split('\n');
    const password = /^password: (\S{16})$/.exec(passwordLine)?.[1];
    expect(password).toBeDefined();
    const id = link.split('/f/')[1];
    const [share] = (await call('GET', '/api/shares', { token })).json.shares;
    expect(share).toMatchObject({ id, max_downloads: 1, has_password: true });
    expect((await call('POST', `/f/${id}/unlock`, { body: { password } })).status).toBe(200);
  });

  it('shares: a pending upload shows as pending, an expired share as expired; me counts the quota pending uploads hold', async () => {
    const m = await newMember(10 * 1024 ** 2);
    const token = await newTokenOf(m.env);
    const { share: done } = await uploadShare(token, { 'done.txt': Buffer.from('done') }, { expires_at: new Date(Date.now() + 86400_000).toISOString() });
    await expireShare(token, done.id);
    const { init } = await uploadShare(token, { 'half.bin': randomBytes(3 * 1024 ** 2) }, { noComplete: true });
    const pendingId = init.json.groupId;
    const list = await htmls(['shares'], m.env);
    expect(list.code, list.stderr).toBe(0);
    const line = (id: string) => list.stdout.split('\n').find((l) => l.startsWith(id))!;
    expect(line(pendingId)).toMatch(new RegExp(`^${pendingId} +pending +3\\.0 MB +upload not finished`));
    expect(line(pendingId)).not.toMatch(/offline|0 files/);
    expect(line(done.id)).toMatch(new RegExp(`^${done.id} +expired .* 1 file +expired \\d{4}-`));
    const me = await htmls(['me'], m.env);
    expect(me.stdout.trim()).toBe(`${m.username} (member) — 4 B of 10 MB used, 3.0 MB held by 1 unfinished upload (htmls shares lists them), 7.0 MB free`);
    expect(JSON.parse((await htmls(['me', '--json'], m.env)).stdout).pending_uploads).toEqual({ count: 1, held_bytes: 3 * 1024 ** 2 });
  });

  it('SDK: a part whose connection drops mid-way is sent again, progress rolls back, the bytes arrive intact', async (ctx) => {
    const m = await newMember();
    const token = await newTokenOf(m.env);
    const caps = (await call('GET', '/api/shares/upload/capabilities', { token })).json;
    // In direct mode the bytes go to the bucket, not through this relay.
    if (caps.mode !== 'proxy') return ctx.skip('direct mode: the parts go to the bucket, not through the relay');
    const base = new URL(baseUrl());
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
          // Half-way through the first part: the drop lands mid-part, whatever the part size.
          if (!cut && p.loaded > caps.partSize / 2) {
            cut = true;
            void relay.cut().then(() => relay.restore());
          }
        },
      });
      expect(cut).toBe(true);
      expect(rolledBack).toBe(true);
      expect(last).toBe(data.length);
      const got = await fetch(`${baseUrl()}${share.url}/clip.bin`);
      expect(Buffer.from(await got.arrayBuffer()).equals(data)).toBe(true);
    } finally {
      await relay.close();
    }
  });
});
