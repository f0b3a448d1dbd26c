/**
 * Issue 39, item 6 and the review's informational findings on sign-in and tokens: an
 * administrator's password reset ends the member's access tokens; a `sites:deploy:<slug>` token
 * cannot set a project's password or dotfiles through upload fields; a logged-out Bearer is no
 * failed login; a disabled account's password cannot be probed.
 */
import { describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { adminSession, call, randomIp } from './support/http';
import { createMember } from './support/members';
import { TEST_ADMIN_TOKEN } from './support/server';
import { makeToken } from './support/tokens';

useFileServer();

describe('an administrator resets a member’s password (issue 39, item 6)', () => {
  it('the member’s access tokens end with their sessions; other edits keep them', async () => {
    const m = await createMember();
    const secret = await makeToken(m.token, ['shares:read']);
    expect((await call('GET', '/api/shares', { token: secret })).status).toBe(200);
    expect((await call('PATCH', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN, body: { quota_bytes: 2 * 1024 ** 3 } })).status).toBe(200);
    expect((await call('GET', '/api/shares', { token: secret })).status).toBe(200);
    expect((await call('PATCH', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN, body: { password: 'reset by the admin' } })).status).toBe(200);
    const after = await call('GET', '/api/shares', { token: secret });
    expect([after.status, after.json.code]).toEqual([401, 'unauthenticated']);
    expect((await call('GET', '/api/auth/me', { token: m.token })).status).toBe(401);
    const login = await call('POST', '/api/auth/login', { body: { username: m.username, password: 'reset by the admin' } });
    expect(login.status).toBe(200);
    expect((await call('GET', '/api/tokens', { token: login.json.token })).json.tokens).toEqual([]);
  });
});

describe('a deploy token and the project’s settings (issue 39, info)', () => {
  it('a sites:deploy:<slug> token deploys, but setting the password or dotfiles in the upload needs admin, as PATCH does', async () => {
    const admin = (await adminSession()).token;
    const slug = `s39-${Date.now().toString(36)}`;
    const deployOnly = await makeToken(admin, [`sites:deploy:${slug}`]);
    const full = await makeToken(admin, ['admin']);
    const deploy = (token: string, extra: Record<string, string> = {}) => {
      const form = new FormData();
      form.append('slug', slug);
      form.append('replace', 'true');
      for (const [k, v] of Object.entries(extra)) form.append(k, v);
      form.append('file', new Blob(['<h1>hi</h1>']), 'index.html');
      return call('POST', '/api/upload', { token, raw: form });
    };
    expect((await deploy(deployOnly)).status).toBe(201);
    const settings: Record<string, string>[] = [{ password: 'set by a deploy token' }, { dotfiles: 'true' }, { dotfiles: 'false' }];
    for (const extra of settings) {
      const r = await deploy(deployOnly, extra);
      expect([extra, r.status, r.json.code, r.json.scope]).toEqual([extra, 403, 'insufficient_scope', 'admin']);
    }
    const project = await call('GET', `/api/projects/${slug}`, { token: admin });
    expect(project.json.project).toMatchObject({ has_password: false });
    expect((await call('PATCH', `/api/projects/${slug}`, { token: deployOnly, body: { password: 'x'.repeat(8) } })).status).toBe(403);
    expect((await deploy(full, { password: 'set by an admin token', dotfiles: 'false' })).status).toBe(201);
  });
});

describe('sign-in probes (issue 39, info)', () => {
  it('a logged-out session sent as Bearer is refused without counting as a failed login', async () => {
    const m = await createMember();
    const ip = randomIp();
    expect((await call('POST', '/api/auth/logout', { token: m.token, ip })).status).toBe(200);
    for (let i = 0; i < 12; i++) {
      const r = await call('GET', '/api/auth/me', { token: m.token, ip });
      expect([i, r.status]).toEqual([i, 401]);
    }
    expect((await call('POST', '/api/auth/login', { ip, body: { username: m.username, password: m.password } })).status).toBe(200);
  });

  it('a disabled account answers its right password as a wrong one: its password cannot be probed', async () => {
    const m = await createMember();
    expect((await call('PATCH', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN, body: { status: 'disabled' } })).status).toBe(200);
    const right = await call('POST', '/api/auth/login', { body: { username: m.username, password: m.password } });
    const wrong = await call('POST', '/api/auth/login', { body: { username: m.username, password: 'not the password' } });
    expect([right.status, right.json]).toEqual([wrong.status, wrong.json]);
    expect(right.status).toBe(401);
  });
});
