import { describe, expect, it } from 'vitest';
import { call } from './support/http';
import { useFileServer } from './support/file-server';
import { createMember } from './support/members';

// The default: no WEBHOOK_ALLOW_PRIVATE.
useFileServer();

describe('POST /api/webhooks — the SSRF guard at creation', () => {
  it.each([
    ['loopback', 'http://127.0.0.1:8080/hook'],
    ['loopback, another form', 'http://127.1/hook'],
    ['private', 'http://10.0.0.8/hook'],
    ['private', 'https://192.168.1.10/hook'],
    ['link-local (cloud metadata)', 'http://169.254.169.254/latest/meta-data/'],
    ['unspecified', 'http://0.0.0.0:3000/'],
    ['IPv6 loopback', 'http://[::1]/hook'],
    ['IPv6-mapped loopback', 'http://[::ffff:127.0.0.1]/hook'],
    ['IPv6-mapped metadata', 'http://[::ffff:a9fe:a9fe]/hook'],
    ['IPv6 link-local', 'http://[fe80::1]/hook'],
    ['unique-local', 'http://[fd00::1]/hook'],
    ['SIIT-translated loopback', 'http://[::ffff:0:127.0.0.1]/hook'],
    ['local-use NAT64 loopback', 'http://[64:ff9b:1::7f00:1]/hook'],
    ['site-local', 'http://[fec0::1]/hook'],
    ['a name resolving to 127.0.0.1', 'http://localhost:3000/hook'],
    ['not http(s)', 'file:///etc/passwd'],
  ])('refuses %s (%s) with 400 webhook_url_not_allowed', async (_what, url) => {
    const m = await createMember();
    const r = await call('POST', '/api/webhooks', { token: m.token, body: { url, events: ['share.created'] } });
    expect([r.status, r.json.code]).toEqual([400, 'webhook_url_not_allowed']);
  });

  it('PATCH /api/webhooks/:id — a URL changed to a private address is refused too', async () => {
    const m = await createMember();
    const r = await call('POST', '/api/webhooks', { token: m.token, body: { url: 'https://93.184.216.34/hook', events: ['share.created'] } });
    expect(r.status).toBe(201);
    const p = await call('PATCH', `/api/webhooks/${r.json.webhook.id}`, { token: m.token, body: { url: 'http://127.0.0.1/x' } });
    expect([p.status, p.json.code]).toEqual([400, 'webhook_url_not_allowed']);
  });

  it('bounds the webhooks one member may have (409 past 10)', async () => {
    const m = await createMember();
    for (let i = 0; i < 10; i++) {
      expect((await call('POST', '/api/webhooks', { token: m.token, body: { url: `https://93.184.216.34/h${i}`, events: ['share.created'] } })).status).toBe(201);
    }
    const r = await call('POST', '/api/webhooks', { token: m.token, body: { url: 'https://93.184.216.34/h10', events: ['share.created'] } });
    expect([r.status, r.json.code]).toEqual([409, 'conflict']);
  });
});
