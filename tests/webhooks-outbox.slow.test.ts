import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from './support/http';
import { migratedServiceEnv } from './support/file-server';
import { requires } from './support/requires';
import { freePort, startServer, TEST_ADMIN_TOKEN } from './support/server';
import { uploadShare } from './support/shares';
import { WebhookReceiver } from './support/webhook-receiver';

async function member(base: string): Promise<string> {
  const username = `wh${randomBytes(4).toString('hex')}`;
  await call('POST', '/api/users', { base, token: TEST_ADMIN_TOKEN, body: { username, password: 'long enough', quota_bytes: 1024 ** 3 } });
  return (await call('POST', '/api/auth/login', { base, body: { username, password: 'long enough' } })).json.token;
}

describe('the outbox', () => {
  it('a delivery still pending when the server stops is delivered by the next start', { timeout: 180_000 }, async () => {
    const env = { ...(await migratedServiceEnv()), WEBHOOK_ALLOW_PRIVATE: 'true', UPLOAD_MODE: 'proxy' };
    // The receiver's port is chosen now but nothing listens there yet: the first attempt is refused.
    const port = await freePort();
    const a = await startServer(env);
    let b;
    const receiver = new WebhookReceiver();
    try {
      const token = await member(a.url);
      const hook = await call('POST', '/api/webhooks', { base: a.url, token, body: { url: `http://127.0.0.1:${port}/hook`, events: ['share.created'] } });
      expect(hook.status).toBe(201);
      const { share } = await uploadShare(token, { 'x.txt': Buffer.from('outbox') }, { base: a.url });
      const deliveries = () => call('GET', `/api/webhooks/${hook.json.webhook.id}/deliveries`, { base: a.url, token });
      await expect.poll(async () => (await deliveries()).json.deliveries[0]?.attempts ?? 0, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
      expect((await deliveries()).json.deliveries[0]).toMatchObject({ status: 'pending', response_status: null });
      await a.stop('SIGKILL');

      await receiver.start(port);
      b = await startServer(env);
      const got = await receiver.waitFor((r) => r.json.type === 'share.created' && r.json.data.share_id === share.id);
      expect(got.json.data.file_count).toBe(1);
    } finally {
      await a.stop().catch(() => {});
      await b?.stop();
      await receiver.stop();
    }
  });

  requires('postgres').it('two instances on one database deliver each event once', async () => {
    const env = { ...(await migratedServiceEnv()), WEBHOOK_ALLOW_PRIVATE: 'true', UPLOAD_MODE: 'proxy' };
    const receiver = await new WebhookReceiver().start();
    const [a, b] = await Promise.all([startServer(env), startServer(env)]);
    try {
      const token = await member(a.url);
      expect((await call('POST', '/api/webhooks', { base: b.url, token, body: { url: receiver.url, events: ['share.created'] } })).status).toBe(201);
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        const { share } = await uploadShare(token, { [`f${i}.txt`]: Buffer.from(`n${i}`) }, { base: i % 2 ? a.url : b.url });
        ids.push(share.id);
      }
      await receiver.waitForCount((r) => r.json.type === 'share.created', ids.length);
      // Both workers poll every second; give each a chance to send anything twice, then count.
      const last = await uploadShare(token, { 'last.txt': Buffer.from('last') }, { base: a.url });
      await receiver.waitFor((r) => r.json.data.share_id === last.share.id);
      const seen = receiver.received.map((r) => String(r.json.data.share_id));
      expect(seen.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(receiver.received.length);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await receiver.stop();
    }
  }, 180_000);
});
