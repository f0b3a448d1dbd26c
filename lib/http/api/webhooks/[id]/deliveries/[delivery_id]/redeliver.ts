import { operations } from '@/lib/contract/operations';
import { redeliverDelivery } from '@/lib/events/webhooks';
import { json, route } from '@/lib/http/route';

// POST /api/webhooks/:id/deliveries/:delivery_id/redeliver — send that event to the webhook again
export const POST = route(operations.redeliver, async ({ rt, principal, params }) => json(await redeliverDelivery(rt, principal, params.id, params.delivery_id), 202));
