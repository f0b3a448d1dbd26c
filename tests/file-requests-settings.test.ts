/**
 * File requests under FILE_REQUESTS=admin, and the janitor: an abandoned guest upload is aborted
 * like a member's, its token stops working and the owner's reservation is freed. A server of
 * its own: pending uploads here go stale in about a second.
 */
import { describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { adminSession, call } from './support/http';
import { createMember } from './support/members';

useFileServer({ FILE_REQUESTS: 'admin', PENDING_UPLOAD_TTL_HOURS: '0.0003', JANITOR_INTERVAL_SECONDS: '1' });

describe('FILE_REQUESTS=admin and the janitor', () => {
  it('only administrators make requests; a member is refused with 403', async () => {
    const member = await createMember();
    const r = await call('POST', '/api/requests', { token: member.token, body: {} });
    expect([r.status, r.json.code]).toEqual([403, 'forbidden']);
    const admin = await createMember({ role: 'admin' });
    expect((await call('POST', '/api/requests', { token: admin.token, body: {} })).status).toBe(201);
  });

  it('a request whose owner is demoted stops receiving (404), and comes back when promoted', async () => {
    const owner = await createMember({ role: 'admin' });
    const req = (await call('POST', '/api/requests', { token: owner.token, body: {} })).json.request;
    const admin = await adminSession();
    expect((await call('PATCH', `/api/users/${owner.id}`, { token: admin.token, body: { role: 'member' } })).status).toBe(200);
    const files = [{ clientPath: 'a.txt', size: 1 }];
    expect((await call('POST', `/api/requests/${req.id}/upload`, { body: { files } })).status).toBe(404);
    expect((await call('GET', `/r/${req.id}`)).status).toBe(404);
    expect((await call('PATCH', `/api/users/${owner.id}`, { token: admin.token, body: { role: 'admin' } })).status).toBe(200);
    const init = await call('POST', `/api/requests/${req.id}/upload`, { body: { files } });
    expect(init.status).toBe(201);
    expect((await call('POST', '/api/shares/upload/abort', { token: init.json.uploadToken, body: { groupId: init.json.groupId } })).status).toBe(200);
  });

  it('an abandoned guest upload is aborted by the janitor: its token stops working and the reservation is freed', async () => {
    const owner = await createMember({ role: 'admin' });
    const req = (await call('POST', '/api/requests', { token: owner.token, body: {} })).json.request;
    const init = await call('POST', `/api/requests/${req.id}/upload`, { body: { files: [{ clientPath: 'big.bin', size: 5_000_000 }] } });
    expect(init.status).toBe(201);
    const { uploadToken, groupId } = init.json;
    const pending = async () => (await call('GET', '/api/shares', { token: owner.token })).json.shares.filter((s: any) => s.upload_state === 'pending').length;
    expect(await pending()).toBe(1);
    // Wait for the janitor's sweep, observed through the API (it runs every second).
    let status = 200;
    for (let i = 0; i < 600 && status === 200; i++) {
      status = (await call('POST', '/api/shares/upload/status', { token: uploadToken, body: { groupId } })).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(401);
    expect(await pending()).toBe(0);
    expect((await call('GET', '/api/auth/me', { token: owner.token })).json.user.used_bytes).toBe(0);
  });
});
