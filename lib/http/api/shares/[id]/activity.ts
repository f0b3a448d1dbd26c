import { operations } from '@/lib/contract/operations';
import { getShareActivity } from '@/lib/events/share-activity';
import { json, route } from '@/lib/http/route';

// GET /api/shares/:id/activity — downloads per day and the newest downloads (another member's share: 404)
export const GET = route(operations.getShareActivity, async ({ rt, principal, params }) => json({ activity: await getShareActivity(rt, principal, params.id) }));
