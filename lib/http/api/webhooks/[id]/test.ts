import { operations } from '@/lib/contract/operations';
import { sendTestEvent } from '@/lib/events/webhooks';
import { json, route } from '@/lib/http/route';

// POST /api/webhooks/:id/test — send a webhook.test event to this webhook now
export const POST = route(operations.testWebhook, async ({ rt, principal, params }) => json(await sendTestEvent(rt, principal, params.id), 202));
