import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http';
import { useFileServer } from './support/file-server';
import { createMember, type Member } from './support/members';
import { freePort } from './support/server';
import { WebhookReceiver } from './support/webhook-receiver';

// Issue 39, item 4: one member's slow receivers must not delay everyone's webhooks, a failing
// webhook is paused, and Redeliver is bounded. Receivers run on 127.0.0.1. Retries at the
// lowest unit (0.01 s: retries after 0.01, 0.6 and 3.6 s): a paused webhook's delivery, re-enabled,
// is due at its third retry (RETRY_STEPS[2] units), which at 0.05 s the test waited 18 s for.
useFileServer({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SECONDS: '0.01', WEBHOOK_PAUSE_AFTER_FAILURES: '3' });

/** Accepts connections and reads the requests, and never answers. */
class Tarpit {
  private server: Server;
  private sockets = new Set<Socket>();
  connections = 0;
  constructor() {
    this.server = createServer((s) => {
      this.connections++;
      this.sockets.add(s);
      s.on('data', () => {});
      s.on('error', () => {});
      s.on('close', () => this.sockets.delete(s));
    });
  }
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hook`;
  }
  stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

type Delivery = { id: string; status: string; attempts: number; event_id: string; response_status: number | null; error: string | null };
const deliveries = async (m: Member, hookId: string): Promise<Delivery[]> =>
  (await call('GET', `/api/webhooks/${hookId}/deliveries`, { token: m.token })).json.deliveries;
const put = (m: Member, name: string) => call('PUT', `/api/shares/file/${name}`, { token: m.token, raw: name });

let tarpit: Tarpit;
let receiver: WebhookReceiver;
beforeAll(async () => {
  tarpit = new Tarpit();
  receiver = await new WebhookReceiver().start();
});
afterAll(async () => {
  await tarpit?.stop();
  await receiver?.stop();
});

describe("one member's slow receivers", () => {
  it("do not hold up another member's webhook: B's delivery is done while most of A's 60 have not been tried", async () => {
    const tarpitUrl = await tarpit.start();
    const a = await createMember();
    const aHooks: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await call('POST', '/api/webhooks', { token: a.token, body: { url: tarpitUrl, events: ['share.created'] } });
      expect(r.status).toBe(201);
      aHooks.push(r.json.webhook.id);
    }
    // 20 shares on 3 webhooks: 60 deliveries to a receiver that never answers.
    for (let i = 0; i < 20; i++) expect((await put(a, `a${i}.txt`)).status).toBe(201);
    await expect.poll(async () => (await Promise.all(aHooks.map((h) => deliveries(a, h)))).flat().length).toBe(60);
    await expect.poll(() => tarpit.connections).toBeGreaterThan(0);

    const b = await createMember();
    const hook = await call('POST', '/api/webhooks', { token: b.token, body: { url: receiver.url, events: ['share.created'] } });
    expect(hook.status).toBe(201);
    const share = await put(b, 'b.txt');
    expect(share.status).toBe(201);
    await receiver.waitFor((r) => r.json.data.share_id === share.json.share.id);
    await expect.poll(async () => (await deliveries(b, hook.json.webhook.id))[0]?.status).toBe('delivered');

    // A's deliveries are all still pending, and at most A's share of slots has been used.
    const aNow = (await Promise.all(aHooks.map((h) => deliveries(a, h)))).flat();
    expect(aNow.filter((d) => d.status === 'pending')).toHaveLength(60);
    expect(aNow.filter((d) => d.attempts === 0).length).toBeGreaterThanOrEqual(50);
  }, 120_000);
});

describe('a webhook that keeps failing', () => {
  it('is paused after WEBHOOK_PAUSE_AFTER_FAILURES failed attempts, shows why, and resumes when its owner re-enables it', async () => {
    const m = await createMember();
    // Nothing listens on this port yet: every attempt is refused.
    const port = await freePort();
    const r = await call('POST', '/api/webhooks', { token: m.token, body: { url: `http://127.0.0.1:${port}/hook`, events: ['share.created'] } });
    expect(r.status).toBe(201);
    const id = r.json.webhook.id;
    expect(r.json.webhook.paused_reason).toBeNull();
    expect((await put(m, 'p.txt')).status).toBe(201);
    const hook = async () => (await call('GET', '/api/webhooks', { token: m.token })).json.webhooks.find((w: { id: string }) => w.id === id);
    await expect.poll(async () => (await hook()).active, { timeout: 30_000 }).toBe(false);
    const paused = await hook();
    expect(paused.paused_reason).toMatch(/Paused after 3 failed deliveries in a row/);
    const [d] = await deliveries(m, id);
    // The log says why: no answer at all, the connection was refused.
    expect(d).toMatchObject({ status: 'pending', attempts: 3, response_status: null, response_body: null, error: 'ECONNREFUSED' });

    const late = await new WebhookReceiver().start(port);
    try {
      const on = await call('PATCH', `/api/webhooks/${id}`, { token: m.token, body: { active: true } });
      expect(on.json.webhook).toMatchObject({ active: true, paused_reason: null });
      await late.waitFor((x) => x.json.type === 'share.created');
      await expect.poll(async () => (await deliveries(m, id))[0]?.status).toBe('delivered');
    } finally {
      await late.stop();
    }
  }, 60_000);
});

describe('Redeliver', () => {
  it('is rate-limited per member: a flood gets 429 rate_limited with Retry-After, and queues no more than the limit', async () => {
    const m = await createMember();
    const hook = await call('POST', '/api/webhooks', { token: m.token, body: { url: receiver.url, events: ['share.created'] } });
    const hookId = hook.json.webhook.id;
    expect((await put(m, 'r.txt')).status).toBe(201);
    await expect.poll(async () => (await deliveries(m, hookId))[0]?.status).toBe('delivered');
    const [first] = await deliveries(m, hookId);
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => call('POST', `/api/webhooks/${hookId}/deliveries/${first.id}/redeliver`, { token: m.token })),
    );
    const accepted = answers.filter((x) => x.status === 202);
    const refused = answers.filter((x) => x.status === 429);
    expect(accepted.length).toBeLessThanOrEqual(30);
    expect(accepted.length + refused.length).toBe(60);
    expect(refused[0].json.code).toBe('rate_limited');
    expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await deliveries(m, hookId)).length).toBe(1 + accepted.length);
  });
});
