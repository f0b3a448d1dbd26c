import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { uploaderFor } from '@/lib/shares/uploader';
import { abortUpload } from '@/lib/shares/abort-upload';

// POST /api/shares/upload/abort — aborts every part upload of the group and deletes its records
export const POST = route(operations.abortUpload, async ({ rt, principal, uploadToken, body }) => {
  await abortUpload(rt, await uploaderFor(rt, { principal, uploadToken }, body.groupId), body.groupId);
  return json({ ok: true });
});
