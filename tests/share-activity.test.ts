import { describe, expect, it } from 'vitest';
import { baseUrl, call } from './support/http';
import { useFileServer } from './support/file-server';
import { createMember } from './support/members';
import { TEST_ADMIN_TOKEN } from './support/server';
import { uploadShare } from './support/shares';

useFileServer();

describe('GET /api/shares/:id/activity', () => {
  it("lists each download with item, bytes, completed or not, the guest's network and agent, and counts them per day", async () => {
    const m = await createMember();
    const { share } = await uploadShare(m.token, { 'a.bin': Buffer.alloc(4000, 1) });
    const url = `${baseUrl()}/f/${share.id}/a.bin`;
    const guest = { 'X-Forwarded-For': '203.0.113.77', 'User-Agent': 'Guest/2.0' };
    await (await fetch(url, { headers: guest })).arrayBuffer();
    // Another client's start of the file (one client's ranges are one download: download-activity.test.ts).
    await (await fetch(url, { headers: { ...guest, 'User-Agent': 'Guest/2.0 (phone)', Range: 'bytes=0-9' } })).arrayBuffer();
    await (await fetch(url, { method: 'HEAD', headers: guest })).arrayBuffer();
    await (await fetch(`${baseUrl()}/f/${share.id}/?zip`, { headers: { 'X-Forwarded-For': '2001:db8:1234:5678::9' } })).arrayBuffer();
    const get = () => call('GET', `/api/shares/${share.id}/activity`, { token: m.token });
    await expect.poll(async () => (await get()).json.activity.downloads.length, { timeout: 15_000 }).toBe(3);
    const { activity } = (await get()).json;
    const rows = [...activity.downloads].sort((x: { bytes: number }, y: { bytes: number }) => x.bytes - y.bytes);
    expect(rows[0]).toMatchObject({ path: 'a.bin', bytes: 10, size: 4000, completed: false, address: '203.0.113.0', user_agent: 'Guest/2.0 (phone)' });
    expect(rows[1]).toMatchObject({ path: 'a.bin', bytes: 4000, size: 4000, completed: true, address: '203.0.113.0', user_agent: 'Guest/2.0' });
    expect(rows[2]).toMatchObject({ path: null, completed: true, address: '2001:db8:1234::' });
    expect(activity.per_day).toHaveLength(30);
    expect(activity.per_day.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), downloads: 3, completed: 2 });
    expect(activity.retention_days).toBe(30);
    // The administrator sees any share's.
    expect((await call('GET', `/api/shares/${share.id}/activity`, { token: TEST_ADMIN_TOKEN })).status).toBe(200);
  });

  it("answers 401 without a session and 404 for another member's share or an unknown one", async () => {
    const m = await createMember();
    const other = await createMember();
    const { share } = await uploadShare(m.token, { 'b.txt': Buffer.from('b') });
    expect((await call('GET', `/api/shares/${share.id}/activity`)).status).toBe(401);
    expect((await call('GET', `/api/shares/${share.id}/activity`, { token: other.token })).status).toBe(404);
    expect((await call('GET', '/api/shares/nosuchshare/activity', { token: m.token })).status).toBe(404);
  });
});
