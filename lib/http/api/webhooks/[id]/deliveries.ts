import { operations } from '@/lib/contract/operations';
import { webhookDeliveries } from '@/lib/events/webhooks';
import { json, route } from '@/lib/http/route';

// GET /api/webhooks/:id/deliveries — the webhook's newest deliveries
export const GET = route(operations.listDeliveries, async ({ rt, principal, params }) => json(await webhookDeliveries(rt, principal, params.id)));
