import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, baseUrl } from './support/http';
import { useFileServer } from './support/file-server';
import { createMember, uniqueName, type Member } from './support/members';
import { freePort } from './support/server';
import { uploadShare } from './support/shares';
import { confirmationToken, setConfirmedEmail } from './support/mail-confirm';
import { TestSmtp, type Mail } from './support/smtp';

// A real SMTP server in this process; the service mails to it. A digest every 3 s keeps the test short.
const smtpPort = await freePort();
// Next's pages: the unsubscribe page.
useFileServer({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, NOTIFY_DIGEST_MINUTES: '0.05', JANITOR_INTERVAL_SECONDS: '1', PUBLIC_URL: 'http://files.example.test' }, { pages: true });

let smtp: TestSmtp;
let owner: Member;
const EMAIL = 'owner@example.test';

beforeAll(async () => {
  smtp = await new TestSmtp().start(smtpPort);
  owner = await createMember();
  // Mail goes only to a confirmed address (tests/security-mail.test.ts).
  await setConfirmedEmail(smtp, owner, EMAIL);
  expect((await call('GET', '/api/auth/me', { token: owner.token })).json.user.notify).toEqual({ downloads: true, uploads: true, expiring: true });
});
afterAll(() => smtp?.stop());

// Subjects carry no member-written text: a mail is told apart by the share's name in its body.
const about = (note: string, subject: RegExp) => (m: Mail) => subject.test(m.subject) && m.to.includes(EMAIL) && m.text.includes(`“${note}”`);

describe('e-mail notifications', () => {
  it('a completed download is mailed at once; the next ones within the digest window come together in one mail; a partial one never', async () => {
    const note = '<b>Q&A</b> "deck"';
    const { share } = await uploadShare(owner.token, { 'slides.pdf': Buffer.alloc(5000, 1) }, { note });
    const url = `${baseUrl()}/f/${share.id}/slides.pdf`;
    await (await fetch(url)).arrayBuffer();
    const first = await smtp.waitFor(about(note, /was downloaded$/));
    expect(first.subject).toBe('Your share was downloaded');
    expect(first.text).toContain('slides.pdf');
    expect(first.text).toContain(note);
    // Names are text in the HTML part: escaped, never markup.
    expect(first.html).toContain('&lt;b&gt;Q&amp;A&lt;/b&gt; &quot;deck&quot;');
    expect(first.html).not.toContain('<b>Q&A</b>');
    expect(first.headers['list-unsubscribe']).toMatch(/^<http:\/\/files\.example\.test\/unsubscribe\?u=/);

    await (await fetch(url, { headers: { Range: 'bytes=0-99' } })).arrayBuffer();
    await (await fetch(url)).arrayBuffer();
    await (await fetch(`${baseUrl()}/f/${share.id}/?zip`)).arrayBuffer();
    const digest = await smtp.waitFor(about(note, /was downloaded 2 times$/));
    expect(digest.subject).toBe('Your share was downloaded 2 times');
    expect(digest.text).toContain('everything, as a ZIP');
    expect(smtp.mails.filter(about(note, /^Your share was downloaded/))).toHaveLength(2);
  });

  it('the unsubscribe link needs no login: GET asks, POST stops that kind; a forged link is refused', async () => {
    const { share } = await uploadShare(owner.token, { 'u.txt': Buffer.from('u') }, { note: 'unsub' });
    await (await fetch(`${baseUrl()}/f/${share.id}/u.txt`)).arrayBuffer();
    const mail = await smtp.waitFor(about('unsub', /^Your share was downloaded$/));
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
    // written after it still comes, so by then the download's event was passed over. The notice
    // is for a share that existed when its last day began: here, an expiry a day and 2 s ahead.
    const other = await uploadShare(owner.token, { 'q.txt': Buffer.from('q') }, { note: 'quiet' });
    await (await fetch(`${baseUrl()}/f/${other.share.id}/q.txt`)).arrayBuffer();
    await expect.poll(async () => (await call('GET', `/api/shares/${other.share.id}`, { token: owner.token })).json.share.download_count, { timeout: 15_000 }).toBe(1);
    const soon = new Date(Date.now() + 24 * 3600_000 + 2000).toISOString();
    expect((await call('PATCH', `/api/shares/${other.share.id}`, { token: owner.token, body: { expires_at: soon } })).status).toBe(200);
    const expiring = await smtp.waitFor(about('quiet', /^Your share expires within a day$/));
    expect(expiring.text).toContain('UTC');
    expect(smtp.mails.some(about('quiet', /^Your share was downloaded/))).toBe(false);

    // Back on from the profile.
    const on = await call('PATCH', '/api/auth/profile', { token: owner.token, body: { notify: { downloads: true } } });
    expect(on.json.user.notify.downloads).toBe(true);
  });
});

describe('what a mail calls a share, and when it says one expires (issue 41, item 11)', () => {
  it('a share without a note is named by its files, sizes read as on the page, and a share made for a day is not "about to expire" at once', async () => {
    const day = 24 * 3600_000;
    const one = await uploadShare(owner.token, { 'docs/report.pdf': Buffer.alloc(611_430, 1) }, { expires_at: new Date(Date.now() + day).toISOString() });
    const many = await uploadShare(owner.token, { 'a.txt': Buffer.from('a'), 'b.txt': Buffer.from('b'), 'c.txt': Buffer.from('c') }, { expires_at: new Date(Date.now() + day + 2000).toISOString() });
    await (await fetch(`${baseUrl()}/f/${one.share.id}/docs/report.pdf`)).arrayBuffer();
    const mail = await smtp.waitFor(about('report.pdf', /^Your share was downloaded$/));
    expect(mail.text).toContain('“docs/report.pdf” (597 kB)');
    expect(mail.raw).not.toContain(one.share.id);
    // Dates through Intl, in UTC and saying so.
    expect(mail.text).toMatch(/ at \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC/);

    // The 3-file share existed when its last day began (2 s after it was made): told. The 1-day
    // share, checked by the same janitor runs, never was.
    const expiring = await smtp.waitFor(about('a.txt and 2 more', /^Your share expires within a day$/));
    expect(expiring.raw).not.toContain(many.share.id);
    expect(smtp.mails.some(about('report.pdf', /expires/))).toBe(false);
  });
});

describe('a member’s language (issue 40)', () => {
  it('a member whose language is German gets German mails: subject, text and HTML; an unknown language is refused', async () => {
    const member = await createMember();
    const address = 'de-owner@example.test';
    await setConfirmedEmail(smtp, member, address);

    const wrong = await call('PATCH', '/api/auth/profile', { token: member.token, body: { locale: 'de-XX' } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.code).toBe('invalid_request');
    const set = await call('PATCH', '/api/auth/profile', { token: member.token, body: { locale: 'de' } });
    expect(set.status).toBe(200);
    expect(set.json.user.locale).toBe('de');

    const { share } = await uploadShare(member.token, { 'docs/bericht.pdf': Buffer.alloc(611_430, 1) });
    await (await fetch(`${baseUrl()}/f/${share.id}/docs/bericht.pdf`)).arrayBuffer();
    const mail = await smtp.waitFor((m) => m.to.includes(address) && m.subject === 'Ihre Freigabe wurde heruntergeladen');
    expect(mail.text).toContain('Jemand hat Ihre Freigabe „bericht.pdf“ vollständig heruntergeladen:');
    // German quotation marks; sizes and dates in German, through Intl.
    expect(mail.text).toMatch(/• „docs\/bericht\.pdf“ \(597 kB\) am \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} UTC/);
    expect(mail.text).toContain('Keine E-Mails mehr zu Downloads: http://files.example.test/unsubscribe?');
    expect(mail.html).toContain('<html lang="de" dir="ltr">');
    expect(mail.html).toContain('htmls öffnen</a>');
    // The page its unsubscribe link opens is German too, with no language in the request: the
    // recipient's setting (a mail client's browser may be anything).
    const unsubscribe = /<([^>]+)>/.exec(mail.headers['list-unsubscribe'])![1].replace('http://files.example.test', baseUrl());
    const ask = await fetch(unsubscribe, { headers: { 'Accept-Language': 'en' } });
    const askHtml = await ask.text();
    expect(askHtml).toContain('<html lang="de" dir="ltr">');
    expect(askHtml).toContain('<h1>Diese E-Mails abbestellen?</h1>');
    expect(askHtml).toContain('Sie erhalten dann keine E-Mails mehr zu Downloads Ihrer Freigaben.');
    const stopped = await (await fetch(unsubscribe, { method: 'POST', headers: { 'Accept-Language': 'en' } })).text();
    expect(stopped).toContain('<h1>Abbestellt</h1>');
    expect((await call('GET', '/api/auth/me', { token: member.token })).json.user.notify.downloads).toBe(false);

    // The confirmation of a new address too.
    const other = 'de-owner-2@example.test';
    const before = smtp.mails.length;
    expect((await call('PATCH', '/api/auth/profile', { token: member.token, body: { email: other, current_password: member.password } })).status).toBe(200);
    const confirm = await smtp.waitFor((m) => smtp.mails.indexOf(m) >= before && m.to.includes(other));
    expect(confirm.subject).toBe('Bestätigen Sie Ihre E-Mail-Adresse für htmls');
    expect(confirm.html).toContain('Diese Adresse bestätigen</a>');
    expect(confirmationToken(confirm)).toBeTruthy();
    // Its page asks in the browser's language; once confirmed, it answers in the member's.
    const confirmUrl = `${baseUrl()}/confirm-email?token=${encodeURIComponent(confirmationToken(confirm))}`;
    const asked = await (await fetch(confirmUrl, { headers: { 'Accept-Language': 'fr-FR,fr;q=0.9' } })).text();
    expect(asked).toContain('<h1>Confirmer cette adresse e-mail ?</h1>');
    expect(asked).toContain('>Confirmer cette adresse</button>');
    const confirmed = await (await fetch(confirmUrl, { method: 'POST', headers: { 'Accept-Language': 'en' } })).text();
    expect(confirmed).toContain('<h1>Adresse bestätigt</h1>');
    const used = await fetch(confirmUrl, { method: 'POST', headers: { 'Accept-Language': 'ar' } });
    expect(used.status).toBe(400);
    const usedHtml = await used.text();
    expect(usedHtml).toContain('<html lang="ar" dir="rtl">');
    expect(usedHtml).toContain('<bdi dir="ltr"><a href="/files">/files</a></bdi>');

    // A sign-up's confirmation mail goes in the registering browser's language (no setting yet).
    const signUp = 'de-signup@example.test';
    const registered = await call('POST', '/api/auth/register', {
      body: { username: uniqueName(), password: `pw-${uniqueName()}`, email: signUp },
      headers: { 'Accept-Language': 'de-DE,de;q=0.9,en;q=0.5' },
    });
    expect(registered.status).toBe(201);
    expect(registered.json.user.locale).toBeNull();
    const welcome = await smtp.waitFor((m) => m.to.includes(signUp));
    expect(welcome.subject).toBe('Bestätigen Sie Ihre E-Mail-Adresse für htmls');
    expect(welcome.html).toContain('<html lang="de" dir="ltr">');

    // Back to the browser's language: the server's default (English here) for mails.
    const cleared = await call('PATCH', '/api/auth/profile', { token: member.token, body: { locale: null } });
    expect(cleared.json.user.locale).toBeNull();
  });
});
