import { operations } from '@/lib/contract/operations';
import { getStorageHistory } from '@/lib/events/audit';
import { json, route } from '@/lib/http/route';

// GET /api/storage/history — each member's stored bytes per day (administrator)
export const GET = route(operations.storageHistory, async ({ rt, query }) => json(await getStorageHistory(rt, query.days)));
