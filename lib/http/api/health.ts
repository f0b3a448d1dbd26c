import { operations } from '@/lib/contract/operations';
import { checkHealth } from '@/lib/health';
import { json, route } from '@/lib/http/route';

// GET /api/health — database, storage and migration status (503 when not ok)
export const GET = route(operations.health, async ({ rt }) => {
  const h = await checkHealth(rt);
  return json(h, h.ok ? 200 : 503);
});
