import { z } from 'zod';

import { EVENT_TYPES } from './event-types';

export { ADMIN_EVENT_TYPES, EVENT_TYPES, MAX_WEBHOOKS_PER_OWNER, type EventType } from './event-types';

const eventList = z
  .array(z.enum(EVENT_TYPES, { message: `not an event type: use ${EVENT_TYPES.join(', ')}` }))
  .min(1, 'Choose at least one event')
  .refine((s) => new Set(s).size === s.length, 'an event is named twice');
const webhookUrl = z.string().trim().min(1, 'url is required').max(2000, 'A webhook URL has at most 2000 characters');

export const createWebhookSchema = z.object({ url: webhookUrl, events: eventList });
export const updateWebhookSchema = z.object({ url: webhookUrl.optional(), events: eventList.optional(), active: z.boolean().optional() });

export type CreateWebhookInput = z.infer<typeof createWebhookSchema>;
export type UpdateWebhookInput = z.infer<typeof updateWebhookSchema>;
