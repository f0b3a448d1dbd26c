import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { presignPartUrl } from '@/lib/shares/upload-part';

// POST /api/shares/upload/part-url — a short-lived presigned UploadPart URL (direct mode)
export const POST = route(operations.partUrl, async ({ rt, principal, body }) =>
  json(await presignPartUrl(rt, principal!, body)),
);
