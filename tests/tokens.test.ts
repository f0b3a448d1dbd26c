import { describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { adminSession, call } from './support/http';
import { createMember, registerMember } from './support/members';
import { makeToken } from './support/tokens';
import { TEST_ADMIN_TOKEN } from './support/server';

useFileServer();

describe('/api/tokens', () => {
  it('POST /api/tokens — the secret (htmls_pat_…) is shown once; the list shows name, prefix, scopes, expiry and last use, never the secret', async () => {
    const m = await registerMember();
    const expires = new Date(Date.now() + 90 * 86400_000).toISOString();
    const made = await call('POST', '/api/tokens', { token: m.token, body: { name: 'laptop script', scopes: ['shares:read', 'account:read'], expires_at: expires } });
    expect(made.status).toBe(201);
    const { token, secret } = made.json;
    expect(secret).toMatch(/^htmls_pat_[A-Za-z0-9]{40}$/);
    expect(token).toMatchObject({ name: 'laptop script', prefix: secret.slice(0, 14), scopes: ['shares:read', 'account:read'], expires_at: expires, last_used_at: null });

    const me = await call('GET', '/api/auth/me', { token: secret, ip: '10.1.2.3' });
    expect(me.status).toBe(200);
    expect(me.json.user.id).toBe(m.id);
    const list = await call('GET', '/api/tokens', { token: m.token });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(secret);
    expect(list.json.next_cursor).toBeNull();
    expect(list.json.tokens).toEqual([expect.objectContaining({ id: token.id, prefix: secret.slice(0, 14), last_used_ip: '10.1.2.3', last_used_at: expect.any(String) })]);
  });

  it('GET /api/tokens — pages newest first with limit and cursor, and filters by name with q', async () => {
    const m = await registerMember();
    for (let i = 0; i < 5; i++) await makeToken(m.token, ['shares:read'], { name: `batch ${i}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; json: { tokens: { name: string }[]; next_cursor: string | null } } = await call('GET', `/api/tokens?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: m.token });
      expect(page.status).toBe(200);
      expect(page.json.tokens.length).toBeLessThanOrEqual(2);
      seen.push(...page.json.tokens.map((t) => t.name));
      cursor = page.json.next_cursor;
    } while (cursor);
    expect(seen).toEqual(['batch 4', 'batch 3', 'batch 2', 'batch 1', 'batch 0']);
    const q = await call('GET', '/api/tokens?q=batch%203', { token: m.token });
    expect(q.json.tokens.map((t: { name: string }) => t.name)).toEqual(['batch 3']);
    expect((await call('GET', '/api/tokens?cursor=nonsense', { token: m.token })).status).toBe(400);
  });

  it('a token never manages tokens, changes passwords, the Admin Token or deletes the account (403)', async () => {
    const m = await registerMember();
    const t = await makeToken(m.token, ['shares:read', 'shares:write', 'account:read']);
    expect((await call('GET', '/api/tokens', { token: t })).status).toBe(403);
    expect((await call('POST', '/api/tokens', { token: t, body: { name: 'x', scopes: ['shares:read'] } })).status).toBe(403);
    expect((await call('DELETE', '/api/auth/account', { token: t })).status).toBe(403);
    expect((await call('PATCH', '/api/auth/profile', { token: t, body: { display_name: 'x' } })).status).toBe(403);
    const admin = (await adminSession()).token;
    const a = await makeToken(admin, ['admin']);
    expect((await call('PATCH', '/api/auth/token', { token: a, body: { token: 'another-long-random-Admin-token-9f3k' } })).status).toBe(403);
    const pw = await call('PATCH', `/api/users/${m.id}`, { token: a, body: { password: 'a-new-password-123' } });
    expect([pw.status, pw.json.code]).toEqual([403, 'forbidden']);
    // The same token may change what is not a password.
    expect((await call('PATCH', `/api/users/${m.id}`, { token: a, body: { display_name: 'Renamed' } })).status).toBe(200);
    // And the account still exists.
    expect((await call('GET', '/api/auth/me', { token: m.token })).status).toBe(200);
  });

  it('POST /api/tokens — a member asking for admin or deploy scopes gets 403; an unknown scope or a past expiry is 400', async () => {
    const m = await registerMember();
    for (const scopes of [['admin'], ['sites:deploy'], ['sites:deploy:blog'], ['shares:read', 'admin']]) {
      const r = await call('POST', '/api/tokens', { token: m.token, body: { name: 'x', scopes } });
      expect([scopes, r.status, r.json.code]).toEqual([scopes, 403, 'forbidden']);
    }
    expect((await call('POST', '/api/tokens', { token: m.token, body: { name: 'x', scopes: ['root'] } })).status).toBe(400);
    expect((await call('POST', '/api/tokens', { token: m.token, body: { name: 'x', scopes: [] } })).status).toBe(400);
    const past = await call('POST', '/api/tokens', { token: m.token, body: { name: 'x', scopes: ['shares:read'], expires_at: '2020-01-01T00:00:00Z' } });
    expect(past.status).toBe(400);
  });

  it('DELETE /api/tokens/:id — stops the token at once; another member’s token is a 404', async () => {
    const m = await registerMember();
    const other = await registerMember();
    const secret = await makeToken(m.token, ['shares:read']);
    const id = (await call('GET', '/api/tokens', { token: m.token })).json.tokens[0].id;
    expect((await call('GET', '/api/shares', { token: secret })).status).toBe(200);
    expect((await call('DELETE', `/api/tokens/${id}`, { token: other.token })).status).toBe(404);
    expect((await call('DELETE', '/api/tokens/not-a-uuid', { token: m.token })).status).toBe(404);
    expect((await call('DELETE', `/api/tokens/${id}`, { token: m.token })).status).toBe(204);
    const after = await call('GET', '/api/shares', { token: secret });
    expect([after.status, after.json.code]).toEqual([401, 'unauthenticated']);
  });

  it('a token works on its owner’s shares only (another member’s share is a 404)', async () => {
    const m = await registerMember();
    const other = await registerMember();
    const put = await call('PUT', '/api/shares/file/theirs.txt', { token: other.token, raw: 'secret bytes', headers: { 'Content-Type': 'application/octet-stream' } });
    expect(put.status).toBe(201);
    const t = await makeToken(m.token, ['shares:read', 'shares:write']);
    expect((await call('DELETE', `/api/shares/${put.json.share.id}`, { token: t })).status).toBe(404);
    expect((await call('GET', '/api/shares', { token: t })).json.shares).toEqual([]);
  });
});

describe('a token’s rights follow its owner', () => {
  it('demoted: admin scopes stop at once, member scopes go on; promoted again: back', async () => {
    const admin = await createMember({ role: 'admin' });
    const t = await makeToken(admin.token, ['admin', 'shares:read']);
    expect((await call('GET', '/api/users', { token: t })).status).toBe(200);
    expect((await call('PATCH', `/api/users/${admin.id}`, { token: TEST_ADMIN_TOKEN, body: { role: 'member' } })).status).toBe(200);
    const demoted = await call('GET', '/api/users', { token: t });
    expect(demoted.status).toBe(403);
    expect((await call('GET', '/api/shares', { token: t })).status).toBe(200);
    expect((await call('PATCH', `/api/users/${admin.id}`, { token: TEST_ADMIN_TOKEN, body: { role: 'admin' } })).status).toBe(200);
    expect((await call('GET', '/api/users', { token: t })).status).toBe(200);
  });

  it('disabled owner: 401 at once; deleted owner: the token is gone', async () => {
    const m = await createMember();
    const t = await makeToken(m.token, ['shares:read']);
    expect((await call('PATCH', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN, body: { status: 'disabled' } })).status).toBe(200);
    expect((await call('GET', '/api/shares', { token: t })).status).toBe(401);
    expect((await call('PATCH', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN, body: { status: 'active' } })).status).toBe(200);
    expect((await call('GET', '/api/shares', { token: t })).status).toBe(200);
    expect((await call('DELETE', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN })).status).toBe(204);
    expect((await call('GET', '/api/shares', { token: t })).status).toBe(401);
  });

  it('expired: 401 once its expiry has passed', async () => {
    const m = await registerMember();
    const expiresAt = Date.now() + 3000;
    const t = await makeToken(m.token, ['shares:read'], { expires_at: new Date(expiresAt).toISOString() });
    const first = await call('GET', '/api/shares', { token: t });
    // Only while the expiry is surely ahead is a success owed (a loaded machine may be late).
    if (Date.now() < expiresAt - 500) expect(first.status).toBe(200);
    let status = first.status;
    while (status !== 401) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await call('GET', '/api/shares', { token: t })).status;
      expect(status === 401 || Date.now() < expiresAt + 60_000).toBe(true);
    }
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt - 1000);
  });

  it('deploy tokens: sites:deploy:<slug> deploys and rolls back that project only', async () => {
    const admin = (await adminSession()).token;
    const t = await makeToken(admin, ['sites:deploy:blog']);
    const deploy = (slug: string, extra: Record<string, string> = {}) => {
      const form = new FormData();
      form.append('slug', slug);
      for (const [k, v] of Object.entries(extra)) form.append(k, v);
      form.append('file', new Blob(['<h1>hi</h1>']), 'index.html');
      return call('POST', '/api/upload', { token: t, raw: form });
    };
    expect((await deploy('blog')).status).toBe(201);
    expect((await deploy('blog', { replace: 'true' })).status).toBe(201);
    const other = await deploy('shop');
    expect([other.status, other.json.code, other.json.scope]).toEqual([403, 'insufficient_scope', 'sites:deploy:shop']);
    const random = await call('POST', '/api/upload', { token: t, raw: (() => { const f = new FormData(); f.append('file', new Blob(['x']), 'a.txt'); return f; })() });
    expect([random.status, random.json.code]).toEqual([403, 'insufficient_scope']);
    const deploys = await call('GET', '/api/projects/blog/deploys', { token: t });
    expect(deploys.status).toBe(200);
    expect((await call('POST', `/api/projects/blog/deploys/${deploys.json.deploys[1].id}/activate`, { token: t })).status).toBe(200);
    expect((await call('GET', '/api/projects/shop/deploys', { token: t })).status).toBe(403);
    expect((await call('GET', '/api/files', { token: t })).status).toBe(403);
    expect((await call('DELETE', '/api/projects/blog', { token: t })).status).toBe(403);
  });

  // Last: it changes the Admin Token of this file's server.
  it('tokens made in an Admin Token session end when the Admin Token changes; an admin user’s tokens do not', async () => {
    const session = (await adminSession()).token;
    const t = await makeToken(session, ['admin']);
    const adminUser = await createMember({ role: 'admin' });
    const kept = await makeToken(adminUser.token, ['admin']);
    expect((await call('GET', '/api/users', { token: t })).status).toBe(200);
    const changed = await call('PATCH', '/api/auth/token', { token: session, body: { token: 'a-new-Admin-token-x7Qp2mZr9vL4' } });
    expect(changed.status).toBe(200);
    expect((await call('GET', '/api/users', { token: t })).status).toBe(401);
    expect((await call('GET', '/api/users', { token: kept })).status).toBe(200);
  });
});
