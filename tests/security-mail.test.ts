import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, baseUrl } from './support/http';
import { useFileServer } from './support/file-server';
import { confirmationToken, isConfirmation, setConfirmedEmail } from './support/mail-confirm';
import { createMember, type Member } from './support/members';
import { freePort } from './support/server';
import { uploadShare } from './support/shares';
import { TestSmtp, type Mail } from './support/smtp';

// Issue 39, item 3: one new account set a victim's address in its profile and had the server
// mail it 40 times in 16 s, the attacker's text in every subject. A real SMTP server in this
// process; a digest every 3 s; an hourly budget of 4 mails so the cap shows within a test.
const smtpPort = await freePort();
// Next's pages: the confirmation page.
useFileServer({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, NOTIFY_DIGEST_MINUTES: '0.05', JANITOR_INTERVAL_SECONDS: '1', PUBLIC_URL: 'http://files.example.test', MAIL_MAX_PER_HOUR: '4' }, { pages: true });

let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await new TestSmtp().start(smtpPort);
});
afterAll(() => smtp?.stop());

const to = (address: string) => (m: Mail) => m.to.includes(address);
const download = async (shareId: string, name: string) => (await fetch(`${baseUrl()}/f/${shareId}/${name}`)).arrayBuffer();

/** Waits until every mail event written so far has had its turn: a confirmed witness's download mail arrives after them. */
async function mailQueueDrained(witness: Member, address: string) {
  const name = `w${randomBytes(4).toString('hex')}.txt`;
  const { share } = await uploadShare(witness.token, { [name]: Buffer.from('w') });
  await download(share.id, name);
  await smtp.waitFor((m) => to(address)(m) && m.text.includes(`“${name}”`));
}

describe('mail goes only to confirmed addresses, within an hourly budget', () => {
  it("an account that sets someone else's address cannot mail it: the address gets one confirmation mail, with none of the attacker's text", async () => {
    const victim = 'victim@example.test';
    const attacker = await createMember();
    const p = await call('PATCH', '/api/auth/profile', { token: attacker.token, body: { email: victim, current_password: attacker.password } });
    expect(p.status).toBe(200);
    expect(p.json.user.email).toBe(victim);
    expect(p.json.user.email_verified).toBe(false);

    // Everything that mails an owner: downloads of shares noted with the attacker's text, an
    // expiry within a day, repeated.
    const spam = 'FREE PRIZE \u202e– claim at https://evil.test';
    for (let i = 0; i < 3; i++) {
      const { share } = await uploadShare(attacker.token, { 'prize.txt': Buffer.from('x') }, { note: spam });
      await download(share.id, 'prize.txt');
      await download(share.id, 'prize.txt');
      expect((await call('PATCH', `/api/shares/${share.id}`, { token: attacker.token, body: { expires_at: new Date(Date.now() + 3600_000).toISOString() } })).status).toBe(200);
    }
    // A confirmed witness's mails come after the attacker's events have had their turn (twice:
    // the janitor writes expiry notices on its own beat).
    const witness = await createMember();
    await setConfirmedEmail(smtp, witness, 'witness@example.test');
    await mailQueueDrained(witness, 'witness@example.test');
    await mailQueueDrained(witness, 'witness@example.test');

    const got = smtp.mails.filter(to(victim));
    expect(got.map((m) => m.subject)).toEqual(['Confirm your e-mail address for htmls']);
    expect(got[0].raw).not.toContain('evil.test');
    expect(got[0].raw).not.toContain(attacker.username);
    // The link asks for a click (a mail scanner opening it confirms nothing) and is single-use.
    const token = confirmationToken(got[0]);
    const page = await fetch(`${baseUrl()}/confirm-email?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Confirm this address');
    expect((await call('GET', '/api/auth/me', { token: attacker.token })).json.user.email_verified).toBe(false);
    expect((await call('POST', '/api/auth/email/confirm', { body: { token: 'x'.repeat(43) } })).status).toBe(400);
  });

  it('confirming: the link works once; a changed address is unconfirmed again and its old link is dead', async () => {
    const owner = await createMember();
    const a = 'first@example.test';
    expect((await call('PATCH', '/api/auth/profile', { token: owner.token, body: { email: a, current_password: owner.password } })).status).toBe(200);
    const token = confirmationToken(await smtp.waitFor(isConfirmation(a)));
    const form = await fetch(`${baseUrl()}/confirm-email?token=${encodeURIComponent(token)}`, { method: 'POST' });
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('Address confirmed');
    expect((await call('GET', '/api/auth/me', { token: owner.token })).json.user.email_verified).toBe(true);
    const again = await call('POST', '/api/auth/email/confirm', { body: { token } });
    expect(again.status).toBe(400);
    expect(again.json.code).toBe('invalid_request');

    const b = 'second@example.test';
    const changed = await call('PATCH', '/api/auth/profile', { token: owner.token, body: { email: b, current_password: owner.password } });
    expect(changed.json.user.email_verified).toBe(false);
    const first = confirmationToken(await smtp.waitFor(isConfirmation(b)));
    // Resend: a new link, and the one before stops working.
    const resent = await call('POST', '/api/auth/email/resend', { token: owner.token });
    expect(resent.status).toBe(200);
    await expect.poll(() => smtp.mails.filter(isConfirmation(b)).length, { timeout: 15_000 }).toBe(2);
    const second = confirmationToken(smtp.mails.filter(isConfirmation(b))[1]);
    expect((await call('POST', '/api/auth/email/confirm', { body: { token: first } })).status).toBe(400);
    expect((await call('POST', '/api/auth/email/confirm', { body: { token: second } })).status).toBe(200);
    expect((await call('POST', '/api/auth/email/resend', { token: owner.token })).status).toBe(409);
  });

  it('confirmation mails are limited per account and per recipient', async () => {
    // Per account: a fourth address within the hour is refused before anything is stored.
    const hopper = await createMember();
    for (const n of [1, 2, 3]) expect((await call('PATCH', '/api/auth/profile', { token: hopper.token, body: { email: `hop${n}@example.test`, current_password: hopper.password } })).status).toBe(200);
    const fourth = await call('PATCH', '/api/auth/profile', { token: hopper.token, body: { email: 'hop4@example.test', current_password: hopper.password } });
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call('GET', '/api/auth/me', { token: hopper.token })).json.user.email).toBe('hop3@example.test');
    expect((await call('POST', '/api/auth/email/resend', { token: hopper.token })).status).toBe(429);

    // Per recipient: however many accounts name one address, it gets three a day.
    const target = 'many@example.test';
    const accounts = await Promise.all([1, 2, 3, 4].map(() => createMember()));
    const answers = [];
    for (const acc of accounts) answers.push((await call('PATCH', '/api/auth/profile', { token: acc.token, body: { email: target, current_password: acc.password } })).status);
    expect(answers).toEqual([200, 200, 200, 429]);
    await expect.poll(() => smtp.mails.filter(to(target)).length, { timeout: 15_000 }).toBe(3);
  });

  it('mails of every kind to one address are bounded per hour; the rest wait', async () => {
    const owner = await createMember();
    const address = 'busy@example.test';
    await setConfirmedEmail(smtp, owner, address);
    for (let i = 0; i < 5; i++) {
      const { share } = await uploadShare(owner.token, { [`f${i}.txt`]: Buffer.from('f') });
      await download(share.id, `f${i}.txt`);
    }
    const witness = await createMember();
    await setConfirmedEmail(smtp, witness, 'witness2@example.test');
    await mailQueueDrained(witness, 'witness2@example.test');
    // The confirmation and three notifications: MAIL_MAX_PER_HOUR=4.
    await expect.poll(() => smtp.mails.filter(to(address)).length, { timeout: 15_000 }).toBe(4);
    await mailQueueDrained(witness, 'witness2@example.test');
    expect(smtp.mails.filter(to(address))).toHaveLength(4);
  });
});
