import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { discardRequestUploads } from '@/lib/requests/manage-requests';

// DELETE /api/requests/:id/uploads — discard the guests' unfinished uploads to a request
export const DELETE = route(operations.discardRequestUploads, async ({ rt, principal, params }) => json({ discarded: await discardRequestUploads(rt, principal, params.id) }));
