import 'server-only';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * TOTP (RFC 6238: HMAC-SHA1, 6 digits, 30 s) through `otpauth`, wrapped so that the one
 * decision it makes is a number or null — never a value a caller could mistake for "valid"
 * (a library whose verify became async or returned an object once made a peer's check always
 * pass: CVE-2026-44196). lib/auth/totp.test.ts holds the wrapper to that.
 */
const PERIOD = 30;
const DIGITS = 6;
/** ±1 step: a code from the previous or next 30 s is still taken (clock drift). */
const WINDOW = 1;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function otpauthUrl(secretBase32: string, account: string, issuer: string): string {
  return new TOTP({ issuer, label: account, secret: Secret.fromBase32(secretBase32), algorithm: 'SHA1', digits: DIGITS, period: PERIOD }).toString();
}

/** The time step (30 s counter) a code is valid for around `now`, or null. Only strings of 6 digits are looked at. */
export function totpStepOf(secretBase32: string, code: unknown, now = Date.now()): number | null {
  if (typeof code !== 'string' || !/^[0-9]{6}$/.test(code)) return null;
  const delta: unknown = TOTP.validate({ token: code, secret: Secret.fromBase32(secretBase32), algorithm: 'SHA1', digits: DIGITS, period: PERIOD, timestamp: now, window: WINDOW });
  if (typeof delta !== 'number' || !Number.isInteger(delta) || Math.abs(delta) > WINDOW) return null;
  return Math.floor(now / 1000 / PERIOD) + delta;
}

/** The code for a time (tests and the enrolment screen's self-check only). */
export function totpCodeAt(secretBase32: string, now = Date.now()): string {
  return TOTP.generate({ secret: Secret.fromBase32(secretBase32), algorithm: 'SHA1', digits: DIGITS, period: PERIOD, timestamp: now });
}

// The secret at rest: AES-256-GCM under a key derived from the server secret, so a copy of the
// database alone (a backup) does not hold anyone's second factor.
const keyOf = (serverSecret: string) => createHash('sha256').update(`htmls totp v1\u0000${serverSecret}`).digest();

export function sealTotpSecret(secretBase32: string, serverSecret: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', keyOf(serverSecret), iv);
  const body = Buffer.concat([c.update(secretBase32, 'utf8'), c.final()]);
  return `v1.${iv.toString('base64url')}.${c.getAuthTag().toString('base64url')}.${body.toString('base64url')}`;
}

/** The secret, or null when it cannot be opened (another server secret: the factor cannot be checked). */
export function openTotpSecret(sealed: string, serverSecret: string): string | null {
  const [v, iv, tag, body] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || !body) return null;
  try {
    const d = createDecipheriv('aes-256-gcm', keyOf(serverSecret), Buffer.from(iv, 'base64url'));
    d.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
  } catch {
    return null;
  }
}
