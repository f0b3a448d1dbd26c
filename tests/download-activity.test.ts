import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { call, randomIp } from './support/http';
import { createMember, type Member } from './support/members';
import { uploadShare } from './support/shares';
import { WebhookReceiver, type Received } from './support/webhook-receiver';

/**
 * One download is one download everywhere (issue 41 item 2): `aria2c -x 8 -s 8` (eight range
 * connections) or a player's seeks are one activity row with the bytes summed, one
 * share.downloaded and so one mail line — by ticket on a share with a limit, by client and
 * item within a window without one. And the ticket itself (issue 39 item 5): only the server
 * issues one, and one counted download yields about one file's worth of bytes.
 */
useFileServer({ WEBHOOK_ALLOW_PRIVATE: 'true' });

const run = promisify(execFile);
let owner: Member;
let receiver: WebhookReceiver;
let dir: string;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  owner = await createMember();
  const r = await call('POST', '/api/webhooks', { token: owner.token, body: { url: receiver.url, events: ['share.downloaded'] } });
  expect(r.status).toBe(201);
  dir = await mkdtemp(path.join(tmpdir(), 'htmls-activity-'));
});
afterAll(async () => {
  await receiver?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const downloaded = (shareId: string) => (r: Received) => r.json.type === 'share.downloaded' && r.json.data.share_id === shareId;
const activityOf = async (id: string) => (await call('GET', `/api/shares/${id}/activity`, { token: owner.token })).json.activity;
const countOf = async (id: string) =>
  (await call('GET', '/api/shares', { token: owner.token })).json.shares.find((s: { id: string }) => s.id === id).download_count as number;

/** aria2c with eight connections on 1 MiB pieces, from its own address. */
async function aria2c(url: string, out: string, ip = randomIp()): Promise<Buffer> {
  await run('aria2c', ['-q', '-x', '8', '-s', '8', '-k', '1M', '--header', `X-Forwarded-For: ${ip}`, '-d', dir, '-o', out, url]);
  return readFile(path.join(dir, out));
}

describe('one download, one row', () => {
  it('aria2c -x 8 of a limit-1 share: one activity row with bytes = size, one share.downloaded, one count', async () => {
    const data = randomBytes(5_000_000);
    const { share } = await uploadShare(owner.token, { 'big.bin': data }, { max_downloads: 1 });
    expect((await aria2c(`${baseUrl()}/f/${share.id}/big.bin`, 'limited.bin')).equals(data)).toBe(true);

    await expect.poll(async () => (await activityOf(share.id)).downloads.filter((d: { completed: boolean }) => d.completed).length, { timeout: 15_000 }).toBe(1);
    const activity = await activityOf(share.id);
    expect(activity.downloads).toHaveLength(1);
    expect(activity.downloads[0]).toMatchObject({ path: 'big.bin', bytes: data.length, size: data.length, completed: true });
    expect(activity.per_day.at(-1)).toMatchObject({ downloads: 1, completed: 1 });
    const event = await receiver.waitFor(downloaded(share.id));
    expect(event.json.data).toEqual({ share_id: share.id, url: `/f/${share.id}`, path: 'big.bin', bytes: data.length });
    // The row is complete and marked notified in the transaction that made the event: no other comes.
    expect(receiver.received.filter(downloaded(share.id))).toHaveLength(1);
    expect(await countOf(share.id)).toBe(1);
  });

  it("without a limit: one client's parallel ranges are one row; another client is another; a partial is shown as such", async () => {
    const data = randomBytes(3_000_000);
    const { share } = await uploadShare(owner.token, { 'v.bin': data });
    const url = `${baseUrl()}/f/${share.id}/v.bin`;
    expect((await aria2c(url, 'open.bin')).equals(data)).toBe(true);
    // A player: the start, then a seek near the end, from another address — never all of it.
    const player = { 'X-Forwarded-For': randomIp(), 'User-Agent': 'Player/1.0' };
    await (await fetch(url, { headers: { ...player, Range: 'bytes=0-99999' } })).arrayBuffer();
    await (await fetch(url, { headers: { ...player, Range: 'bytes=2900000-' } })).arrayBuffer();
    await (await fetch(url, { headers: { ...player, Range: 'bytes=50000-149999' } })).arrayBuffer();

    await expect.poll(async () => (await activityOf(share.id)).downloads.map((d: { bytes: number }) => d.bytes).sort(), { timeout: 15_000 }).toEqual(
      [250_000, data.length].sort(),
    );
    const rows = (await activityOf(share.id)).downloads;
    expect(rows.find((d: { completed: boolean }) => !d.completed)).toMatchObject({ bytes: 250_000, size: data.length, user_agent: 'Player/1.0' });
    await receiver.waitFor(downloaded(share.id));
    expect(receiver.received.filter(downloaded(share.id)).map((r) => r.json.data.bytes)).toEqual([data.length]);
  });
});

describe("download tickets are the server's (issue 39 item 5)", () => {
  const guest = (cookie?: string) => ({ 'X-Forwarded-For': randomIp(), 'User-Agent': `guest-${randomIp()}`, ...(cookie ? { Cookie: cookie } : {}) });

  it('a ticket value the client chose is no ticket: a limit-1 share gives nothing more to whoever sends it', async () => {
    const data = randomBytes(200_000);
    const { share } = await uploadShare(owner.token, { 'a.bin': data }, { max_downloads: 1 });
    const url = `${baseUrl()}/f/${share.id}/a.bin`;
    const chosen = 'htmls_dl=AAAAAAAAAAAAAAAAAAAAAA';
    const forged = 'htmls_dl=AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA';
    const first = await fetch(url, { headers: guest(chosen) });
    expect(first.status).toBe(200);
    expect(Buffer.from(await first.arrayBuffer()).equals(data)).toBe(true);
    // The server issued its own ticket, not the value offered.
    const issued = first.headers.getSetCookie().find((c) => c.startsWith('htmls_dl='))!.split(';')[0];
    expect(issued).not.toBe(chosen);
    for (const cookie of [chosen, forged]) {
      const r = await fetch(url, { headers: guest(cookie) });
      expect([cookie, r.status]).toEqual([cookie, 410]);
      await r.arrayBuffer();
    }
    expect(await countOf(share.id)).toBe(1);
  });

  it('five addresses reusing one ticket cannot each get the whole file; its own client still resumes', async () => {
    const data = randomBytes(300_000);
    const { share } = await uploadShare(owner.token, { 'b.bin': data }, { max_downloads: 1 });
    const url = `${baseUrl()}/f/${share.id}/b.bin`;
    const own = guest();
    // The owner of the ticket: a download cut off after 100,000 bytes, then resumed.
    const cut = await fetch(url, { headers: { ...own, Range: 'bytes=0-99999' } });
    expect(cut.status).toBe(206);
    const head = Buffer.from(await cut.arrayBuffer());
    const ticket = cut.headers.getSetCookie().find((c) => c.startsWith('htmls_dl='))!.split(';')[0];
    const rest = await fetch(url, { headers: { ...own, Cookie: ticket, Range: 'bytes=100000-' } });
    expect(rest.status).toBe(206);
    expect(Buffer.concat([head, Buffer.from(await rest.arrayBuffer())]).equals(data)).toBe(true);

    const whole: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await fetch(url, { headers: guest(ticket) });
      const body = Buffer.from(await r.arrayBuffer());
      if (r.status === 200 && body.equals(data)) whole.push(i);
      else expect(r.status).toBe(410);
    }
    // About one file's worth per counted download (2×, for retries): one more copy at most.
    expect(whole.length).toBeLessThanOrEqual(1);
    expect(await countOf(share.id)).toBe(1);
  });
});
