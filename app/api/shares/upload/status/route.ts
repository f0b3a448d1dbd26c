import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { getUploadStatus } from '@/lib/shares/get-upload-status';

// POST /api/shares/upload/status — the parts the store already holds, to resume an upload
export const POST = route(operations.uploadStatus, async ({ rt, principal, body }) =>
  json(await getUploadStatus(rt, principal!, body.groupId)),
);
