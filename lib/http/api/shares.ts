import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { listSharesFor } from '@/lib/shares/list-shares';

// GET /api/shares — a page of the caller's shares (the administrator: everyone's), newest first, without items
export const GET = route(operations.listShares, async ({ rt, principal, query }) => json(await listSharesFor(rt, principal, query)));
