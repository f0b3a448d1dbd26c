import { partUrlSchema } from '@/lib/contract/shares';
import { json, route } from '@/lib/http/route';
import { presignPartUrl } from '@/lib/shares/upload-part';

// POST /api/shares/upload/part-url — a short-lived presigned UploadPart URL (direct mode)
export const POST = route({ auth: 'session', body: partUrlSchema }, async ({ rt, principal, body }) =>
  json(await presignPartUrl(rt, principal!, body)),
);
