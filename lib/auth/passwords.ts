import 'server-only';
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { AppError } from '../errors';
import { getEnv, SCRYPT_LOG_N_MIN, SCRYPT_LOG_N_MAX } from '../env';
import { processState } from '../process-state';
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
/**
 * One queue for the process: the compiled server (guests' unlocks) and Next's bundle (sign-in,
 * password changes) each load a copy of this module, and a bound per copy would let both fill the
 * whole pool.
 */
const hashing = processState('scrypt-queue', () => ({ running: 0, waiting: [] as (() => void)[] }));

async function scryptAsync(password: string, salt: Buffer, logN: number): Promise<Buffer> {
  if (hashing.running >= RUNNING) {
    if (hashing.waiting.length >= WAITING) {
      throw new AppError('rate_limited', 'The server is busy checking passwords; try again in a few seconds', { 'Retry-After': '2' });
    }
    await new Promise<void>((resolve) => hashing.waiting.push(resolve));
  } else {
    hashing.running++;
  }
  try {
    return await scryptOnPool(password.normalize('NFC'), salt, KEYLEN, { N: 2 ** logN, r: R, p: 1, maxmem: 256 * R * 2 ** logN });
  } finally {
    const next = hashing.waiting.shift();
    if (next) next(); // the slot passes on
    else hashing.running--;
  }
}

// scrypt r=8, p=1 and N = 2^PASSWORD_SCRYPT_LOG_N (default 2^15: 32 MiB a hash; OWASP's minimum
// for scrypt is N=2^17 with p=1 at 128 MiB; we trade some of that for a small server, and an
// operator with memory to spare raises it; docs/performance.md has its time).
const R = 8;
const KEYLEN = 32;
/** What `v2:` hashes (before the cost could be set) were made with. */
const V2_LOG_N = 15;

/** `v3:<log2 N>:<salt>:<hash>`, salt and hash base64url: the cost set when it was made. */
export async function hashPassword(password: string, logN = getEnv().passwordScryptLogN): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, logN);
  return `v3:${logN}:${salt.toString('base64url')}:${hash.toString('base64url')}`;
}

/** The cost and parts of a scrypt hash this service made (`v3`, or `v2` at its fixed cost); null for anything else. */
function parseScrypt(stored: string): { logN: number; salt: Buffer; expected: Buffer } | null {
  const parts = stored.split(':');
  if (parts.length === 3 && parts[0] === 'v2') return { logN: V2_LOG_N, salt: Buffer.from(parts[1], 'base64url'), expected: Buffer.from(parts[2], 'base64url') };
  if (parts.length !== 4 || parts[0] !== 'v3' || !/^\d\d$/.test(parts[1])) return null;
  const logN = Number(parts[1]);
  if (logN < SCRYPT_LOG_N_MIN || logN > SCRYPT_LOG_N_MAX) return null;
  return { logN, salt: Buffer.from(parts[2], 'base64url'), expected: Buffer.from(parts[3], 'base64url') };
}

/**
 * Whether a member's stored hash was made at another cost than the one set now: their sign-in
 * then stores a new one (lib/auth/log-in.ts). Until it does, a wrong password for them takes
 * another time than one for a name that does not exist (checked at the cost set now).
 */
export function needsRehash(stored: string, logN = getEnv().passwordScryptLogN): boolean {
  const made = parseScrypt(stored);
  return made !== null && made.logN !== logN;
}

/** Accepts v3 and v2 scrypt hashes, at the cost each was made with, and legacy plain SHA-256 hex hashes. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const made = parseScrypt(stored);
  if (made) {
    const actual = await scryptAsync(password, made.salt, made.logN);
    return made.expected.length === actual.length && timingSafeEqual(made.expected, actual);
  }
  if (/^[0-9a-f]{64}$/i.test(stored)) return safeEqual(sha256Hex(password), stored.toLowerCase());
  return false;
}

let dummy: Promise<string> | undefined;

/** Burns the same time as a real check, so an unknown user looks like a wrong password. */
export async function verifyAgainstDummy(password: string, logN = getEnv().passwordScryptLogN): Promise<false> {
  // A hash refused (the queue full) is not kept: the next check makes it again.
  dummy ??= hashPassword(randomBytes(16).toString('hex'), logN).catch((e) => {
    dummy = undefined;
    throw e;
  });
  await verifyPassword(password, await dummy);
  return false;
}
