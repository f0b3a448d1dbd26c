import { expect } from 'vitest';
import { call } from './http';
import type { Member } from './members';
import type { Mail, TestSmtp } from './smtp';

/** The token of a confirmation mail's link (GET /confirm-email?token=…). */
export function confirmationToken(mail: Mail): string {
  const m = /\/confirm-email\?token=([A-Za-z0-9_%-]+)/.exec(mail.text);
  if (!m) throw new Error(`no confirmation link in: ${mail.text}`);
  return decodeURIComponent(m[1]);
}

export const isConfirmation = (address: string) => (m: Mail) => m.to.includes(address) && m.subject === 'Confirm your e-mail address for htmls';

/** Sets the member's address and confirms it through the link mailed to it, as its owner would. */
export async function setConfirmedEmail(smtp: TestSmtp, member: Member, address: string): Promise<void> {
  const before = smtp.mails.length;
  const p = await call('PATCH', '/api/auth/profile', { token: member.token, body: { email: address, current_password: member.password } });
  expect(p.status).toBe(200);
  expect(p.json.user.email_verified).toBe(false);
  const mail = await smtp.waitFor((m) => smtp.mails.indexOf(m) >= before && isConfirmation(address)(m));
  const c = await call('POST', '/api/auth/email/confirm', { body: { token: confirmationToken(mail) } });
  expect(c.status).toBe(200);
  expect((await call('GET', '/api/auth/me', { token: member.token })).json.user.email_verified).toBe(true);
}
