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

export const AUDIT_ACTIONS = ['admin.login', 'admin_token.changed', 'user.created', 'user.updated', 'user.deleted', 'user.sessions_ended', 'settings.updated', 'site.deployed', 'site.rolled_back', 'project.updated', 'project.deleted', 'file.deleted', 'file.status', 'request.uploads_discarded'] as const;
export const auditQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(50).describe('Entries per page: default 50, at most 1000 (the CSV export reads pages of 1000)'),
  cursor: z.string().min(1).max(512).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  actor: z.string().max(100).optional().describe('A substring of the actor'),
});
export const storageHistoryQuerySchema = z.object({ days: z.coerce.number().int().min(1).max(365).default(30) });
