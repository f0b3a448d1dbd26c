import { operations } from '@/lib/contract/operations';
import { changeWebhook, removeWebhook } from '@/lib/events/webhooks';
import { json, noContent, route } from '@/lib/http/route';

// PATCH /api/webhooks/:id — change the URL, the events or whether it is active
export const PATCH = route(operations.updateWebhook, async ({ rt, principal, params, body }) => json(await changeWebhook(rt, principal, params.id, body)));

// DELETE /api/webhooks/:id — delete a webhook and its delivery log
export const DELETE = route(operations.deleteWebhook, async ({ rt, principal, params }) => {
  await removeWebhook(rt, principal, params.id);
  return noContent();
});
