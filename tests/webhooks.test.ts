import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, baseUrl } from './support/http';
import { useFileServer } from './support/file-server';
import { createMember, type Member } from './support/members';
import { uploadShare } from './support/shares';
import { uploadSite } from './support/hosting';
import { TEST_ADMIN_TOKEN } from './support/server';
import { WebhookReceiver, type Received } from './support/webhook-receiver';

// Receivers run on 127.0.0.1, so this server allows private destinations; retries come fast.
useFileServer({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SECONDS: '0.2', JANITOR_INTERVAL_SECONDS: '1' });

let receiver: WebhookReceiver;
let member: Member;
let hookId: string;
let secret: string;

const isType = (type: string, shareId?: string) => (r: Received) => r.json.type === type && (!shareId || r.json.data.share_id === shareId);

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  member = await createMember();
  const r = await call('POST', '/api/webhooks', { token: member.token, body: { url: receiver.url, events: ['share.created', 'share.downloaded'] } });
  expect(r.status).toBe(201);
  hookId = r.json.webhook.id;
  secret = r.json.secret;
});
afterAll(() => receiver?.stop());

describe('webhook management', () => {
  it('POST /api/webhooks — 201 with a whsec_ secret shown once; GET lists it without the secret', async () => {
    expect(secret).toMatch(/^whsec_/);
    const list = await call('GET', '/api/webhooks', { token: member.token });
    expect(list.status).toBe(200);
    expect(list.json.webhooks).toHaveLength(1);
    expect(list.json.webhooks[0]).toMatchObject({ id: hookId, url: receiver.url, events: ['share.created', 'share.downloaded'], active: true });
    expect(JSON.stringify(list.json)).not.toContain(secret.slice(6));
  });

  it('POST /api/webhooks — 401 without a session, 400 for an unknown event, 403 for site events as a member', async () => {
    expect((await call('POST', '/api/webhooks', { body: { url: receiver.url, events: ['share.created'] } })).status).toBe(401);
    const unknown = await call('POST', '/api/webhooks', { token: member.token, body: { url: receiver.url, events: ['share.nope'] } });
    expect([unknown.status, unknown.json.code]).toEqual([400, 'invalid_request']);
    const site = await call('POST', '/api/webhooks', { token: member.token, body: { url: receiver.url, events: ['site.deployed'] } });
    expect([site.status, site.json.code]).toEqual([403, 'forbidden']);
    const ftp = await call('POST', '/api/webhooks', { token: member.token, body: { url: 'ftp://example.com/x', events: ['share.created'] } });
    expect([ftp.status, ftp.json.code]).toEqual([400, 'webhook_url_not_allowed']);
  });

  it("PATCH/DELETE /api/webhooks/:id — another member's webhook is a 404", async () => {
    const other = await createMember();
    expect((await call('PATCH', `/api/webhooks/${hookId}`, { token: other.token, body: { active: false } })).status).toBe(404);
    expect((await call('DELETE', `/api/webhooks/${hookId}`, { token: other.token })).status).toBe(404);
    expect((await call('GET', `/api/webhooks/${hookId}/deliveries`, { token: other.token })).status).toBe(404);
    expect((await call('DELETE', '/api/webhooks/not-a-uuid', { token: member.token })).status).toBe(404);
  });
});

describe('deliveries', () => {
  it('share.created, then a signed share.downloaded after a whole download, none after a partial one, and one for the ZIP', async () => {
    const big = Buffer.alloc(100_000, 7);
    const { share } = await uploadShare(member.token, { 'a.bin': big, 'b.txt': Buffer.from('whole') });
    const created = await receiver.waitFor(isType('share.created', share.id));
    // The share's link and its files' names come with it: a receiver needs no second call.
    expect(created.json.data).toMatchObject({ share_id: share.id, url: `/f/${share.id}`, file_count: 2, bytes: big.length + 5 });
    expect([...(created.json.data.files as string[])].sort()).toEqual(['a.bin', 'b.txt']);

    // A partial download (a Range that stops before the last byte), then a whole one.
    const partial = await fetch(`${baseUrl()}/f/${share.id}/a.bin`, { headers: { Range: 'bytes=0-99' } });
    expect(partial.status).toBe(206);
    await partial.arrayBuffer();
    const whole = await fetch(`${baseUrl()}/f/${share.id}/b.txt`, { headers: { 'User-Agent': 'guest-agent' } });
    expect(await whole.text()).toBe('whole');

    const got = await receiver.waitFor(isType('share.downloaded', share.id));
    expect(got.json.data).toEqual({ share_id: share.id, url: `/f/${share.id}`, path: 'b.txt', bytes: 5 });
    // Signed as Standard Webhooks say: the library verifies it with the secret.
    const verified = new Webhook(secret).verify(got.body, {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    });
    expect(verified).toEqual(got.json);
    // No guest address or agent, no secret in the payload.
    expect(got.body).not.toContain('127.0.0.1');
    expect(got.body).not.toContain('guest-agent');
    expect(got.body).not.toContain(secret.slice(6));

    const zip = await fetch(`${baseUrl()}/f/${share.id}/?zip`);
    expect(zip.status).toBe(200);
    await zip.arrayBuffer();
    const zipped = await receiver.waitFor((r) => isType('share.downloaded', share.id)(r) && r.json.data.path === null);
    expect(zipped.json.data.bytes).toBeGreaterThan(big.length);

    // The partial one never became an event: the log holds the whole and the ZIP downloads only.
    const log = await call('GET', `/api/webhooks/${hookId}/deliveries`, { token: member.token });
    expect(log.status).toBe(200);
    const downloads = receiver.received.filter(isType('share.downloaded', share.id));
    expect(downloads.map((r) => r.json.data.path).sort()).toEqual(['b.txt', null].sort());
    expect(log.json.deliveries.filter((d: { type: string }) => d.type === 'share.downloaded')).toHaveLength(2);
  });

  it('a 500 is retried with the same webhook-id until it is delivered; Redeliver sends it once more', async () => {
    receiver.answers.push(500);
    const { share } = await uploadShare(member.token, { 'r.txt': Buffer.from('retry') });
    const both = await receiver.waitForCount(isType('share.created', share.id), 2);
    expect(both[0].headers['webhook-id']).toBe(both[1].headers['webhook-id']);
    const log = await call('GET', `/api/webhooks/${hookId}/deliveries`, { token: member.token });
    const d = log.json.deliveries.find((x: { event_id: string }) => x.event_id === both[0].headers['webhook-id']);
    await expect.poll(async () => (await call('GET', `/api/webhooks/${hookId}/deliveries`, { token: member.token })).json.deliveries.find((x: { id: string }) => x.id === d.id).status, { timeout: 15_000 }).toBe('delivered');
    const after = (await call('GET', `/api/webhooks/${hookId}/deliveries`, { token: member.token })).json.deliveries.find((x: { id: string }) => x.id === d.id);
    expect(after).toMatchObject({ status: 'delivered', attempts: 2, response_status: 200, type: 'share.created' });

    const again = await call('POST', `/api/webhooks/${hookId}/deliveries/${d.id}/redeliver`, { token: member.token });
    expect(again.status).toBe(202);
    expect(again.json.delivery).toMatchObject({ event_id: d.event_id, status: 'pending' });
    await receiver.waitForCount(isType('share.created', share.id), 3);
    const other = await createMember();
    expect((await call('POST', `/api/webhooks/${hookId}/deliveries/${d.id}/redeliver`, { token: other.token })).status).toBe(404);
  });

  it("a delivery shows its payload and the receiver's answer; Send test event delivers webhook.test to that webhook alone", async () => {
    const { share } = await uploadShare(member.token, { 'shown.txt': Buffer.from('shown') });
    const got = await receiver.waitFor(isType('share.created', share.id));
    const row = async (eventId: string) =>
      (await call('GET', `/api/webhooks/${hookId}/deliveries`, { token: member.token })).json.deliveries.find((x: { event_id: string }) => x.event_id === eventId);
    await expect.poll(async () => (await row(String(got.headers['webhook-id'])))?.status).toBe('delivered');
    const d = await row(String(got.headers['webhook-id']));
    expect(d.payload).toEqual(got.json);
    expect(d).toMatchObject({ response_status: 200, response_body: 'ok', error: null });

    const before = receiver.received.length;
    const t = await call('POST', `/api/webhooks/${hookId}/test`, { token: member.token });
    expect(t.status).toBe(202);
    expect(t.json.delivery).toMatchObject({ type: 'webhook.test', status: 'pending', payload: { type: 'webhook.test', data: { webhook_id: hookId } } });
    const test = await receiver.waitFor((r) => r.json.type === 'webhook.test');
    expect(test.headers['webhook-id']).toBe(t.json.delivery.event_id);
    expect(new Webhook(secret).verify(test.body, { 'webhook-id': String(test.headers['webhook-id']), 'webhook-timestamp': String(test.headers['webhook-timestamp']), 'webhook-signature': String(test.headers['webhook-signature']) })).toEqual(test.json);
    await expect.poll(async () => (await row(t.json.delivery.event_id))?.status).toBe('delivered');
    expect(receiver.received.slice(before).filter((r) => r.json.type === 'webhook.test')).toHaveLength(1);

    const other = await createMember();
    expect((await call('POST', `/api/webhooks/${hookId}/test`, { token: other.token })).status).toBe(404);
  });

  it('an inactive webhook receives nothing; the webhook shows its last status', async () => {
    const p = await call('PATCH', `/api/webhooks/${hookId}`, { token: member.token, body: { active: false } });
    expect(p.status).toBe(200);
    expect(p.json.webhook).toMatchObject({ active: false, last_status: 200 });
    const before = receiver.received.length;
    const { share } = await uploadShare(member.token, { 'q.txt': Buffer.from('quiet') });
    // A second webhook of the same member, active, gets this event: once it has, the first one had its chance.
    const second = await new WebhookReceiver().start();
    try {
      const r = await call('POST', '/api/webhooks', { token: member.token, body: { url: second.url, events: ['share.downloaded'] } });
      expect(r.status).toBe(201);
      await (await fetch(`${baseUrl()}/f/${share.id}/q.txt`)).text();
      await second.waitFor(isType('share.downloaded', share.id));
      expect(receiver.received.length).toBe(before);
    } finally {
      await second.stop();
    }
  });

  it('share.expired once the expiry passes (the janitor); site.deployed and site.rolled_back to administrators only', async () => {
    const admin = await new WebhookReceiver().start();
    try {
      const a = await call('POST', '/api/webhooks', { token: TEST_ADMIN_TOKEN, body: { url: admin.url, events: ['site.deployed', 'site.rolled_back', 'share.expired'] } });
      expect(a.status).toBe(201);
      const m = await call('POST', '/api/webhooks', { token: member.token, body: { url: receiver.url, events: ['share.expired'] } });
      expect(m.status).toBe(201);
      const { share } = await uploadShare(member.token, { 'e.txt': Buffer.from('soon') });
      const soon = new Date(Date.now() + 1500).toISOString();
      expect((await call('PATCH', `/api/shares/${share.id}`, { token: member.token, body: { expires_at: soon } })).status).toBe(200);
      const expired = await receiver.waitFor(isType('share.expired', share.id));
      expect(expired.json.data).toMatchObject({ share_id: share.id, expires_at: soon });

      const first = await uploadSite({ 'index.html': '<h1>one</h1>' }, { slug: 'evsite' });
      expect(first.status).toBe(201);
      const second = await uploadSite({ 'index.html': '<h1>two</h1>' }, { slug: 'evsite', replace: 'true' });
      expect(second.status).toBe(201);
      const deploys = (await call('GET', '/api/projects/evsite/deploys', { token: TEST_ADMIN_TOKEN })).json.deploys as { id: string }[];
      const older = deploys[deploys.length - 1].id;
      expect((await call('POST', `/api/projects/evsite/deploys/${older}/activate`, { token: TEST_ADMIN_TOKEN })).status).toBe(200);
      const rolled = await admin.waitFor((r) => r.json.type === 'site.rolled_back');
      expect(rolled.json.data).toEqual({ slug: 'evsite', deploy_id: older });
      const deployed = await admin.waitForCount((r) => r.json.type === 'site.deployed', 2);
      expect(deployed.map((r) => r.json.data.deploy_id).sort()).toEqual(deploys.map((d) => d.id).sort());
      // The administrator's webhook gets no member's share.expired; the member gets no site event.
      expect(admin.received.some((r) => r.json.type === 'share.expired')).toBe(false);
      expect(receiver.received.some((r) => r.json.type.startsWith('site.'))).toBe(false);
    } finally {
      await admin.stop();
    }
  });
});
