import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { migratedServiceEnv } from './support/file-server';
import { call } from './support/http';
import { startInProcess, type InProcessServer } from './support/in-process';
import { TEST_ADMIN_TOKEN } from './support/server';
import { dropTestDatabase } from './support/services';
import { uploadShare } from './support/shares';
import { WebhookReceiver } from './support/webhook-receiver';

// The event worker stops with the service, before its database closes: an attempt in flight
// ends and its delivery is given back (due at once at the next start, that attempt uncounted),
// and nothing of the worker runs on a closed database after the stop. It used to keep polling
// (and record the attempt in flight) on the closed database, logging "webhook delivery failed …
// PGlite is closed", and the delivery waited out its lease before the next start sent it.

async function member(base: string): Promise<string> {
  const username = `wh${randomBytes(4).toString('hex')}`;
  await call('POST', '/api/users', { base, token: TEST_ADMIN_TOKEN, body: { username, password: 'long enough', quota_bytes: 1024 ** 3 } });
  return (await call('POST', '/api/auth/login', { base, body: { username, password: 'long enough' } })).json.token;
}

const receiver = new WebhookReceiver();
let env: Record<string, string | undefined>;
let b: InProcessServer | undefined;
afterAll(async () => {
  await b?.stop();
  await receiver.stop();
  if (env?.DATA_DIR) rmSync(env.DATA_DIR, { recursive: true, force: true });
  if (env?.DATABASE_URL) await dropTestDatabase(env.DATABASE_URL).catch(() => {});
});

describe('stopping the service', () => {
  it('ends the webhook attempt in flight without error and gives it back: the next start delivers it at once', { timeout: 180_000 }, async () => {
    env = { ...(await migratedServiceEnv()), WEBHOOK_ALLOW_PRIVATE: 'true', UPLOAD_MODE: 'proxy' };
    await receiver.start();
    const errors = vi.spyOn(console, 'error');
    const a = await startInProcess(env);
    const token = await member(a.url);
    const hook = await call('POST', '/api/webhooks', { base: a.url, token, body: { url: receiver.url, events: ['share.created'] } });
    expect(hook.status).toBe(201);
    // The receiver keeps the first attempt unanswered: it is in flight when the service stops.
    receiver.holding = true;
    const { share } = await uploadShare(token, { 'x.txt': Buffer.from('in flight') }, { base: a.url });
    const ofShare = (r: { json: { data: Record<string, unknown> } }) => r.json.data.share_id === share.id;
    const first = await receiver.waitFor(ofShare);
    await a.stop();
    receiver.holding = false;

    // A second start on the same database (a new service in this process: nothing of the first
    // is reused) sends it again at once (not after the first claim's lease), as the same message,
    // and counts one attempt.
    b = await startInProcess(env);
    await expect.poll(() => receiver.received.filter(ofShare).length, { timeout: 30_000, interval: 100 }).toBe(2);
    expect(receiver.received.filter(ofShare)[1].headers['webhook-id']).toBe(first.headers['webhook-id']);
    const deliveries = async () => (await call('GET', `/api/webhooks/${hook.json.webhook.id}/deliveries`, { base: b!.url, token })).json.deliveries;
    await expect.poll(async () => (await deliveries())[0]?.status, { timeout: 30_000 }).toBe('delivered');
    expect((await deliveries())[0]).toMatchObject({ status: 'delivered', attempts: 1, response_status: 200 });

    // Nothing of the stopped worker ran on its closed database meanwhile.
    const logged = [a.output(), ...errors.mock.calls.map((args) => args.map(String).join(' '))].join('\n');
    expect(logged).not.toMatch(/webhook delivery failed|notification mail failed|is closed/i);
    errors.mockRestore();
  });
});
