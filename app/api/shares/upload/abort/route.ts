import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { abortUpload } from '@/lib/shares/abort-upload';

// POST /api/shares/upload/abort — aborts every part upload of the group and deletes its records
export const POST = route(operations.abortUpload, async ({ rt, principal, body }) => {
  await abortUpload(rt, principal!, body.groupId);
  return json({ ok: true });
});
