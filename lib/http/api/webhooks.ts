import { operations } from '@/lib/contract/operations';
import { createWebhook, listWebhooks } from '@/lib/events/webhooks';
import { json, route } from '@/lib/http/route';

// GET /api/webhooks — the caller's webhooks, a page at a time (a session only, never a token)
export const GET = route(operations.listWebhooks, async ({ rt, principal, query }) => json(await listWebhooks(rt, principal, query)));

// POST /api/webhooks — a new webhook; its signing secret is in this answer only
export const POST = route(operations.createWebhook, async ({ rt, principal, body }) => json(await createWebhook(rt, principal, body), 201));
