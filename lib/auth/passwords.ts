import 'server-only';
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { AppError } from '../errors';
import { getEnv, SCRYPT_LOG_N_MIN, SCRYPT_LOG_N_MAX } from '../env';
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
 * RUNNING hashes run at once, so half the pool stays free for file I/O.
 *
 * Checking a password (sign-in, unlocks) and setting one are two lanes (issue 39, item 2): one
 * member setting passwords on 40 connections kept the single queue full, and every sign-in and
 * unlock answered 429. Setting runs on at most SET_RUNNING of the slots, so checking always has
 * one of its own, and a freed slot goes to a waiting check first. Each lane holds at most WAITING
 * waiting, and one key (a member, the administrator, an address) at most PER_KEY running and
 * waiting in a lane: past either the caller gets 429 at once instead of a queue that only grows.
 */
const RUNNING = 2;
const SET_RUNNING = 1;
const WAITING = 16;
const PER_KEY = 4;

type Lane = 'verify' | 'set';

/**
 * One queue for the process: the compiled server (guests' unlocks) and Next's bundle (sign-in,
 * password changes) each load a copy of this module, and a bound per copy would let both fill the
 * whole pool.
 */
const hashing = {
  running: 0,
  setting: 0,
  waiting: { verify: [] as (() => void)[], set: [] as (() => void)[] },
  held: new Map<string, number>(),
};

const busy = () => new AppError('rate_limited', 'The server is busy checking passwords; try again in a few seconds', { 'Retry-After': '2' });

const mayStart = (lane: Lane) => hashing.running < RUNNING && (lane === 'verify' || hashing.setting < SET_RUNNING);

function start(lane: Lane): void {
  hashing.running++;
  if (lane === 'set') hashing.setting++;
}

/** Hands freed slots on: waiting checks first, then a setting while it has a slot. */
function pump(): void {
  for (;;) {
    const lane: Lane | null = hashing.waiting.verify.length > 0 && mayStart('verify') ? 'verify' : hashing.waiting.set.length > 0 && mayStart('set') ? 'set' : null;
    if (!lane) return;
    start(lane);
    hashing.waiting[lane].shift()!();
  }
}

async function scryptAsync(password: string, salt: Buffer, logN: number, lane: Lane, key: string): Promise<Buffer> {
  const held = `${lane}:${key}`;
  const mine = hashing.held.get(held) ?? 0;
  if (mine >= PER_KEY) throw busy();
  const now = mayStart(lane) && hashing.waiting[lane].length === 0;
  if (!now && hashing.waiting[lane].length >= WAITING) throw busy();
  hashing.held.set(held, mine + 1);
  try {
    if (now) start(lane);
    else await new Promise<void>((resolve) => hashing.waiting[lane].push(resolve)); // pump() starts it
    try {
      return await scryptOnPool(password.normalize('NFC'), salt, KEYLEN, { N: 2 ** logN, r: R, p: 1, maxmem: 256 * R * 2 ** logN });
    } finally {
      hashing.running--;
      if (lane === 'set') hashing.setting--;
      pump();
    }
  } finally {
    const left = (hashing.held.get(held) ?? 1) - 1;
    if (left > 0) hashing.held.set(held, left);
    else hashing.held.delete(held);
  }
}

// scrypt r=8, p=1 and N = 2^PASSWORD_SCRYPT_LOG_N (default 2^15: 32 MiB a hash; OWASP's minimum
// for scrypt is N=2^17 with p=1 at 128 MiB; we trade some of that for a small server, and an
// operator with memory to spare raises it; docs/performance.md has its time).
const R = 8;
const KEYLEN = 32;
/** What `v2:` hashes (before the cost could be set) were made with. */
const V2_LOG_N = 15;

/**
 * `v3:<log2 N>:<salt>:<hash>`, salt and hash base64url: the cost set when it was made. `by` is
 * who sets it (lib/auth/password-setting.ts: setterKey), for its share of the setting lane.
 */
export async function hashPassword(password: string, by: string, logN = getEnv().passwordScryptLogN): Promise<string> {
  return makeHash(password, logN, 'set', by);
}

async function makeHash(password: string, logN: number, lane: Lane, by: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, logN, lane, by);
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

/**
 * Accepts v3 and v2 scrypt hashes, at the cost each was made with, and legacy plain SHA-256 hex
 * hashes. `by` is the client's address, for its share of the checking lane.
 */
export async function verifyPassword(password: string, stored: string, by: string): Promise<boolean> {
  const made = parseScrypt(stored);
  if (made) {
    const actual = await scryptAsync(password, made.salt, made.logN, 'verify', by);
    return made.expected.length === actual.length && timingSafeEqual(made.expected, actual);
  }
  if (/^[0-9a-f]{64}$/i.test(stored)) return safeEqual(sha256Hex(password), stored.toLowerCase());
  return false;
}

let dummy: Promise<string> | undefined;

/** Burns the same time as a real check, so an unknown user looks like a wrong password. */
export async function verifyAgainstDummy(password: string, by: string, logN = getEnv().passwordScryptLogN): Promise<false> {
  // A hash refused (the queue full) is not kept: the next check makes it again.
  dummy ??= makeHash(randomBytes(16).toString('hex'), logN, 'verify', by).catch((e) => {
    dummy = undefined;
    throw e;
  });
  await verifyPassword(password, await dummy, by);
  return false;
}
