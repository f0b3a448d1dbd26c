import { describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { call } from './support/http';
import { TEST_ADMIN_TOKEN } from './support/server';
import { createMember, registerMember } from './support/members';
import { uploadShare } from './support/shares';
import { listStoredKeys, testStore } from './support/store';

useFileServer();

const me = async (token: string) => (await call('GET', '/api/auth/me', { token })).json.user;

describe('GET/PATCH/DELETE /api/shares', () => {
  it('members see and change only their own shares; others get 404; the administrator sees all', async () => {
    const a = await createMember();
    const b = await createMember();
    const { share } = await uploadShare(a.token, { 'a.txt': Buffer.from('aaa') });
    const listA = await call('GET', '/api/shares', { token: a.token });
    expect(listA.json.shares.map((s: { id: string }) => s.id)).toEqual([share.id]);
    expect(listA.json.shares[0]).not.toHaveProperty('password_hash');
    expect((await call('GET', '/api/shares', { token: b.token })).json.shares).toEqual([]);
    expect((await call('PATCH', `/api/shares/${share.id}`, { token: b.token, body: { note: 'mine now' } })).status).toBe(404);
    expect((await call('DELETE', `/api/shares/${share.id}`, { token: b.token })).status).toBe(404);
    const all = await call('GET', '/api/shares', { token: TEST_ADMIN_TOKEN });
    expect(all.json.shares.some((s: { id: string; username: string }) => s.id === share.id && s.username === a.username)).toBe(true);
    const byAdmin = await call('PATCH', `/api/shares/${share.id}`, { token: TEST_ADMIN_TOKEN, body: { note: 'moderated' } });
    expect(byAdmin.json.share.note).toBe('moderated');
    expect((await call('GET', '/api/shares')).status).toBe(401);
  });

  it('edits note, expiry, password and status; validates types; 409 to put a pending share online', async () => {
    const m = await createMember();
    const { share } = await uploadShare(m.token, { 'a.txt': Buffer.from('a') });
    const when = new Date(Date.now() + 7 * 86400_000).toISOString();
    const r = await call('PATCH', `/api/shares/${share.id}`, {
      token: m.token,
      body: { note: 'new note', expires_at: when, password: 'secret-pw', status: 'offline' },
    });
    expect(r.status).toBe(200);
    expect(r.json.share).toMatchObject({ note: 'new note', expires_at: when, has_password: true, status: 'offline' });
    const cleared = await call('PATCH', `/api/shares/${share.id}`, { token: m.token, body: { expires_at: null, password: null } });
    expect(cleared.json.share).toMatchObject({ expires_at: null, has_password: false });
    for (const body of [{ status: 'gone' }, { expires_at: 'tomorrow' }, { note: 5 }, { password: 5 }]) {
      expect((await call('PATCH', `/api/shares/${share.id}`, { token: m.token, body })).status, JSON.stringify(body)).toBe(400);
    }
    const { init } = await uploadShare(m.token, { 'p.txt': Buffer.from('p') }, { noComplete: true });
    const online = await call('PATCH', `/api/shares/${init.json.groupId}`, { token: m.token, body: { status: 'online' } });
    expect([online.status, online.json.code]).toEqual([409, 'upload_not_complete']);
    expect((await call('PATCH', '/api/shares/nosuchshare', { token: m.token, body: { note: 'x' } })).status).toBe(404);
  });

  it('refuses an expiry in the past, at upload and when edited: 400 invalid_request, nothing stored or changed', async () => {
    const m = await createMember();
    const past = new Date(Date.now() - 60_000).toISOString();
    const init = await call('POST', '/api/shares/upload/init', { token: m.token, body: { expires_at: past, files: [{ clientPath: 'a.txt', size: 1 }] } });
    expect([init.status, init.json.code]).toEqual([400, 'invalid_request']);
    expect(init.json.error).toMatch(/^expires_at: that time has passed/);
    expect((await call('GET', '/api/shares', { token: m.token })).json.shares).toEqual([]);
    expect((await me(m.token)).used_bytes).toBe(0);

    const when = new Date(Date.now() + 86400_000).toISOString();
    const { share } = await uploadShare(m.token, { 'a.txt': Buffer.from('a') }, { expires_at: when });
    const patch = await call('PATCH', `/api/shares/${share.id}`, { token: m.token, body: { expires_at: past } });
    expect([patch.status, patch.json.code]).toEqual([400, 'invalid_request']);
    const list = await call('GET', '/api/shares', { token: m.token });
    expect(list.json.shares[0]).toMatchObject({ id: share.id, expires_at: when });
    expect((await fetch(`${baseUrl()}/f/${share.id}/a.txt`)).status).toBe(200);
  });

  it('DELETE removes the objects and gives the bytes back to the quota', async () => {
    const m = await createMember();
    const { share } = await uploadShare(m.token, { 'd/a.txt': Buffer.from('12345'), 'b.txt': Buffer.from('678') });
    expect((await me(m.token)).used_bytes).toBe(8);
    expect(await listStoredKeys(`shared/${share.id}/`)).toHaveLength(2);
    expect((await call('DELETE', `/api/shares/${share.id}`, { token: m.token })).status).toBe(204);
    expect(await listStoredKeys(`shared/${share.id}/`)).toEqual([]);
    expect((await me(m.token)).used_bytes).toBe(0);
    expect((await fetch(`${baseUrl()}/f/${share.id}/b.txt`)).status).toBe(404);
    expect((await call('DELETE', `/api/shares/${share.id}`, { token: m.token })).status).toBe(404);
  });
});

describe('GET /api/shares — a share is titled by its note, else by its files (issue 41, item 11)', () => {
  it('"report.pdf", "report.pdf and 2 more", the note\'s first line; the same in the list, the share and what a change answers', async () => {
    const m = await createMember();
    const one = (await uploadShare(m.token, { 'docs/report.pdf': Buffer.from('r') })).share;
    // The first file in code-point order, whatever order they were sent in.
    const many = (await uploadShare(m.token, { 'b.txt': Buffer.from('b'), 'Zeta.txt': Buffer.from('z'), 'a.txt': Buffer.from('a') })).share;
    const noted = (await uploadShare(m.token, { 'x.bin': Buffer.from('x') }, { note: 'Quarterly numbers\nsecond line' })).share;
    expect(one.title).toBe('report.pdf');
    expect(many.title).toBe('Zeta.txt and 2 more');
    expect(noted.title).toBe('Quarterly numbers');
    const list = await call('GET', '/api/shares', { token: m.token });
    const titles = Object.fromEntries(list.json.shares.map((s: { id: string; title: string }) => [s.id, s.title]));
    expect(titles).toEqual({ [one.id]: 'report.pdf', [many.id]: 'Zeta.txt and 2 more', [noted.id]: 'Quarterly numbers' });
    expect((await call('GET', `/api/shares/${many.id}`, { token: m.token })).json.share.title).toBe('Zeta.txt and 2 more');
    // Clearing the note names it by its files again.
    expect((await call('PATCH', `/api/shares/${noted.id}`, { token: m.token, body: { note: '' } })).json.share.title).toBe('x.bin');
  });
});

describe('account deletion with shares', () => {
  it('removes the shares, their objects, pending uploads and sessions', async () => {
    const m = await registerMember();
    const { share } = await uploadShare(m.token, { 'keep.txt': Buffer.from('bytes') });
    const { init } = await uploadShare(m.token, { 'half.txt': Buffer.from('half') }, { noComplete: true });
    const pendingId = init.json.groupId;
    expect(await listStoredKeys(`shared/${share.id}/`)).toHaveLength(1);
    expect((await call('DELETE', '/api/auth/account', { token: m.token })).status).toBe(204);
    expect(await listStoredKeys(`shared/${share.id}/`)).toEqual([]);
    expect(await testStore().listMultipartUploads(`shared/${pendingId}/`)).toEqual([]);
    const all = (await call('GET', '/api/shares', { token: TEST_ADMIN_TOKEN })).json.shares.map((s: { id: string }) => s.id);
    expect(all).not.toContain(share.id);
    expect(all).not.toContain(pendingId);
    expect((await fetch(`${baseUrl()}/f/${share.id}/keep.txt`)).status).toBe(404);
    expect((await call('GET', '/api/auth/me', { token: m.token })).status).toBe(401);
  });

  it('the administrator deleting a user removes the same', async () => {
    const m = await createMember();
    const { share } = await uploadShare(m.token, { 'x.txt': Buffer.from('x') });
    expect((await call('DELETE', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN })).status).toBe(204);
    expect(await listStoredKeys(`shared/${share.id}/`)).toEqual([]);
  });
});
