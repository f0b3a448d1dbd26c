import 'server-only';
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { AppError } from '../errors';
import { safeEqual, sha256Hex } from './crypto';

const scryptOnPool = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  opts: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/**
 * scrypt runs on libuv's thread pool (4 threads), which file reads and writes share: 64 members'
 * password changes at once queued every guest's read behind them (issue 22, item 5). At most
 * RUNNING hashes run at once, so half the pool stays free for file I/O; at most WAITING wait,
 * and past that the caller gets 429 at once instead of a queue that only grows.
 */
const RUNNING = 2;
const WAITING = 16;
const hashing = { running: 0, waiting: [] as (() => void)[] };

async function scryptAsync(password: string, salt: Buffer, keylen: number, opts: typeof PARAMS): Promise<Buffer> {
  if (hashing.running >= RUNNING) {
    if (hashing.waiting.length >= WAITING) {
      throw new AppError('rate_limited', 'The server is busy checking passwords; try again in a few seconds', { 'Retry-After': '2' });
    }
    await new Promise<void>((resolve) => hashing.waiting.push(resolve));
  } else {
    hashing.running++;
  }
  try {
    return await scryptOnPool(password, salt, keylen, opts);
  } finally {
    const next = hashing.waiting.shift();
    if (next) next(); // the slot passes on
    else hashing.running--;
  }
}

// scrypt N=2^15, r=8, p=1: 32 MiB a hash (OWASP's minimum for scrypt is N=2^17 with p=1 at
// 128 MiB; we trade some of that for a small server; docs/performance.md has its time).
const PARAMS = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEYLEN = 32;

/** `v2:<salt>:<hash>`, both base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password.normalize('NFC'), salt, KEYLEN, PARAMS);
  return `v2:${salt.toString('base64url')}:${hash.toString('base64url')}`;
}

/** Accepts v2 hashes and legacy plain SHA-256 hex hashes. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split(':');
  if (parts.length === 3 && parts[0] === 'v2') {
    const salt = Buffer.from(parts[1], 'base64url');
    const expected = Buffer.from(parts[2], 'base64url');
    const actual = await scryptAsync(password.normalize('NFC'), salt, KEYLEN, PARAMS);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
  if (/^[0-9a-f]{64}$/i.test(stored)) return safeEqual(sha256Hex(password), stored.toLowerCase());
  return false;
}

let dummy: Promise<string> | undefined;

/** Burns the same time as a real check, so an unknown user looks like a wrong password. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummy);
  return false;
}
