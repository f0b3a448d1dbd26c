import 'server-only';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const sha256Hex = (value: string | Buffer) => createHash('sha256').update(value).digest('hex');

/** Constant-time string comparison: hash both sides so lengths never differ. */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** 32 random bytes (256 bits), URL-safe. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

export function hmac(key: string, ...parts: (string | number)[]): string {
  const h = createHmac('sha256', key);
  for (const p of parts) h.update(String(p)).update('\u0000');
  return h.digest('base64url');
}

const ALPHANUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const ALPHANUM_MIXED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Unbiased random string over an alphabet (rejection sampling). */
export function randomString(length: number, alphabet = ALPHANUM): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < limit && out.length < length) out += alphabet[b % alphabet.length];
    }
  }
  return out;
}

export const randomSlug = () => randomString(8);
export const randomId = (length = 12) => randomString(length, ALPHANUM_MIXED);
