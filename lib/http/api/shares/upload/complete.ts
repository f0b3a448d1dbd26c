import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { uploaderFor } from '@/lib/shares/uploader';
import { completeUpload } from '@/lib/shares/complete-upload';
import { requestChecks } from '@/lib/requests/complete-guest';

// POST /api/shares/upload/complete — merges the parts the store holds and publishes the share
export const POST = route(operations.completeUpload, async ({ rt, principal, uploadToken, body }) =>
  json({ share: await completeUpload(rt, await uploaderFor(rt, { principal, uploadToken }, body.groupId), body, requestChecks) }),
);
