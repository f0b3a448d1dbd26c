import { operations } from '@/lib/contract/operations';
import { json, noContent, route } from '@/lib/http/route';
import { deleteRequest, getRequest, updateRequest } from '@/lib/requests/manage-requests';

// GET /api/requests/:id — one file request (another member's: 404)
export const GET = route(operations.getRequest, async ({ rt, principal, params }) => json({ request: await getRequest(rt, principal, params.id) }));

// PATCH /api/requests/:id — settings, close or reopen; null clears a limit
export const PATCH = route(operations.updateRequest, async ({ rt, principal, params, body }) => json({ request: await updateRequest(rt, principal, params.id, body) }));

// DELETE /api/requests/:id — the request and its unfinished uploads; received files stay
export const DELETE = route(operations.deleteRequest, async ({ rt, principal, params }) => {
  await deleteRequest(rt, principal, params.id);
  return noContent();
});
