import { describe, expect, it } from 'vitest';
import { call } from './support/http';
import { useFileServer } from './support/file-server';
import { siteForm, uploadSite } from './support/hosting';
import { createMember } from './support/members';
import { TEST_ADMIN_TOKEN } from './support/server';
import { uploadShare } from './support/shares';
import { makeToken } from './support/tokens';

useFileServer({ JANITOR_INTERVAL_SECONDS: '1' });

const audit = (q = '', token = TEST_ADMIN_TOKEN) => call('GET', `/api/audit${q}`, { token });

describe('GET /api/audit', () => {
  it('records Admin Token logins, user changes, settings, deploys and rollbacks with who, what and when; filters by action and actor', async () => {
    expect((await call('POST', '/api/auth/login', { body: { token: TEST_ADMIN_TOKEN }, headers: { 'X-Forwarded-For': '198.51.100.7' } })).status).toBe(200);
    const m = await createMember();
    expect((await call('PATCH', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN, body: { quota_bytes: 2 * 1024 ** 3 } })).status).toBe(200);
    const settings = (await call('GET', '/api/settings', { token: TEST_ADMIN_TOKEN })).json;
    expect((await call('PATCH', '/api/settings', { token: TEST_ADMIN_TOKEN, body: settings })).status).toBe(200);
    expect((await uploadSite({ 'index.html': '<p>1</p>' }, { slug: 'audited' })).status).toBe(201);
    expect((await uploadSite({ 'index.html': '<p>2</p>' }, { slug: 'audited', replace: 'true' })).status).toBe(201);
    const deploys = (await call('GET', '/api/projects/audited/deploys', { token: TEST_ADMIN_TOKEN })).json.deploys as { id: string }[];
    const older = deploys.at(-1)!.id;
    expect((await call('POST', `/api/projects/audited/deploys/${older}/activate`, { token: TEST_ADMIN_TOKEN })).status).toBe(200);
    // A refused change is not an action.
    expect((await call('PATCH', '/api/users/00000000-0000-0000-0000-000000000000', { token: TEST_ADMIN_TOKEN, body: { quota_bytes: 1 } })).status).toBe(404);

    const all = await audit();
    expect(all.status).toBe(200);
    const seen = (all.json.entries as { action: string; target: string; actor: string }[]).map((e) => `${e.action} ${e.target}`).reverse();
    expect(seen).toEqual([
      'admin.login ',
      `user.created ${m.username}`,
      `user.updated ${m.username}`,
      'settings.updated ',
      'site.deployed audited',
      'site.deployed audited',
      `site.rolled_back audited @ ${older}`,
    ]);
    expect(all.json.entries.every((e: { actor: string }) => e.actor === 'Admin Token')).toBe(true);
    expect(all.json.entries.at(-1).address).toBe('198.51.100.7');

    const deployed = await audit('?action=site.deployed');
    expect(deployed.json.entries).toHaveLength(2);
    expect((await audit('?actor=nobody-like-this')).json.entries).toEqual([]);
    const paged = await audit('?limit=3');
    expect(paged.json.entries).toHaveLength(3);
    const rest = await audit(`?limit=10&cursor=${encodeURIComponent(paged.json.next_cursor)}`);
    expect(rest.json.entries).toHaveLength(4);
    expect((await audit('?action=nope')).status).toBe(400);
  });

  it('names who acted and on what: a deploy token by its name and prefix, users by username, hosted files by project and path', async () => {
    const session = (await call('POST', '/api/auth/login', { body: { token: TEST_ADMIN_TOKEN } })).json.token as string;
    const secret = await makeToken(session, ['sites:deploy:audited-ci'], { name: 'github actions' });
    const up = await call('POST', '/api/upload', { token: secret, raw: siteForm({ 'index.html': '<p>ci</p>', 'gone.txt': 'x' }, { slug: 'audited-ci' }) });
    expect(up.status).toBe(201);
    const deployed = (await audit('?action=site.deployed')).json.entries[0];
    expect(deployed).toMatchObject({ target: 'audited-ci', actor: `token "github actions" (${secret.slice(0, 14)}…)` });

    const m = await createMember();
    expect((await call('PATCH', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN, body: { quota_bytes: 5 * 1024 ** 3 } })).status).toBe(200);
    expect((await call('DELETE', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN })).status).toBe(204);
    expect((await audit('?action=user.updated')).json.entries[0].target).toBe(m.username);
    expect((await audit('?action=user.deleted')).json.entries[0].target).toBe(m.username);

    const gone = (up.json.project.files as { id: string; path: string }[]).find((f) => f.path === 'gone.txt')!;
    expect((await call('PATCH', '/api/status', { token: TEST_ADMIN_TOKEN, body: { id: gone.id, status: 'offline' } })).status).toBe(200);
    expect((await call('DELETE', `/api/files/${gone.id}`, { token: TEST_ADMIN_TOKEN })).status).toBe(204);
    expect((await audit('?action=file.status')).json.entries[0].target).toBe('audited-ci/gone.txt');
    expect((await audit('?action=file.deleted')).json.entries[0].target).toBe('audited-ci/gone.txt');
  });

  it('answers 401 without credentials and 403 to a member', async () => {
    const m = await createMember();
    expect((await call('GET', '/api/audit')).status).toBe(401);
    expect((await audit('', m.token)).status).toBe(403);
    expect((await call('GET', '/api/storage/history', { token: m.token })).status).toBe(403);
  });
});

describe('GET /api/storage/history', () => {
  it("gives each member's stored bytes per day, recorded by the janitor", async () => {
    const m = await createMember();
    await uploadShare(m.token, { 'a.bin': Buffer.alloc(3000, 1) });
    const mine = async () => {
      const h = (await call('GET', '/api/storage/history?days=7', { token: TEST_ADMIN_TOKEN })).json;
      return h.members.find((x: { user_id: string }) => x.user_id === m.id)?.bytes.at(-1) ?? null;
    };
    await expect.poll(mine, { timeout: 30_000 }).toBe(3000);
    const h = (await call('GET', '/api/storage/history?days=7', { token: TEST_ADMIN_TOKEN })).json;
    expect(h.days).toHaveLength(7);
    expect(h.days.at(-1)).toBe(new Date().toISOString().slice(0, 10));
  });
});
