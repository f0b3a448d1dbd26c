import { resumeSchema } from '@/lib/contract/shares';
import { json, route } from '@/lib/http/route';
import { getUploadStatus } from '@/lib/shares/get-upload-status';

// POST /api/shares/upload/status — the parts the store already holds, to resume an upload
export const POST = route({ auth: 'session', body: resumeSchema }, async ({ rt, principal, body }) =>
  json(await getUploadStatus(rt, principal!, body.groupId)),
);
