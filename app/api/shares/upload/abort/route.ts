import { abortSchema } from '@/lib/contract/shares';
import { json, route } from '@/lib/http/route';
import { abortUpload } from '@/lib/shares/abort-upload';

// POST /api/shares/upload/abort — aborts every part upload of the group and deletes its records
export const POST = route({ auth: 'session', body: abortSchema }, async ({ rt, principal, body }) => {
  await abortUpload(rt, principal!, body.groupId);
  return json({ ok: true });
});
