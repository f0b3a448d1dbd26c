import 'server-only';
import { outboxSignal } from '@/db/queries/events';
import { claimDueDeliveries, finishAttempt, type ClaimedDelivery } from '@/db/queries/webhooks';
import { processState } from '../process-state';
import type { Runtime } from '../runtime';
import { attemptDelivery, DELIVERY_TIMEOUT_MS } from './deliver';
import { mailDue } from './mailer';

/**
 * The delivery worker: every instance runs one. It claims due deliveries from the outbox
 * (db/queries/webhooks.ts: `FOR UPDATE SKIP LOCKED` and a lease, which PGlite and PostgreSQL
 * both serve — a queue library such as pg-boss or graphile-worker needs a PostgreSQL server,
 * and the embedded default has none), sends each once, and records the outcome: delivered,
 * due again after a growing delay, or failed after the last attempt. It polls once a second
 * and is woken at once by a commit that queued a delivery on this instance. The same tick sends
 * the due notification mails (lib/events/mailer.ts).
 */
const POLL_MS = 1000;
const BATCH = 10;
/** Longer than an attempt can take: a claim older than this was lost with its instance. */
const LEASE_SECONDS = Math.ceil(DELIVERY_TIMEOUT_MS / 1000) * 6;
/**
 * Delays before each retry, in units of WEBHOOK_RETRY_SECONDS (default 5 s: 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h — Standard Webhooks' schedule): seven attempts over about 17 hours.
 */
export const RETRY_STEPS = [1, 60, 360, 1440, 3600, 7200];
export const MAX_ATTEMPTS = RETRY_STEPS.length + 1;

interface WorkerState {
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
  again: boolean;
}
const state = processState<WorkerState>('event-worker', () => ({ timer: null, running: null, again: false }));

export function startEventWorker(rt: Runtime): void {
  if (state.timer) return;
  outboxSignal.wake = () => kick(rt);
  state.timer = setInterval(() => kick(rt), POLL_MS);
  state.timer.unref();
  kick(rt);
}

/** At shutdown: no new claim; waits for the attempts in flight to be recorded. */
export async function stopEventWorker(): Promise<void> {
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
  outboxSignal.wake = null;
  state.again = false;
  await state.running;
}

function kick(rt: Runtime): void {
  if (state.running) {
    state.again = true;
    return;
  }
  state.running = (async () => {
    do {
      state.again = false;
      try {
        if ((await deliverDue(rt)) === BATCH) state.again = true;
      } catch (e) {
        console.error('[htmls] webhook delivery failed:', (e as Error).cause ?? e);
      }
      try {
        await mailDue(rt);
      } catch (e) {
        console.error('[htmls] notification mail failed:', (e as Error).cause ?? e);
      }
    } while (state.again && state.timer);
  })().finally(() => {
    state.running = null;
  });
}

/** One batch: claims, sends in parallel, records. The number claimed. */
export async function deliverDue(rt: Runtime): Promise<number> {
  const claimed = await claimDueDeliveries(rt.db, BATCH, LEASE_SECONDS);
  await Promise.all(claimed.map((d) => deliverOne(rt, d)));
  return claimed.length;
}

async function deliverOne(rt: Runtime, d: ClaimedDelivery): Promise<void> {
  const body = JSON.stringify({ type: d.type, timestamp: d.eventAt.toISOString(), data: d.data });
  const r = await attemptDelivery({ url: d.url, secret: d.secret, id: d.eventId, body, allowPrivate: rt.env.events.allowPrivate });
  const last = d.attempts >= MAX_ATTEMPTS;
  await finishAttempt(rt.db, d, {
    status: r.ok ? 'delivered' : last ? 'failed' : 'pending',
    responseStatus: r.status,
    error: r.error,
    retryInSeconds: rt.env.events.retrySeconds * RETRY_STEPS[Math.min(d.attempts, RETRY_STEPS.length) - 1],
  });
}
