import { operations } from '@/lib/contract/operations';
import { noContent, route } from '@/lib/http/route';
import { removeShareItem } from '@/lib/shares/delete-share-item';

// DELETE /api/shares/:id/items?path= — one file out of a published share (not its only one)
export const DELETE = route(operations.deleteShareItem, async ({ rt, principal, params, query }) => {
  await removeShareItem(rt, principal, params.id, query.path);
  return noContent();
});
