import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signWebhook } from './sign';

describe('signWebhook (Standard Webhooks)', () => {
  it('matches the specification reference vector', () => {
    const sig = signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(sig).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('is accepted by the standardwebhooks library with a fresh secret, and refused for another body', () => {
    const secret = newWebhookSecret();
    const ts = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ type: 'share.downloaded', data: { share_id: 'x' } });
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(ts), 'webhook-signature': signWebhook(secret, 'evt_1', ts, body) };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('x', 'y'), headers)).toThrow();
  });
});
