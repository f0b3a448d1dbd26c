import { operations } from '@/lib/contract/operations';
import { listAudit } from '@/lib/events/audit';
import { json, route } from '@/lib/http/route';

// GET /api/audit — the audit log of administrative actions, newest first, filtered by action and actor (administrator)
export const GET = route(operations.listAudit, async ({ rt, query }) => json(await listAudit(rt, query)));
