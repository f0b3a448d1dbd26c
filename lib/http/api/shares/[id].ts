import { operations } from '@/lib/contract/operations';
import { json, noContent, route } from '@/lib/http/route';
import { deleteShare } from '@/lib/shares/delete-share';
import { getShareFor } from '@/lib/shares/list-shares';
import { updateShare } from '@/lib/shares/update-share';

// GET /api/shares/:id — one share with its items (another member's: 404)
export const GET = route(operations.getShare, async ({ rt, principal, params }) => json({ share: await getShareFor(rt, principal, params.id) }));

// PATCH /api/shares/:id — note, expiry, password, online/offline (null clears expiry/password)
export const PATCH = route(operations.updateShare, async ({ rt, principal, params, body }) =>
  json({ share: await updateShare(rt, principal, params.id, body) }),
);

// DELETE /api/shares/:id — the share, its bytes, and the owner's usage
export const DELETE = route(operations.deleteShare, async ({ rt, principal, params }) => {
  await deleteShare(rt, principal, params.id);
  return noContent();
});
