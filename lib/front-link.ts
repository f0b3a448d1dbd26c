/**
 * The main thread's side of the hosted front (lib/http/hosted-front.ts, issue 29): what the
 * front needs to answer a cached hosted reply on its own, kept current from here.
 *
 * - Counters and times in shared memory, read by the front on every hit without a message:
 *   the site cache's generation (a deploy, rollback, status or password change moves it as the
 *   change commits, so the front stops serving the old reply at once), when the hosting epoch
 *   was last read (the guest caches' staleness bound), and the unlock-cookie key's generation
 *   and reading time (a new Admin Token voids every unlock at once).
 * - Messages for what is bigger and never urgent: a finished reply to keep, an unlock cookie the
 *   full path accepted. A message that arrives late costs a miss, never a stale answer.
 *
 * Every function is a no-op while no front is attached (HOSTED_ORIGIN, the sandbox opt-out,
 * `npm run dev`). The link is process state: both copies of lib/ in this process (server.ts's
 * and Next's bundle) reach the same front. One front per process: the service that started it
 * (its owner) is the only one whose caches it mirrors; another service serves its hosted port
 * on the main thread (server.ts).
 */
import type { Runtime } from './runtime';

/** Int32 slots of `ints`. */
export const SITE_GEN = 0;
export const KEY_GEN = 1;
/** Requests the front answered itself (a diagnostic: the tests see the front serve). */
export const FRONT_HITS = 2;
/** Large objects the front streamed from the store itself (lib/http/handoff.ts). */
export const FRONT_OBJECTS = 3;
/** Float64 slots of `times` (ms since the epoch). */
export const SITES_READ_AT = 0;
export const KEY_READ_AT = 1;

/** A finished reply, as the front keeps it (see lib/http/guest/reply-answer.ts). */
export interface KeepMessage {
  t: 'keep';
  key: string;
  gen: number;
  status: number;
  raw: (string | string[])[];
  /** A copy of the body, transferred. */
  body: ArrayBuffer;
  etag: string;
  lock: { cookie: string; subject: string } | null;
}

export type ToFront =
  | KeepMessage
  | { t: 'unlock'; subject: string; value: string; keyGen: number }
  /** The custom domains (host → slug, lib/hosting/domains.ts): which project's replies a Host's are. */
  | { t: 'domains'; index: [string, string][] }
  /** The answer to a download slot the front asked for (`message`: refused, 429). */
  | { t: 'slot'; id: number; refused?: string }
  | { t: 'close' };
export type FromFront =
  | { t: 'listening'; port: number }
  | { t: 'refresh-key' }
  /** A download slot for `ip` (lib/http/download-slots.ts: one count per address for both threads), and its end. */
  | { t: 'slot'; id: number; ip: string }
  | { t: 'slot-free'; id: number }
  | { t: 'closed' }
  | { t: 'failed'; message: string };

/** Request headers that carry the client's address and the secret to the inner listener. */
export const FRONT_IP_HEADER = 'x-htmls-front-ip';
export const FRONT_SECRET_HEADER = 'x-htmls-front-secret';

export interface SharedState {
  ints: Int32Array;
  times: Float64Array;
}

export function createSharedState(): SharedState {
  return { ints: new Int32Array(new SharedArrayBuffer(4 * 4)), times: new Float64Array(new SharedArrayBuffer(2 * 8)) };
}

interface Link {
  /** The runtime of the service whose front it is: only its caches are mirrored (one front per process). */
  owner: Runtime;
  shared: SharedState;
  post: (message: ToFront, transfer?: ArrayBuffer[]) => void;
}

/** `keyGen`: the unlock key's generation, moved when the key changes or is forgotten. */
const state: { link: Link | null; keyGen: number; domains: [string, string][] } = { link: null, keyGen: 0, domains: [] };

/** Connects a started front; `siteGen` and `sitesReadAt` are the current values to start from. */
export function attachFront(owner: Runtime, shared: SharedState, post: Link['post'], now: { siteGen: number; sitesReadAt: number }): void {
  Atomics.store(shared.ints, SITE_GEN, now.siteGen);
  Atomics.store(shared.ints, KEY_GEN, state.keyGen);
  shared.times[SITES_READ_AT] = now.sitesReadAt;
  shared.times[KEY_READ_AT] = 0;
  state.link = { owner, shared, post };
  if (state.domains.length > 0) post({ t: 'domains', index: state.domains });
}

/**
 * The custom domains as last loaded. A front that has not heard of a change yet only misses
 * (it forwards), since the change moved the site generation too.
 */
export function mirrorDomains(rt: Runtime, index: ReadonlyMap<string, string>): void {
  if (state.link && state.link.owner !== rt) return;
  state.domains = [...index];
  state.link?.post({ t: 'domains', index: state.domains });
}

export function detachFront(): void {
  state.link = null;
}

export const frontAttached = (): boolean => state.link !== null;

/** How many requests the attached front answered itself so far (0 without one). */
export const frontHits = (): number => (state.link ? Atomics.load(state.link.shared.ints, FRONT_HITS) : 0);

/** How many large objects the attached front streamed itself so far (0 without one). */
export const frontObjects = (): number => (state.link ? Atomics.load(state.link.shared.ints, FRONT_OBJECTS) : 0);

/** The site cache dropped its entries (lib/hosting/site-cache.ts). */
export function mirrorSiteGeneration(rt: Runtime, gen: number): void {
  if (state.link?.owner === rt) Atomics.store(state.link.shared.ints, SITE_GEN, gen);
}

/** The hosting epoch was read at `at` (Infinity on PGlite: one process, always current). */
export function mirrorSitesRead(rt: Runtime, at: number): void {
  if (state.link?.owner === rt) state.link.shared.times[SITES_READ_AT] = at;
}

/** The unlock key was read at `at` (`changed`: to another value), or forgotten (`at` 0). */
export function mirrorUnlockKey(rt: Runtime, changed: boolean, at: number): void {
  if (state.link && state.link.owner !== rt) return;
  if (changed) state.keyGen++;
  if (!state.link) return;
  // The generation first: a front that sees the new time sees the new generation too.
  if (changed) Atomics.store(state.link.shared.ints, KEY_GEN, state.keyGen);
  state.link.shared.times[KEY_READ_AT] = at;
}

/** An unlock cookie the full path accepted under the current key. */
export function sendUnlock(rt: Runtime, subject: string, value: string): void {
  if (state.link?.owner === rt) state.link.post({ t: 'unlock', subject, value, keyGen: state.keyGen });
}

/** Gives the front a finished reply to keep (the body is copied, so the caller keeps its own). */
export function sendKeep(message: Omit<KeepMessage, 't' | 'body'>, body: Buffer): void {
  if (!state.link) return;
  const copy = new ArrayBuffer(body.length);
  new Uint8Array(copy).set(body);
  state.link.post({ t: 'keep', ...message, body: copy }, [copy]);
}
