/**
 * A member could once open pending uploads without end (21,500 sessions in 7 s;
 * empty files reserved nothing). Now: caps on pending groups and files per member, and every
 * pending file holds at least 1 KiB of the quota. Small caps on a server of its own.
 */
import { describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { call } from './support/http';
import { uniqueName } from './support/members';
import { TEST_ADMIN_TOKEN } from './support/server';

useFileServer({ MAX_PENDING_UPLOADS: '4', MAX_PENDING_FILES: '30' });

async function member(quota = 1024 ** 3): Promise<string> {
  const base = baseUrl();
  const username = uniqueName();
  const c = await call('POST', '/api/users', { base, token: TEST_ADMIN_TOKEN, body: { username, password: 'long enough', quota_bytes: quota } });
  expect(c.status).toBe(201);
  return (await call('POST', '/api/auth/login', { base, body: { username, password: 'long enough' } })).json.token;
}

const init = (token: string, count: number, size = 0, prefix = 'f') =>
  call('POST', '/api/shares/upload/init', {
    base: baseUrl(),
    token,
    body: { files: Array.from({ length: count }, (_, i) => ({ clientPath: `${prefix}${i}.bin`, size })) },
  });

describe('pending upload caps (item 7)', () => {
  it('refuses a pending upload past MAX_PENDING_UPLOADS with 409 too_many_pending; discarding one frees a slot', async () => {
    const token = await member();
    const groups: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await init(token, 1);
      expect(r.status).toBe(201);
      groups.push(r.json.groupId);
    }
    const refused = await init(token, 1);
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('too_many_pending');
    expect(refused.json.error).toMatch(/resume or discard/);
    // Another member is not affected.
    expect((await init(await member(), 1)).status).toBe(201);
    expect((await call('POST', '/api/shares/upload/abort', { base: baseUrl(), token, body: { groupId: groups[0] } })).status).toBe(200);
    expect((await init(token, 1)).status).toBe(201);
  });

  it('refuses files past MAX_PENDING_FILES across the member\'s pending uploads', async () => {
    const token = await member();
    expect((await init(token, 25)).status).toBe(201);
    const refused = await init(token, 6, 0, 'g');
    expect([refused.status, refused.json.code]).toEqual([409, 'too_many_pending']);
    expect((await init(token, 5, 0, 'g')).status).toBe(201);
  });

  it('an empty file still holds 1 KiB of the quota while pending', async () => {
    const token = await member(10 * 1024);
    const r = await init(token, 11);
    expect([r.status, r.json.code]).toEqual([413, 'quota_exceeded']);
    expect((await init(token, 10)).status).toBe(201);
    // The quota is now held in full: one more empty file does not fit.
    expect((await init(token, 1, 0, 'x')).status).toBe(413);
  });

  it('aborting one upload leaves every other member\'s pending uploads intact', async () => {
    const others = await member();
    const kept: string[] = [];
    for (let i = 0; i < 3; i++) kept.push((await init(others, 2, 10, `k${i}-`)).json.groupId);
    const token = await member();
    const mine = await init(token, 2, 10);
    expect((await call('POST', '/api/shares/upload/abort', { base: baseUrl(), token, body: { groupId: mine.json.groupId } })).status).toBe(200);
    for (const groupId of kept) {
      const s = await call('POST', '/api/shares/upload/status', { base: baseUrl(), token: others, body: { groupId } });
      expect(s.status).toBe(200);
    }
    const gone = await call('POST', '/api/shares/upload/status', { base: baseUrl(), token, body: { groupId: mine.json.groupId } });
    expect(gone.status).toBe(404);
  });
});
