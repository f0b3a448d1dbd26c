import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedServiceEnv } from './support/file-server';
import { call, cookieFrom } from './support/http';
import { startInProcess, type InProcessServer } from './support/in-process';
import { TEST_ADMIN_TOKEN } from './support/server';

// Rotation changes the server-wide credential, so it gets a server of its own.
let server: InProcessServer;
let env: Record<string, string | undefined>;
beforeAll(async () => {
  env = await migratedServiceEnv();
  server = await startInProcess(env);
});
afterAll(() => server?.stop());

describe('PATCH /api/auth/token — rotation', () => {
  it('stores the new token, renews the caller, and refuses the old token and every old session', async () => {
    const base = server.url;
    const login = await call('POST', '/api/auth/login', { base, body: { token: TEST_ADMIN_TOKEN } });
    const oldCookie = cookieFrom(login.cookies, 'htmls_admin_session');
    const other = await call('POST', '/api/auth/login', { base, body: { token: TEST_ADMIN_TOKEN } });

    const r = await call('PATCH', '/api/auth/token', { base, cookie: oldCookie, body: { token: 'brand-new-admin-token' } });
    expect(r.status).toBe(200);
    expect(r.json.ok).toBe(true);
    const newCookie = cookieFrom(r.cookies, 'htmls_admin_session');
    expect(newCookie).not.toBe(oldCookie);

    // The environment's ADMIN_TOKEN no longer works: the stored hash wins.
    expect((await call('POST', '/api/auth/login', { base, body: { token: TEST_ADMIN_TOKEN } })).status).toBe(401);
    expect((await call('GET', '/api/auth/me', { base, token: TEST_ADMIN_TOKEN })).status).toBe(401);
    expect((await call('GET', '/api/auth/me', { base, cookie: oldCookie })).status).toBe(401);
    expect((await call('GET', '/api/auth/me', { base, token: other.json.token })).status).toBe(401);

    expect((await call('GET', '/api/auth/me', { base, cookie: newCookie })).status).toBe(200);
    expect((await call('GET', '/api/auth/me', { base, token: r.json.token })).status).toBe(200);
    expect((await call('GET', '/api/auth/me', { base, token: 'brand-new-admin-token' })).status).toBe(200);
    const again = await call('POST', '/api/auth/login', { base, body: { token: 'brand-new-admin-token' } });
    expect(again.status).toBe(200);
  });

  it('voids guest unlock cookies issued under the old token', async () => {
    const base = server.url;
    const form = new FormData();
    form.append('password', 'guest-pass');
    form.append('f', new Blob(['<p>locked</p>']), 'index.html');
    const up = await call('POST', '/api/upload', { base, token: 'brand-new-admin-token', raw: form });
    const slug = up.json.project.slug;
    const hosted = server.hostedUrl!;
    const unlock = await call('POST', `/p/${slug}/unlock`, { base: hosted, body: { password: 'guest-pass' } });
    const cookie = cookieFrom(unlock.cookies, `htmls_project_unlock_${slug}`);
    expect((await call('GET', `/p/${slug}/`, { base: hosted, cookie })).status).toBe(200);
    const r = await call('PATCH', '/api/auth/token', { base, token: 'brand-new-admin-token', body: { token: 'third-admin-token' } });
    expect(r.status).toBe(200);
    expect((await call('GET', `/p/${slug}/`, { base: hosted, cookie })).status).toBe(401);
    // Back to the token the next test expects.
    await call('PATCH', '/api/auth/token', { base, token: 'third-admin-token', body: { token: 'brand-new-admin-token' } });
  });

  it('keeps the stored token across a restart', async () => {
    // A restart: the service stops, and a new one starts on the same data.
    await server.stop();
    server = await startInProcess({ ...env, DATA_DIR: server.dataDir });
    const base = server.url;
    expect((await call('POST', '/api/auth/login', { base, body: { token: 'brand-new-admin-token' } })).status).toBe(200);
    expect((await call('POST', '/api/auth/login', { base, body: { token: TEST_ADMIN_TOKEN } })).status).toBe(401);
  });
});

