import 'server-only';
import { deliveredData } from './payload';
import { outboxSignal } from '@/db/queries/events';
import { claimDueDeliveries, finishAttempt, giveBackDelivery, type ClaimedDelivery } from '@/db/queries/webhooks';
import { inService, perRuntime, type Runtime } from '../runtime';
import { attemptDelivery, DELIVERY_TIMEOUT_MS, SHORT_TIMEOUT_MS } from './deliver';
import { mailDue } from './mailer';

/**
 * The delivery worker: every instance runs one. It claims due deliveries from the outbox
 * (db/queries/webhooks.ts: `FOR UPDATE SKIP LOCKED` and a lease, which PGlite and PostgreSQL
 * both serve — a queue library such as pg-boss or graphile-worker needs a PostgreSQL server,
 * and the embedded default has none), sends each once, and records the outcome: delivered,
 * due again after a growing delay, or failed after the last attempt.
 *
 * Attempts run in a pool of SLOTS, each refilled as soon as its attempt is recorded (no batch
 * waits for its slowest receiver), and the claim is fair (issue 39, item 4): at most
 * PER_WEBHOOK attempts in flight per webhook and PER_OWNER per owner, over all instances, owners
 * taking turns. A receiver whose last attempts timed out gets a short timeout, and a webhook
 * that failed WEBHOOK_PAUSE_AFTER_FAILURES times in a row is paused. So a member's tarpit holds
 * at most PER_OWNER slots for a few seconds each, and everyone else's deliveries keep flowing.
 * The worker polls once a second and is woken at once by a commit that queued a delivery on
 * this instance. Notification mail has a loop of its own (lib/events/mailer.ts), never behind
 * a receiver.
 */
const POLL_MS = 1000;
const SLOTS = 16;
const PER_WEBHOOK = 2;
const PER_OWNER = 4;
/** Timeouts in a row after which a receiver gets SHORT_TIMEOUT_MS. */
const SLOW_AFTER = 3;
/** Longer than an attempt can take: a claim older than this was lost with its instance. */
const LEASE_SECONDS = Math.ceil(DELIVERY_TIMEOUT_MS / 1000) * 6;
/**
 * Delays before each retry, in units of WEBHOOK_RETRY_SECONDS (default 5 s: 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h — Standard Webhooks' schedule): seven attempts over about 17 hours.
 */
export const RETRY_STEPS = [1, 60, 360, 1440, 3600, 7200];
export const MAX_ATTEMPTS = RETRY_STEPS.length + 1;

interface Loop {
  running: Promise<void> | null;
  again: boolean;
}
interface WorkerState {
  timer: NodeJS.Timeout | null;
  /** The claim loop (one claim statement at a time per instance). */
  claims: Loop;
  mail: Loop;
  /** Attempts in flight on this instance. */
  inFlight: Set<Promise<void>>;
  /** Aborted at stop: ends the attempts in flight, whose deliveries are given back. */
  abort: AbortController;
}
/** Each service's worker. */
const stateOf = perRuntime<WorkerState & { wake?: () => void }>(() => ({
  timer: null,
  claims: { running: null, again: false },
  mail: { running: null, again: false },
  inFlight: new Set(),
  abort: new AbortController(),
}));

export function startEventWorker(rt: Runtime): void {
  const state = stateOf(rt);
  if (state.timer) return;
  state.abort = new AbortController();
  // A commit wakes every service's worker of the process: one whose outbox got nothing claims nothing.
  state.wake = () => fill(rt);
  outboxSignal.wakers.add(state.wake);
  state.timer = setInterval(() => {
    fill(rt);
    run(state, state.mail, () => inService(rt, () => mailDue(rt)), 'notification mail');
  }, POLL_MS);
  state.timer.unref();
  fill(rt);
  run(state, state.mail, () => inService(rt, () => mailDue(rt)), 'notification mail');
}

/**
 * At shutdown, before the database closes: no new claim, and the attempts in flight end at once
 * (a slow receiver would hold the stop for its whole timeout). An attempt answered already is
 * recorded; one cut short is given back, due again at the next start, so no event is lost.
 * Resolves when nothing of the worker uses the database any more.
 */
export async function stopEventWorker(rt: Runtime): Promise<void> {
  const state = stateOf(rt);
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
  if (state.wake) outboxSignal.wakers.delete(state.wake);
  state.claims.again = false;
  state.mail.again = false;
  state.abort.abort();
  await Promise.all([state.claims.running, state.mail.running]);
  await Promise.all([...state.inFlight]);
}

/** Runs `step` once at a time; a call while it runs makes it run once more after. */
function run(state: WorkerState, loop: Loop, step: () => Promise<unknown>, what: string): void {
  if (loop.running) {
    loop.again = true;
    return;
  }
  loop.running = (async () => {
    do {
      loop.again = false;
      try {
        await step();
      } catch (e) {
        console.error(`[htmls] ${what} failed:`, (e as Error).cause ?? e);
      }
    } while (loop.again && state.timer);
  })().finally(() => {
    loop.running = null;
  });
}

/** Claims work for the free slots; each attempt that ends asks for more. */
function fill(rt: Runtime): void {
  const state = stateOf(rt);
  run(state, state.claims, () => inService(rt, () => claimForFreeSlots(rt)), 'webhook delivery');
}

async function claimForFreeSlots(rt: Runtime): Promise<void> {
  const state = stateOf(rt);
  const free = SLOTS - state.inFlight.size;
  if (free <= 0 || !state.timer) return;
  const claimed = await claimDueDeliveries(rt.db, { limit: free, perWebhook: PER_WEBHOOK, perOwner: PER_OWNER, leaseSeconds: LEASE_SECONDS });
  for (const d of claimed) {
    const p: Promise<void> = deliverOne(rt, d)
      .catch((e) => console.error('[htmls] webhook delivery failed:', (e as Error).cause ?? e))
      .finally(() => {
        state.inFlight.delete(p);
        if (state.timer) fill(rt);
      });
    state.inFlight.add(p);
  }
}

async function deliverOne(rt: Runtime, d: ClaimedDelivery): Promise<void> {
  const { signal } = stateOf(rt).abort;
  // Claimed as the service stopped: given back unsent.
  if (signal.aborted) return giveBackDelivery(rt.db, d);
  const body = JSON.stringify({ type: d.type, timestamp: d.eventAt.toISOString(), data: deliveredData(d.data, rt.env.publicUrl) });
  const r = await attemptDelivery({
    url: d.url,
    secret: d.secret,
    id: d.eventId,
    body,
    allowPrivate: rt.env.events.allowPrivate,
    timeoutMs: d.consecutiveTimeouts >= SLOW_AFTER ? SHORT_TIMEOUT_MS : DELIVERY_TIMEOUT_MS,
    signal,
  });
  // Cut short by the stop: the receiver may have had it, but gave no answer to record. Sent
  // again at the next start (receivers dedupe by webhook-id); not counted against its attempts.
  if (!r.ok && signal.aborted) return giveBackDelivery(rt.db, d);
  const last = d.attempts >= MAX_ATTEMPTS;
  const paused = await finishAttempt(
    rt.db,
    d,
    {
      status: r.ok ? 'delivered' : last ? 'failed' : 'pending',
      responseStatus: r.status,
      responseBody: r.body,
      error: r.error,
      timedOut: r.timedOut,
      retryInSeconds: rt.env.events.retrySeconds * RETRY_STEPS[Math.min(d.attempts, RETRY_STEPS.length) - 1],
    },
    rt.env.events.pauseAfterFailures,
  );
  if (paused) console.warn(`[htmls] webhook ${d.webhookId} paused after ${rt.env.events.pauseAfterFailures} failed deliveries in a row`);
}
