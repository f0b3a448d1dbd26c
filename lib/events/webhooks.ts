import 'server-only';
import {
  countWebhooks,
  deleteWebhook,
  findWebhook,
  insertWebhook,
  listDeliveries,
  listWebhooksPage,
  queueTestEvent,
  redeliver,
  updateWebhook,
  type DeliveryWithType,
} from '@/db/queries/webhooks';
import { MAX_PENDING_PER_WEBHOOK } from '@/db/queries/events';
import type { WebhookRow } from '@/db/schema';
import { enforceRateLimit } from '../auth/rate-limit';
import { isAdmin, ownerIdOf, type Principal } from '../auth/principal';
import { ADMIN_EVENT_TYPES, MAX_WEBHOOKS_PER_OWNER, type CreateWebhookInput, type UpdateWebhookInput } from '../contract/events';
import type { ListQuery } from '../contract/lists';
import type { deliverySchema, webhookSchema } from '../contract/responses';
import { AppError, notFound } from '../errors';
import type { Runtime } from '../runtime';
import { isUuid } from '../is-uuid';
import { newWebhookSecret } from './sign';
import { parseWebhookUrl, resolveDestination } from './ssrf';
import type { z } from 'zod';
import { decodeUsCursor, encodeUsCursor } from '../lists/page-cursor';

type WebhookDto = z.output<typeof webhookSchema>;
type DeliveryDto = z.output<typeof deliverySchema>;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toWebhookDto = (w: WebhookRow): WebhookDto => ({
  id: w.id,
  url: w.url,
  events: w.events,
  active: w.active,
  created_at: w.createdAt.toISOString(),
  last_delivery_at: iso(w.lastDeliveryAt),
  last_status: w.lastStatus,
  paused_reason: w.pausedReason,
});

export const toDeliveryDto = (d: DeliveryWithType): DeliveryDto => ({
  id: d.id,
  event_id: d.eventId,
  type: d.type,
  status: d.status,
  attempts: d.attempts,
  response_status: d.responseStatus,
  response_body: d.responseBody,
  error: d.status === 'delivered' ? null : d.lastError,
  payload: { type: d.type, timestamp: d.eventAt.toISOString(), data: (d.data ?? {}) as Record<string, unknown> },
  created_at: d.createdAt.toISOString(),
  delivered_at: iso(d.deliveredAt),
});

/** The URL's form and the addresses its name resolves to now (the delivery checks again). */
async function checkUrl(rt: Runtime, raw: string): Promise<string> {
  const url = parseWebhookUrl(raw);
  await resolveDestination(url, rt.env.events.allowPrivate);
  return url.toString();
}

function checkEvents(principal: Principal, events: readonly string[]): void {
  const refused = events.filter((e) => ADMIN_EVENT_TYPES.includes(e));
  if (refused.length && !isAdmin(principal)) throw new AppError('forbidden', `Only administrators receive ${refused.join(' and ')}`);
}

/** POST /api/webhooks: the caller's new webhook and its secret, shown once. */
export async function createWebhook(rt: Runtime, principal: Principal, input: CreateWebhookInput): Promise<{ webhook: WebhookDto; secret: string }> {
  checkEvents(principal, input.events);
  const url = await checkUrl(rt, input.url);
  const owner = { ownerId: ownerIdOf(principal) };
  if ((await countWebhooks(rt.db, owner)) >= MAX_WEBHOOKS_PER_OWNER) {
    throw new AppError('conflict', `You have ${MAX_WEBHOOKS_PER_OWNER} webhooks, the most one account may have: delete one first`);
  }
  const secret = newWebhookSecret();
  const row = await insertWebhook(rt.db, { userId: owner.ownerId, url, events: input.events, secret });
  return { webhook: toWebhookDto(row), secret };
}

/** GET /api/webhooks: the caller's own, newest first, one page. */
export async function listWebhooks(rt: Runtime, principal: Principal, page: ListQuery): Promise<{ webhooks: WebhookDto[]; next_cursor: string | null }> {
  const rows = await listWebhooksPage(rt.db, { ownerId: ownerIdOf(principal) }, {
    limit: page.limit + 1,
    after: page.cursor ? decodeUsCursor(page.cursor) : undefined,
    q: page.q || undefined,
  });
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    webhooks: shown.map((r) => toWebhookDto(r.webhook)),
    next_cursor: rows.length > page.limit && last ? encodeUsCursor({ createdAtUs: last.createdAtUs, id: last.webhook.id }) : null,
  };
}

async function ownWebhook(rt: Runtime, principal: Principal, id: string): Promise<WebhookRow> {
  const row = isUuid(id) ? await findWebhook(rt.db, { ownerId: ownerIdOf(principal) }, id) : null;
  if (!row) throw notFound('No such webhook');
  return row;
}

/** PATCH /api/webhooks/:id */
export async function changeWebhook(rt: Runtime, principal: Principal, id: string, input: UpdateWebhookInput): Promise<{ webhook: WebhookDto }> {
  await ownWebhook(rt, principal, id);
  if (input.events) checkEvents(principal, input.events);
  const patch: Parameters<typeof updateWebhook>[3] = {};
  if (input.url !== undefined) patch.url = await checkUrl(rt, input.url);
  if (input.events !== undefined) patch.events = input.events;
  // Switching it on or off (re-enabling a paused webhook) starts its failure count afresh.
  if (input.active !== undefined) Object.assign(patch, { active: input.active, pausedReason: null, consecutiveFailures: 0, consecutiveTimeouts: 0 });
  const row = await updateWebhook(rt.db, { ownerId: ownerIdOf(principal) }, id, patch);
  if (!row) throw notFound('No such webhook');
  return { webhook: toWebhookDto(row) };
}

/** DELETE /api/webhooks/:id — its deliveries go with it. */
export async function removeWebhook(rt: Runtime, principal: Principal, id: string): Promise<void> {
  if (!isUuid(id) || !(await deleteWebhook(rt.db, { ownerId: ownerIdOf(principal) }, id))) throw notFound('No such webhook');
}

/** GET /api/webhooks/:id/deliveries — the newest 100. */
export async function webhookDeliveries(rt: Runtime, principal: Principal, id: string): Promise<{ deliveries: DeliveryDto[] }> {
  const w = await ownWebhook(rt, principal, id);
  return { deliveries: (await listDeliveries(rt.db, w.id, 100)).map(toDeliveryDto) };
}

/**
 * POST /api/webhooks/:id/deliveries/:delivery_id/redeliver — rate-limited per principal (each
 * call is a request to a third party), and never past the webhook's pending bound.
 */
export async function redeliverDelivery(rt: Runtime, principal: Principal, id: string, deliveryId: string): Promise<{ delivery: DeliveryDto }> {
  const w = await ownWebhook(rt, principal, id);
  await enforceRateLimit(rt, 'redeliver', ownerIdOf(principal) ?? 'admin-token');
  const d = isUuid(deliveryId) ? await redeliver(rt.db, w.id, deliveryId) : null;
  if (!d) throw notFound('No such delivery');
  if (d === 'full') {
    throw new AppError('too_many_pending', `This webhook already has ${MAX_PENDING_PER_WEBHOOK} deliveries waiting: redeliver once they are sent`);
  }
  return { delivery: toDeliveryDto(d) };
}

/** POST /api/webhooks/:id/test — a webhook.test event for this webhook alone, due now. */
export async function sendTestEvent(rt: Runtime, principal: Principal, id: string): Promise<{ delivery: DeliveryDto }> {
  const w = await ownWebhook(rt, principal, id);
  await enforceRateLimit(rt, 'redeliver', ownerIdOf(principal) ?? 'admin-token');
  const d = await queueTestEvent(rt.db, w.id, w.userId);
  if (d === 'full') throw new AppError('too_many_pending', `This webhook already has ${MAX_PENDING_PER_WEBHOOK} deliveries waiting: try again once they are sent`);
  return { delivery: toDeliveryDto(d) };
}
