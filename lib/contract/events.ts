import { z } from 'zod';

/** Webhook event types (API.md "Events"); the site events are for administrators only. */
export const EVENT_TYPES = ['share.created', 'share.downloaded', 'share.expired', 'request.uploaded', 'site.deployed', 'site.rolled_back'] as const;
export const ADMIN_EVENT_TYPES: readonly string[] = ['site.deployed', 'site.rolled_back'];
export type EventType = (typeof EVENT_TYPES)[number];
/** Webhooks one owner may have. */
export const MAX_WEBHOOKS_PER_OWNER = 10;

const eventList = z
  .array(z.enum(EVENT_TYPES, { message: `not an event type: use ${EVENT_TYPES.join(', ')}` }))
  .min(1, 'Choose at least one event')
  .refine((s) => new Set(s).size === s.length, 'an event is named twice');
const webhookUrl = z.string().trim().min(1, 'url is required').max(2000, 'A webhook URL has at most 2000 characters');

export const createWebhookSchema = z.object({ url: webhookUrl, events: eventList });
export const updateWebhookSchema = z.object({ url: webhookUrl.optional(), events: eventList.optional(), active: z.boolean().optional() });

export type CreateWebhookInput = z.infer<typeof createWebhookSchema>;
export type UpdateWebhookInput = z.infer<typeof updateWebhookSchema>;
