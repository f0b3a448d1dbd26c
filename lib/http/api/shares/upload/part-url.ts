import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { uploaderFor } from '@/lib/shares/uploader';
import { presignPartUrl } from '@/lib/shares/upload-part';

// POST /api/shares/upload/part-url — a short-lived presigned UploadPart URL (direct mode)
export const POST = route(operations.partUrl, async ({ rt, principal, uploadToken, body }) =>
  json(await presignPartUrl(rt, await uploaderFor(rt, { principal, uploadToken }, body.groupId), body)),
);
