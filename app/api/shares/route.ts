import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { listSharesFor } from '@/lib/shares/list-shares';

// GET /api/shares — the caller's shares (the administrator: everyone's), newest first
export const GET = route(operations.listShares, async ({ rt, principal }) => json({ shares: await listSharesFor(rt, principal!) }));
