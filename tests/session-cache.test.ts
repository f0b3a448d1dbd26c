import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { call } from './support/http';
import { createMember } from './support/members';
import { TEST_ADMIN_TOKEN } from './support/server';
import { putPart } from './support/shares';

// The proxy chunk route resolves its caller's session from memory after the first part
// (lib/auth/session-cache.ts): 500 small files are 500 parts in a row with one session. What a
// member relies on: whatever ends the session ends its uploads at once too, on this instance
// (tests/two-instances.slow.test.ts: on another one, at its next reading of the sessions epoch).
useFileServer({ UPLOAD_MODE: 'proxy' });

/** An upload of `n` one-part files; put(i, token) sends file i's part. */
async function pendingUpload(token: string, n: number) {
  const data = randomBytes(100);
  const init = await call('POST', '/api/shares/upload/init', { token, body: { files: Array.from({ length: n }, (_, i) => ({ clientPath: `f${i}.bin`, size: data.length })) } });
  expect([init.status, init.json.mode]).toEqual([201, 'proxy']);
  const files = init.json.files as { uploadId: string; storageKey: string }[];
  return (i: number, as: string) => putPart(as, { groupId: init.json.groupId, uploadId: files[i].uploadId, storageKey: files[i].storageKey, partNumber: 1 }, data, 'proxy').then((r) => r.status);
}

describe('the chunk route after a session ends', () => {
  it('refuses the next part at once after a logout, though the session has just sent one', async () => {
    const m = await createMember();
    const put = await pendingUpload(m.token, 3);
    expect(await put(0, m.token)).toBe(200);
    expect(await put(1, m.token)).toBe(200);
    expect((await call('POST', '/api/auth/logout', { token: m.token })).status).toBe(200);
    expect(await put(2, m.token)).toBe(401);
  });

  it('refuses it at once when the administrator disables the member or sets a new password', async () => {
    const m = await createMember();
    const put = await pendingUpload(m.token, 4);
    expect(await put(0, m.token)).toBe(200);
    const edit = (body: object) => call('PATCH', `/api/users/${m.id}`, { token: TEST_ADMIN_TOKEN, body }).then((r) => r.status);
    expect(await edit({ status: 'disabled' })).toBe(200);
    expect(await put(1, m.token)).toBe(401);

    expect(await edit({ status: 'active' })).toBe(200);
    const again = (await call('POST', '/api/auth/login', { body: { username: m.username, password: m.password } })).json.token as string;
    expect(await put(1, again)).toBe(200);
    expect(await edit({ password: 'a brand new password' })).toBe(200);
    expect(await put(2, again)).toBe(401);
  });

  it('refuses another member\'s session and a made-up token, however often it is tried', async () => {
    const owner = await createMember();
    const other = await createMember();
    const put = await pendingUpload(owner.token, 1);
    expect(await put(0, owner.token)).toBe(200);
    for (let i = 0; i < 3; i++) expect(await put(0, other.token)).toBe(404);
    // Its first character changed (a token starting with "x" made "x…" the token itself: 1 run in 64).
    const madeUp = `${owner.token[0] === 'x' ? 'y' : 'x'}${owner.token.slice(1)}`;
    expect(await put(0, madeUp)).toBe(401);
  });
});
