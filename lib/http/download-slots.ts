/**
 * Downloads in flight per client address, counted across both listeners (issue 22, item 1):
 * each holds a store read (a file, or on S3 a socket of the download pool) until its client has
 * read it, so one address must not hold them all. In-process on purpose: a slot lives exactly as
 * long as a response of this service, and each instance's store pool is its own (kept per
 * runtime: two services of one process count apart).
 */
import 'server-only';
import type { ServerResponse } from 'node:http';
import { AppError } from '../errors';
import { perRuntime, type Runtime } from '../runtime';

/**
 * Requests an address may have waiting for a slot, per slot: past that, 429. One, so an address
 * holds at most twice its slots in connections for downloads (16 of MAX_CONNECTIONS_PER_IP's 64
 * by default): a reconnecting attacker needs four times the addresses to fill a listener
 * (issue 39, item 10a; it was 4 per slot, every connection an address may hold).
 */
const WAITING_PER_SLOT = 1;

interface Held {
  active: number;
  waiting: (() => void)[];
}

/** Each service's downloads in flight, by address. */
const slotsOf = perRuntime(() => new Map<string, Held>());

/**
 * Resolves once `ip` holds fewer than `max` downloads (0: no cap), before anything is read from
 * the store; the slot is freed when `res` closes (served, failed, or its client gone, including a
 * stalled client cut by lib/http/stalls.ts). A request past the queue is refused with 429
 * rate_limited; one whose client leaves while waiting gives its place up.
 */
export function takeDownloadSlot(rt: Runtime, ip: string, max: number, res: ServerResponse): Promise<void> {
  if (max <= 0) return Promise.resolve();
  const byAddress = slotsOf(rt);
  let held = byAddress.get(ip);
  if (!held) byAddress.set(ip, (held = { active: 0, waiting: [] }));
  const h = held;
  const release = () => {
    const next = h.waiting.shift();
    if (next) return next(); // the slot passes on
    h.active--;
    if (h.active <= 0) byAddress.delete(ip);
  };
  if (h.active < max) {
    h.active++;
    res.once('close', release);
    return Promise.resolve();
  }
  if (h.waiting.length >= max * WAITING_PER_SLOT) {
    return Promise.reject(
      new AppError('rate_limited', `At most ${max} downloads at once per address; try again when one has finished`, { 'Retry-After': '5' }),
    );
  }
  return new Promise<void>((resolve, reject) => {
    const turn = () => {
      clearTimeout(timer);
      res.off('close', leave);
      res.once('close', release);
      resolve();
    };
    const leave = () => {
      clearTimeout(timer);
      const i = h.waiting.indexOf(turn);
      if (i >= 0) h.waiting.splice(i, 1);
    };
    // A place in line is not kept for ever: the connection it holds is one of the address's.
    // DOWNLOAD_SLOT_WAIT_SECONDS: a waiter has sent nothing yet; the hosted front's wait the same.
    const timer = setTimeout(() => {
      res.off('close', leave);
      leave();
      reject(new AppError('rate_limited', `At most ${max} downloads at once per address, and none finished in time; try again when one has finished`, { 'Retry-After': '5' }));
    }, rt.env.downloadSlotWaitMs);
    timer.unref();
    h.waiting.push(turn);
    res.once('close', leave);
  });
}
