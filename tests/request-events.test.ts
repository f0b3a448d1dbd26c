import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call } from './support/http';
import { useFileServer } from './support/file-server';
import { createMember, type Member } from './support/members';
import { freePort } from './support/server';
import { putPart, type InitFile } from './support/shares';
import { setConfirmedEmail } from './support/mail-confirm';
import { TestSmtp } from './support/smtp';
import { WebhookReceiver } from './support/webhook-receiver';

// Issue 24 meets issue 26: a guest's upload through a file request is announced to its owner,
// signed to their webhook (request.uploaded, not share.created: the owner made no share) and
// by e-mail. A real SMTP server and a real receiver in this process.
const smtpPort = await freePort();
useFileServer({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SECONDS: '0.2', PUBLIC_URL: 'http://files.example.test' });

let smtp: TestSmtp;
let receiver: WebhookReceiver;
let owner: Member;
let secret: string;
let hookId: string;
const EMAIL = 'receiver@example.test';

beforeAll(async () => {
  smtp = await new TestSmtp().start(smtpPort);
  receiver = await new WebhookReceiver().start();
  owner = await createMember();
  await setConfirmedEmail(smtp, owner, EMAIL);
  const hook = await call('POST', '/api/webhooks', { token: owner.token, body: { url: receiver.url, events: ['share.created', 'request.uploaded'] } });
  expect(hook.status, hook.text).toBe(201);
  secret = hook.json.secret;
  hookId = hook.json.webhook.id;
});
afterAll(async () => {
  await smtp?.stop();
  await receiver?.stop();
});

it('a guest upload through a request: a signed request.uploaded with who sent what, no share.created, and the owner is mailed', async () => {
  const request = (await call('POST', '/api/requests', { token: owner.token, body: { note: 'Raw footage' } })).json.request;
  const data = Buffer.from('a guest <i>sends</i> this');
  const init = await call('POST', `/api/requests/${request.id}/upload`, {
    body: { name: 'Dana <script>', email: 'dana@example.test', files: [{ clientPath: 'clip.txt', size: data.length }] },
  });
  expect(init.status, init.text).toBe(201);
  const f = init.json.files[0] as InitFile;
  const part = await putPart(init.json.uploadToken, { groupId: init.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 }, data, init.json.mode);
  expect(part.status).toBe(200);
  const done = await call('POST', '/api/shares/upload/complete', {
    token: init.json.uploadToken,
    body: { groupId: init.json.groupId, files: [{ uploadId: f.uploadId, storageKey: f.storageKey, parts: [{ partNumber: 1, etag: part.etag }] }] },
  });
  expect(done.status, done.text).toBe(200);

  const [hit] = await receiver.waitForCount((r) => r.json.type === 'request.uploaded', 1);
  const verified = new Webhook(secret).verify(hit.body, { 'webhook-id': String(hit.headers['webhook-id']), 'webhook-timestamp': String(hit.headers['webhook-timestamp']), 'webhook-signature': String(hit.headers['webhook-signature']) }) as { data: Record<string, unknown> };
  // With PUBLIC_URL the share's whole link, and the files by name: a receiver needs no second call.
  expect(verified.data).toEqual({
    request_id: request.id,
    share_id: init.json.groupId,
    url: `http://files.example.test/f/${init.json.groupId}`,
    name: 'Dana <script>',
    file_count: 1,
    files: ['clip.txt'],
    bytes: data.length,
  });
  // The uploader's e-mail and address stay out of the payload.
  expect(hit.body).not.toContain('dana@example.test');

  const mail = await smtp.waitFor((m) => m.to.includes(EMAIL) && /1 file through your file request$/.test(m.subject));
  // The guest's name is in the body, quoted; never in the subject (issue 39, item 3).
  expect(mail.subject).toBe('You received 1 file through your file request');
  expect(mail.text).toContain('“Dana <script>”');
  expect(mail.html).toContain('Dana &lt;script&gt;');
  expect(mail.html).not.toContain('<script>');

  // A share the owner makes is share.created; the guest's upload never was one. Both would be
  // written in the completing transaction: the webhook's log holds every delivery it got.
  const log = await call('GET', `/api/webhooks/${hookId}/deliveries`, { token: owner.token });
  expect(log.json.deliveries.map((d: { type: string }) => d.type)).toEqual(['request.uploaded']);
});

it("the owner's mail names the files a guest sent, with their sizes, and carries the guest's message, escaped in HTML (issue 41, item 3)", async () => {
  const request = (await call('POST', '/api/requests', { token: owner.token, body: { note: 'Holiday photos' } })).json.request;
  const files: Record<string, Buffer> = { 'beach.jpg': Buffer.alloc(3000, 1), 'day 2/sunset.jpg': Buffer.alloc(1500, 2), 'notes.txt': Buffer.from('hello') };
  const message = 'Here they are!\nThe <script>alert(1)</script> & "rest" follow.';
  const init = await call('POST', `/api/requests/${request.id}/upload`, {
    body: { name: 'Sam Rivera', email: 'sam@example.test', message, files: Object.entries(files).map(([clientPath, b]) => ({ clientPath, size: b.length })) },
  });
  expect(init.status, init.text).toBe(201);
  const done: { uploadId: string; storageKey: string; parts: { partNumber: number; etag?: string }[] }[] = [];
  for (const f of init.json.files as InitFile[]) {
    const part = await putPart(init.json.uploadToken, { groupId: init.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 }, files[f.relativePath], init.json.mode);
    expect(part.status).toBe(200);
    done.push({ uploadId: f.uploadId, storageKey: f.storageKey, parts: [{ partNumber: 1, etag: part.etag }] });
  }
  const complete = await call('POST', '/api/shares/upload/complete', { token: init.json.uploadToken, body: { groupId: init.json.groupId, files: done } });
  expect(complete.status, complete.text).toBe(200);

  const got = await smtp.waitFor((m) => m.to.includes(EMAIL) && m.subject === 'You received 3 files through your file request');
  // Lines end in CRLF on the wire.
  const mail = { ...got, text: got.text.replace(/\r\n/g, '\n'), html: got.html.replace(/\r\n/g, '\n') };
  expect(mail.text).toContain('“Sam Rivera” (sam@example.test) uploaded 3 files (4.4 kB) through your file request “Holiday photos”:');
  expect(mail.text).toContain('• “beach.jpg” (2.9 kB)');
  expect(mail.text).toContain('• “day 2/sunset.jpg” (1.5 kB)');
  expect(mail.text).toContain('• “notes.txt” (5 B)');
  expect(mail.text).toContain('“Sam Rivera” wrote:\n> Here they are!\n> The <script>alert(1)</script> & "rest" follow.');
  // The same in the HTML part, as text: the message's markup is escaped, never markup.
  for (const name of ['beach.jpg', 'day 2/sunset.jpg', 'notes.txt', 'sam@example.test']) expect(mail.html).toContain(name);
  expect(mail.html).toContain('Here they are!\nThe &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;rest&quot; follow.');
  expect(mail.html).not.toContain('<script>');
  // Still nothing a guest wrote in the subject.
  expect(mail.subject).not.toMatch(/Sam|Holiday|beach/);
});
