import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { createRequest, listRequests } from '@/lib/requests/manage-requests';

// GET /api/requests — a page of the caller's file requests (the administrator: everyone's)
export const GET = route(operations.listRequests, async ({ rt, principal, query }) => json(await listRequests(rt, principal, query)));

// POST /api/requests — a new file request: a link /r/<id> that receives files
export const POST = route(operations.createRequest, async ({ rt, principal, body }) => json({ request: await createRequest(rt, principal, body) }, 201));
