import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, baseUrl } from './support/http';
import { useFileServer } from './support/file-server';
import { createMember, type Member } from './support/members';
import { freePort } from './support/server';
import { uploadShare } from './support/shares';
import { TestSmtp, type Mail } from './support/smtp';

// A real SMTP server in this process; the service mails to it. A digest every 3 s keeps the test short.
const smtpPort = await freePort();
useFileServer({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, NOTIFY_DIGEST_MINUTES: '0.05', JANITOR_INTERVAL_SECONDS: '1', PUBLIC_URL: 'http://files.example.test' });

let smtp: TestSmtp;
let owner: Member;
const EMAIL = 'owner@example.test';

beforeAll(async () => {
  smtp = await new TestSmtp().start(smtpPort);
  owner = await createMember();
  const p = await call('PATCH', '/api/auth/profile', { token: owner.token, body: { email: EMAIL } });
  expect(p.status).toBe(200);
  expect(p.json.user.notify).toEqual({ downloads: true, uploads: true, expiring: true });
});
afterAll(() => smtp?.stop());

const about = (_shareId: string, subject: RegExp) => (m: Mail) => subject.test(m.subject) && m.to.includes(EMAIL);

describe('e-mail notifications', () => {
  it('a completed download is mailed at once; the next ones within the digest window come together in one mail; a partial one never', async () => {
    const note = '<b>Q&A</b> "deck"';
    const { share } = await uploadShare(owner.token, { 'slides.pdf': Buffer.alloc(5000, 1) }, { note });
    const url = `${baseUrl()}/f/${share.id}/slides.pdf`;
    await (await fetch(url)).arrayBuffer();
    const first = await smtp.waitFor(about(share.id, /was downloaded$/));
    expect(first.subject).toBe(`Your share "${note}" was downloaded`);
    expect(first.text).toContain('slides.pdf');
    expect(first.text).toContain(note);
    // Names are text in the HTML part: escaped, never markup.
    expect(first.html).toContain('&lt;b&gt;Q&amp;A&lt;/b&gt; &quot;deck&quot;');
    expect(first.html).not.toContain('<b>Q&A</b>');
    expect(first.headers['list-unsubscribe']).toMatch(/^<http:\/\/files\.example\.test\/unsubscribe\?u=/);

    await (await fetch(url, { headers: { Range: 'bytes=0-99' } })).arrayBuffer();
    await (await fetch(url)).arrayBuffer();
    await (await fetch(`${baseUrl()}/f/${share.id}/?zip`)).arrayBuffer();
    const digest = await smtp.waitFor(about(share.id, /was downloaded 2 times$/));
    expect(digest.text).toContain('everything, as a ZIP');
    expect(smtp.mails.filter((m) => m.subject.startsWith(`Your share "${note}"`))).toHaveLength(2);
  });

  it('the unsubscribe link needs no login: GET asks, POST stops that kind; a forged link is refused', async () => {
    const { share } = await uploadShare(owner.token, { 'u.txt': Buffer.from('u') }, { note: 'unsub' });
    await (await fetch(`${baseUrl()}/f/${share.id}/u.txt`)).arrayBuffer();
    const mail = await smtp.waitFor((m) => m.subject === 'Your share "unsub" was downloaded');
    const link = /<([^>]+)>/.exec(mail.headers['list-unsubscribe'])![1].replace('http://files.example.test', baseUrl());
    expect(mail.text).toContain(link.replace(baseUrl(), 'http://files.example.test'));

    const ask = await fetch(link);
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain('Stop these e-mails');
    expect((await call('GET', '/api/auth/me', { token: owner.token })).json.user.notify.downloads).toBe(true);
    const forged = await fetch(link.replace(/s=[^&]+/, 's=AAAA'), { method: 'POST' });
    expect(forged.status).toBe(400);
    const stop = await fetch(link, { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(stop.status).toBe(200);
    expect((await call('GET', '/api/auth/me', { token: owner.token })).json.user.notify).toEqual({ downloads: false, uploads: true, expiring: true });

    // Switched off: a new download is recorded (its count) but mailed to nobody; the expiry notice
    // written after it still comes, so by then the download's event was passed over.
    const other = await uploadShare(owner.token, { 'q.txt': Buffer.from('q') }, { note: 'quiet' });
    await (await fetch(`${baseUrl()}/f/${other.share.id}/q.txt`)).arrayBuffer();
    await expect.poll(async () => (await call('GET', `/api/shares/${other.share.id}`, { token: owner.token })).json.share.download_count, { timeout: 15_000 }).toBe(1);
    const soon = new Date(Date.now() + 2 * 3600_000).toISOString();
    expect((await call('PATCH', `/api/shares/${other.share.id}`, { token: owner.token, body: { expires_at: soon } })).status).toBe(200);
    const expiring = await smtp.waitFor((m) => m.subject === 'Your share "quiet" expires within a day');
    expect(expiring.text).toContain('UTC');
    expect(smtp.mails.some((m) => m.subject.startsWith('Your share "quiet" was downloaded'))).toBe(false);

    // Back on from the profile.
    const on = await call('PATCH', '/api/auth/profile', { token: owner.token, body: { notify: { downloads: true } } });
    expect(on.json.user.notify.downloads).toBe(true);
  });
});
