import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { uploaderFor } from '@/lib/shares/uploader';
import { getUploadStatus } from '@/lib/shares/get-upload-status';

// POST /api/shares/upload/status — the parts the store already holds, to resume an upload
export const POST = route(operations.uploadStatus, async ({ rt, principal, uploadToken, body }) =>
  json(await getUploadStatus(rt, await uploaderFor(rt, { principal, uploadToken }, body.groupId), body.groupId)),
);
